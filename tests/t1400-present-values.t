#!/bin/sh
# What changed and where (issue 23, item 1): every value listed shows its
# shape (old -> new when it changed), its op_name shortened and its
# source_file:line, in text, Markdown, JSON and HTML.  Checked against
# an independent reading of the dumps (tests/py/value_where.py: regular
# expressions over the dump text).
. "$(dirname "$0")/lib.sh"

T=$TMPDIR_T
D=$HD_SRCDIR/tests/data
PY="python3 $HD_SRCDIR/tests/py/value_where.py"

# Real pairs: TPU splash attention, the GPU fusion change and sharding
# rewrite, CPU truncated_normal, two TPU seeds.
for p in "tpu-splash_attention-0035 tpu-splash_attention-0044" \
	 "tpu-splash_attention-0044 tpu-splash_attention-0052" \
	 "gpu-full_run-simple gpu-full_run-simplefused" \
	 "gpu-full_run-shardedv2 gpu-full_run-shardedv3" \
	 "cpu-truncated_normal-0015 seed-001" "seed-003 seed-004"; do
	set -- $p
	run_hlodiff 0 "$1 -> $2: JSON --all" --no-rules --json --all "$D/$1.txt" "$D/$2.txt"
	mv "$T/out" "$T/j"
	ok_cmd "$1 -> $2: JSON shapes, op_name, source of every value as the dumps say" \
		$PY json "$D/$1.txt" "$D/$2.txt" "$T/j"
	run_hlodiff 0 "$1 -> $2: text -n 0" --no-rules -n 0 "$D/$1.txt" "$D/$2.txt"
	mv "$T/out" "$T/t"
	ok_cmd "$1 -> $2: text shape and op_name/source lines under every row" \
		$PY text "$D/$1.txt" "$D/$2.txt" "$T/t"
done

# One value read with awk: splash_mha_fwd's first output doubled its rows.
S35=$D/tpu-splash_attention-0035.txt
S44=$D/tpu-splash_attention-0044.txt
o=$(awk '/^ value: <[0-9]+ splash_mha_fwd_e9701070\.1\{0\} /{print $NF; exit}' "$S35")
n=$(awk '/^ value: <[0-9]+ splash_mha_fwd_c602b16d\.1\{0\} /{print $NF; exit}' "$S44")
line=$(awk -F'source_line=' '/from instruction: %splash_mha_fwd_c602b16d\.1 = /{split($2, a, /[ }]/); print a[1]; exit}' "$S44")
file=$(sed -n 's/.*from instruction: %splash_mha_fwd_c602b16d\.1 = .*source_file="\([^"]*\)".*/\1/p' "$S44" | head -n 1)
is "f32[512,128]{1,0:T(8,128)} f32[1024,128]{1,0:T(8,128)} 1100" "$o $n $line" \
	"awk: the shapes and source line of splash_mha_fwd's output {0}"
run_hlodiff 1 "splash 0035 -> 0044: text" "$S35" "$S44"
ok_cmd "text: old -> new shape under the row" grep -qxF "           shape: $o -> $n" "$T/out"
ok_cmd "text: op_name without jit(splash_attention_kernel)/jit(main)/, cut to 64 bytes; source file:line" \
	grep -qxF "           op_name: .../jit(_splash_attention)/splash_mha_fwd_c602b16d/pallas_call; source: $file:$line" "$T/out"
run_hlodiff 1 "splash: markdown" --format markdown "$S35" "$S44"
ok_cmd "markdown: shape and op_name, source columns" \
	grep -qF "| \`$o -> $n\` | \`.../jit(_splash_attention)/splash_mha_fwd_c602b16d/pallas_call\`<br>\`$file:$line\` |" "$T/out"
ok_cmd "markdown: the movers header names them" grep -qF "| status | value | old | new | delta | what changed | shape | op_name, source |" "$T/out"
run_hlodiff 1 "splash: html" --html "$T/p.html" "$S35" "$S44"
ok_cmd "html: the movers table has shape and source columns" grep -qF "<th>op_name</th><th>shape</th><th>source</th>" "$T/p.html"
ok_cmd "html: the shape cell of splash_mha_fwd {0}" grep -qF ">$o -&gt; $n</td><td class=\"op\" title=\"$file:$line\">$file:$line</td></tr>" "$T/p.html"

# The shortening: a prefix other than jit(X)/jit(main)/ is kept; a last
# component longer than the width is cut from the left.
is "while/body/jit(_matvec_impl)/jit(shmap_body)/while" \
	"$($PY short 'jit(_full_run)/jit(main)/while/body/jit(_matvec_impl)/jit(shmap_body)/while')" \
	"the reading's shortening: jit(_full_run)/jit(main)/ dropped"
long=$(printf 'k%.0s' $(seq 1 100))
sed "s|splash_mha_fwd_c602b16d/pallas_call|$long|" "$S44" >"$T/long.txt"
run_hlodiff 1 "a 100-byte op_name component" "$S35" "$T/long.txt"
want=$($PY short "jit(splash_attention_kernel)/jit(main)/splash_attention_kernel/splash_kernel_b1024_h8_s2048/jit(_splash_attention)/$long")
is ".../$(printf 'k%.0s' $(seq 1 60))" "$want" "the reading: .../ and the last 60 bytes"
ok_cmd "text: the same" grep -qF "op_name: $want; source:" "$T/out"
run_hlodiff 1 "JSON keeps the whole op_name" --json "$S35" "$T/long.txt"
ok_cmd "JSON: op_name unshortened" grep -qF "\"op_name\": \"jit(splash_attention_kernel)/jit(main)/splash_attention_kernel/splash_kernel_b1024_h8_s2048/jit(_splash_attention)/$long\"" "$T/out"

done_testing
