#!/bin/sh
# The parser's pre-walk keeps values it has seen; near misses of them hash as their text (tests/unit/test_canon_prewalk.c).
. "$(dirname "$0")/lib.sh"
run_unit test_canon_prewalk
