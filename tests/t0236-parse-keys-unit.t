#!/bin/sh
# The allocations' values filed under their keys at once, a duplicate key
# still reported at its line (tests/unit/test_parse_keys.c).
. "$(dirname "$0")/lib.sh"
run_unit test_parse_keys
