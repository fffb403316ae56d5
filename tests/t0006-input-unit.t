#!/bin/sh
# Pages of a mapped dump: given back, mapped ahead (tests/unit/test_input.c).
. "$(dirname "$0")/lib.sh"
run_unit test_input
