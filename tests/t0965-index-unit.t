#!/bin/sh
# The flat hash index: put, put with the hash given, find (tests/unit/test_index.c).
. "$(dirname "$0")/lib.sh"
run_unit test_index
