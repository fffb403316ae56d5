#!/bin/sh
# Canonical hashing while parsing gives the hashes from the text (tests/unit/test_canon_fused.c).
. "$(dirname "$0")/lib.sh"
run_unit test_canon_fused
