#!/bin/sh
# The stable sort of value and peak lists (tests/unit/test_keysort.c).
. "$(dirname "$0")/lib.sh"
run_unit test_keysort
