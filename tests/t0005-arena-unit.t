#!/bin/sh
# Growable arrays, small and big (tests/unit/test_arena.c).
. "$(dirname "$0")/lib.sh"
run_unit test_arena
