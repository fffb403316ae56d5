#!/bin/sh
. "$(dirname "$0")/lib.sh"
run_unit test_parse_scan
