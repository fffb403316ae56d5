/*
 * test_canon_prewalk.c - the parser's canonical pre-walk (HD_PARSE_CANON,
 * canon.h: hd_canon_pre) keeps what it has seen: backend_config values
 * found to run plain, and copied attribute values walked to their end
 * without a '%'.  A later value equal to a kept one, or only starting
 * like it, must still give the canonical text of hd_canon_insn_text
 * (which keeps nothing).  Likewise attributes written as they are,
 * or as "key=%stem", kept whole.
 *
 * A made-up dump of many instructions, each with attributes drawn from
 * a set of near misses (same length, same first bytes, a kept value
 * followed by something other than ", ", an id key late in the value,
 * ", " inside strings ...), parsed with the flag: every canonical hash
 * is the XXH3-64 of hd_canon_insn_text, and equals the hash computed
 * from the text without the flag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "hlodiff/canon.h"
#include "hlodiff/parse.h"
#include "tap/dumps.h"
#include "tap/tap.h"

#define BC "backend_config="
#define B0 "{\"flag_configs\":[],\"scoped_memory_configs\":[]," \
	   "\"used_scoped_memory_configs\":[]}"

/* Attribute lists after "opcode(operands), ". */
static const char *const attrs[] = {
	"kind=kLoop, calls=%fused_computation.7, " BC B0,
	"kind=kLoop, calls=%fused_computation.8, " BC B0,
	/* same length as B0, one byte changed at the end */
	"kind=kLoop, " BC "{\"flag_configs\":[],\"scoped_memory_configs\":[],"
	"\"used_scoped_memory_configs\":[]]",
	/* an id key, early and in the last bytes */
	BC "{\"fusion_id\":\"3\",\"flag_configs\":[],\"scoped_memory_configs\":[]}",
	BC "{\"flag_configs\":[],\"scoped_memory_configs\":[],\"x\":[],"
	"\"operation_queue_id\":\"1\"}",
	BC "{\"flag_configs\":[],\"scoped_memory_configs\":[],"
	"\"wait_on_operation_queues\":[1,2]}",
	/* B0, then more attributes */
	BC B0 ", frontend_attributes={a=\"1\"}",
	BC B0 ",x",
	BC B0 ", y",
	BC B0 ", ",
	BC B0 ",  ",
	/* ", " in a string of the config; a space without a comma */
	BC "{\"flag_configs\":[],\"s\":\"a, b\",\"scoped_memory_configs\":[]}",
	BC "{\"flag_configs\":[],\"s\":\"a b\",\"scoped_memory_configs\":[1]}",
	BC "{\"n\":\"1\"}",
	BC "{\"n\":\"1\"}, " BC "{\"n\":\"2\"}",
	/* copied values met again: equal, longer, followed by other bytes */
	"sharding={devices=[1,8]<=[8]}, metadata={op_name=\"a\"}",
	"sharding={devices=[1,8]<=[8]}",
	"sharding={devices=[1,8]<=[8]}x, kind=kLoop",
	"sharding={devices=[1,8]<=[8]}%p.1, kind=kLoop",
	"sharding={devices=[1,8]<=[8], %p.1}, kind=kLoop",
	"sharding={devices=[1,8]<=[8]},kind=kLoop, x=1",
	"sharding={devices=[1,8]<=[8]}}, to_apply=%region.12",
	"sharding={devices=[1,8]<=[9]}, to_apply=%region.12",
	"replica_groups={{0,1},{2,3}}, to_apply=%add.3, metadata={}",
	"replica_groups={{0,1},{2,3}}, to_apply=%add.4, channel_id=5",
	"dimensions={0,1}, slice={[0:4], [1:2]}",
	"custom_call_target=\"foo, bar\", api_version=API_VERSION_1",
	"custom_call_target=\"foo, bar\\\", x\", api_version=API_VERSION_2",
	"custom_call_target=\"foo, bar\"",
	"to_apply=%region_0.5_spmd, x=%constant_9_1.2",
	"kind=kOutput",
	"kind=kOutput, calls=%fused_computation.1.clone",
	"kind=, calls=%c.1",
	"kind, calls=%c.1",
	"calls=%fused_computation, kind=kLoop ",
	"control-predecessors={%a.1}, metadata={op_name=\"b\"}, " BC B0,
	/* first attributes kept whole (written as they are, followed by
	 * ", "), then met with other bytes after the same first ones */
	"kind=kLoop, calls=%fused_computation.9, metadata={op_name=\"c\"}",
	"kind=kLoopy, calls=%fused_computation.9, metadata={op_name=\"c\"}",
	"kind=kLoop,calls=%fused_computation.9, metadata={op_name=\"c\"}",
	"kind=kLoop , calls=%fused_computation.9, metadata={op_name=\"c\"}",
	"kind=kLoop",
	"sharding={a, b}, calls=%fused_computation.9, metadata={op_name=\"d\"}",
	"sharding={a, b}}, calls=%fused_computation.9, metadata={op_name=\"d\"}",
	"sharding={a, calls=%fused_computation.9}, metadata={op_name=\"d\"}",
	"to_apply=%add.3, calls=%fused_computation.9, metadata={op_name=\"e\"}",
	"to_apply=%add.34, calls=%fused_computation.9, metadata={op_name=\"e\"}",
	"s=\"a, b\", calls=%fused_computation.9, metadata={op_name=\"f\"}",
	"s=\"a, c\", calls=%fused_computation.9, metadata={op_name=\"f\"}",
	/* 29 and 30 bytes: kept, and too long to keep */
	"abcdefghijklmnopqrstuvw=xyz12, calls=%fused_computation.9, x=1",
	"abcdefghijklmnopqrstuvw=xyz123, calls=%fused_computation.9, x=1",
	"abcdefghijklmnopqrstuvw=xyz12",
	/* attributes of one %name kept as "key=%stem", then met with
	 * other digits, none, or more after the same bytes */
	"calls=%fused_computation.9, kind=kLoop, x=1",
	"calls=%fused_computation.10, kind=kLoop, x=1",
	"calls=%fused_computation, kind=kLoop, x=1",
	"calls=%fused_computation.9.clone, kind=kLoop",
	"calls=%fused_computation.9x, kind=kLoop, x=1",
	"calls=%fused_computation., kind=kLoop, x=1",
	"calls=%fused_computation.9}, kind=kLoop, x=1",
	"calls=%fused_computation.9 , kind=kLoop, x=1",
	"calls=%fused_computation_9.1, kind=kLoop, x=1",
	"calls=%fused_computation.9 x, kind=kLoop, x=1",
	"kind=kLoop, x=1, calls=%fused_computation.12",
	"calls=%constant.2, kind=kLoop, to_apply=%constant_9_1.2",
	"calls=%constant_9_1.2, kind=kLoop, to_apply=%constant.2",
	"calls=%a.1.2, kind=kLoop, to_apply=%a.1, x=%a.1.2.3",
};

