#!/bin/sh
# The JSON writer: layout, escapes, integers, output past its buffer
# (tests/unit/test_json.c).
. "$(dirname "$0")/lib.sh"
run_unit test_json
