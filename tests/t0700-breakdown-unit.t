#!/bin/sh
# The byte breakdown, driven from C (tests/unit/test_breakdown.c).
. "$(dirname "$0")/lib.sh"
run_unit test_breakdown
