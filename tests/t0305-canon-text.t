#!/bin/sh
# Canonical texts against a byte-by-byte reference (tests/unit/test_canon_text.c).
. "$(dirname "$0")/lib.sh"
run_unit test_canon_text
