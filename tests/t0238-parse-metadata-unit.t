#!/bin/sh
# An instruction's metadata: op_name, source_file, source_line in the
# usual form and every way out of it (tests/unit/test_parse_metadata.c).
. "$(dirname "$0")/lib.sh"
run_unit test_parse_metadata
