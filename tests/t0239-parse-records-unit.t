#!/bin/sh
# Records and the lines the parser reads with the line before them:
# positions, uses, sequences, messages at lines read so
# (tests/unit/test_parse_records.c).
. "$(dirname "$0")/lib.sh"
run_unit test_parse_records
