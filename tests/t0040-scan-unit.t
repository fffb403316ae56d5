#!/bin/sh
# The scanning seam: vector operations against their portable reference,
# scanners against byte-by-byte readings at a page's end, and no vector
# code outside scan.[ch] (tests/unit/test_scan.c).
. "$(dirname "$0")/lib.sh"
run_unit test_scan
