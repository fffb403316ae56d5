#!/bin/sh
# Module names, pairing, escapes and golden strings, driven from C
# (tests/unit/test_batch.c).
. "$(dirname "$0")/lib.sh"
run_unit test_batch
