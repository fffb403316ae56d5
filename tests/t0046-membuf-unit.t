#!/bin/sh
# The memory stream reports are rendered into: what is written comes back
# byte for byte, past stdio's buffer and past 2 MiB (tests/unit/test_membuf.c).
. "$(dirname "$0")/lib.sh"
run_unit test_membuf