static const char *const operands[] = {
	"%p.1, %q.2", "%p.1", "", "0", "%a.1, /*index=1*/%b.2, %c",
	"%p.1, %q.2, s32[] %r.3", "%constant_3_1, %x.1.2",
};

#define N_INSNS 600

static uint32_t rng = 12345;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

static char *made_up(void)
{
	struct tap_text t = { NULL, 0, 0 };
	char line[256];
	unsigned i;

	tap_text_temps(&t, N_INSNS);
	for (i = 0; i < N_INSNS; i++) {
		/* runs of one list now and then, so values are kept and met
		 * again right after, and later among others */
		unsigned a = i % 50 < 10 ? (i / 50) % (unsigned)(sizeof(attrs) /
								  sizeof(*attrs)) :
			     rnd(sizeof(attrs) / sizeof(*attrs));

		snprintf(line, sizeof(line),
			 "<%u v.%u @0>\n positions:\n  v.%u\n uses:\n"
			 " from instruction: %%v.%u = f32[4]{0} fusion(%s), ",
			 i, i, i, i,
			 operands[rnd(sizeof(operands) / sizeof(*operands))]);
		tap_text_put(&t, line);
		tap_text_put(&t, attrs[a]);
		tap_text_put(&t, "\n");
	}
	return t.p;
}

int main(void)
{
	struct tap_parsed pt, ft;
	struct hd_canon a, b;
	unsigned flags = HD_PARSE_NO_SIBLINGS;
	unsigned bad_text = 0, bad_plain = 0, pass;
	char *buf = NULL;
	size_t cap = 0;

	plan(2);
	for (pass = 0; pass < 4; pass++) {
		char *s = made_up();
		/* parsed from copies of exactly its bytes: the pre-walk's
		 * 16- and 32-byte loads must stay inside them (ASan) */
		const struct hd_dump *fused = &ft.d;
		uint32_t i;

		tap_parse_exact(&pt, "<made up>", s, strlen(s), flags);
		tap_parse_exact(&ft, "<made up>", s, strlen(s),
				flags | HD_PARSE_CANON);
		if (pt.rc | ft.rc)
			bail("made-up dump does not parse");
		hd_canon_compute(&a, &pt.d);
		hd_canon_compute(&b, fused);
		if (a.n_insns != N_INSNS || b.n_insns != N_INSNS || b.n_walked)
			bail("made-up dump: %u and %u instructions, %u walked",
			     a.n_insns, b.n_insns, b.n_walked);
		for (i = 0; i < b.n_insns; i++) {
			size_t n = hd_canon_insn_text(&HD_INSN(fused, i),
						      &buf, &cap);

			if (b.insn_canon[i] != XXH3_64bits(buf ? buf : "", n) &&
			    bad_text++ < 5)
				diag("instruction %u: [%.*s]", i,
				     (int)HD_INSN(fused, i).text.n,
				     HD_INSN(fused, i).text.p);
			if (a.insn_canon[i] != b.insn_canon[i])
				bad_plain++;
		}
		hd_canon_release(&a);
		hd_canon_release(&b);
		tap_parsed_release(&pt);
		tap_parsed_release(&ft);
		free(s);
	}
	free(buf);
	is_int(0, bad_text, "pre-walk hashes are XXH3-64 of the canonical "
	       "text, kept values met again included");
	is_int(0, bad_plain, "pre-walk hashes equal those from the text");
	return 0;
}
