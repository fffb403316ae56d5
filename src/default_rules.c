/*
 * default_rules.c - rules/default.rules compiled in, so the default gate
 * works from any directory and after `make install`.
 *
 * Keep it identical to rules/default.rules (tests/unit/test_rules.c
 * compares the two byte for byte).  Regenerate the string with:
 *
 *	sed -e 's/[\\"]/\\&/g' -e 's/^/\t"/' -e 's/$/\\n"/' rules/default.rules
 */
#include "hlodiff/rules.h"

const char hd_default_rules_text[] =
	"# default.rules - the gate hlodiff applies when no --rules file is given.\n"
	"#\n"
	"# Compiled into hlodiff (src/default_rules.c holds the same text; a test\n"
	"# keeps the two identical).  OLD is the base, NEW the change under review.\n"
	"# The language is described in docs/rules.md.\n"
	"\n"
	"# Footprint: what decides whether a program still fits on the device.\n"
	"# The same program and XLA build give the same numbers (FORMAT.md\n"
	"# section 11), so growth comes from the change; 1% lets layout and\n"
	"# padding shuffles through and stops what costs real memory on a large\n"
	"# model.  The 64 KiB floor keeps a module of a few KiB from failing on\n"
	"# a few KiB (docs/rules.md says how it was chosen); from 6.4 MiB up,\n"
	"# 1% is the larger of the two and alone decides.\n"
	"error total_bytes grows by more than 1% and by more than 64 KiB\n"
	"error peak_bytes grows by more than 1% and by more than 64 KiB\n"
	"\n"
	"# Memory-space assignment changed its mind: new transfers cost bandwidth\n"
	"# and latency even when the footprint is flat.  Worth a look, not a block.\n"
	"warn new prefetches\n"
	"warn new evictions\n"
	"warn new cross_program_prefetches\n"
	"warn new host_offloads\n"
	"warn new host_reloads\n"
	"";

const size_t hd_default_rules_len = sizeof(hd_default_rules_text) - 1;
