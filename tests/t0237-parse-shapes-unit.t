#!/bin/sh
# Value lines' shapes kept once each in the dump, up to a budget
# (tests/unit/test_parse_shapes.c).
. "$(dirname "$0")/lib.sh"
run_unit test_parse_shapes
