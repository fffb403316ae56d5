#!/bin/sh
# Hashes the parser and canonical hashing keep are their text's (tests/unit/test_canon_cached.c).
. "$(dirname "$0")/lib.sh"
run_unit test_canon_cached
