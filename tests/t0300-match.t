#!/bin/sh
# Canonical forms and value matching: tests/unit/test_match.c.
. "$(dirname "$0")/lib.sh"
run_unit test_match
