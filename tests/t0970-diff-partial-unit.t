#!/bin/sh
# The partial listing of a diff against the whole one
# (tests/unit/test_diff_partial.c).
. "$(dirname "$0")/lib.sh"
run_unit test_diff_partial
