#!/bin/sh
# The rules language in C: parsing, every error message, the condition
# arithmetic, every metric with every condition, waivers, scope, the
# built-in default rules (tests/unit/test_rules.c).
. "$(dirname "$0")/lib.sh"
run_unit test_rules
