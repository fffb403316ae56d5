#!/bin/sh
# Memory spaces named where the dump says which platform it is from
# (issue 23, item 2; FORMAT.md section 8): a TPU dump (tiled layouts
# ":T(") names 0 HBM, 1 VMEM, 2 sync flags, 6 SMEM; 5 is host memory
# on every platform; the number is always kept.
. "$(dirname "$0")/lib.sh"

T=$TMPDIR_T
D=$HD_SRCDIR/tests/data

# The colours of a dump's allocations, read with awk ("color N" in the
# allocation headers; none printed is 0).
colors() {
	awk '/^allocation [0-9]+:/ { c = 0; if (match($0, /color [0-9]+/)) c = substr($0, RSTART + 6, RLENGTH - 6); seen[c] = 1 }
	     END { for (c in seen) print c }' "$1" | sort -n | tr '\n' ' ' | sed 's/ $//'
}
name() {
	case $1 in 0) echo HBM ;; 1) echo VMEM ;; 2) echo "sync flags" ;; 5) echo host ;; 6) echo SMEM ;; esac
}

for s in 000 002 003 004; do
	f=$D/seed-$s.txt
	run_hlodiff 0 "seed $s: stat" stat "$f"
	cs=$(colors "$f")
	for c in $cs; do
		ok_cmd "seed $s: space $c ($(name "$c"))" grep -qE "^  space $c \($(name "$c")\) +[0-9]+ " "$T/out"
	done
	run_hlodiff 0 "seed $s: stat --json" stat --json "$f"
	want=$(for c in $cs; do printf '%s=%s,' "$c" "$(name "$c")"; done)
	is "tpu $want" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["platform"], "".join("%s=%s," % kv for kv in sorted(d["space_names"].items(), key=lambda kv: int(kv[0]))))' "$T/out")" \
		"seed $s: JSON platform and space_names ($cs)"
done
run_hlodiff 0 "seed 002: stat" stat "$D/seed-002.txt"
ok_cmd "a prefetch from HBM into VMEM" grep -qE "^  prefetch +16384  space 0 \(HBM\) -> 1 \(VMEM\)  copy-start\.1$" "$T/out"

# Not TPU: no names for 0, 1, 2 (what they hold differs by platform).
f=$D/gpu-full_run-simple.txt
run_hlodiff 0 "gpu: stat" stat "$f"
ok_cmd "gpu: space 0 is a number" grep -qE "^  space 0 +[0-9]+ " "$T/out"
run_hlodiff 0 "gpu: stat --json" stat --json "$f"
ok_cmd "gpu: platform null, no space names" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["platform"] is None and d["space_names"] == {}, d' "$T/out"

# Host memory (5) is named on any platform: a CPU dump's temp allocation
# moved to colour 5.
f=$D/cpu-truncated_normal-0015.txt
sed '0,/^allocation \([0-9]*\): size \([0-9]*\), preallocated-temp:/s//allocation \1: size \2, preallocated-temp, color 5:/' "$f" >"$T/host.txt"
is "0 5" "$(colors "$T/host.txt")" "awk: the copy has colours 0 and 5"
run_hlodiff 0 "host: stat" stat "$T/host.txt"
ok_cmd "host: space 5 (host)" grep -qE "^  space 5 \(host\) +[0-9]+ " "$T/out"
ok_cmd "host: space 0 a number" grep -qE "^  space 0 +[0-9]+ " "$T/out"

# A diff: the legend under the figures, the HTML chart and movers.
run_hlodiff 1 "splash: diff" "$D/tpu-splash_attention-0035.txt" "$D/tpu-splash_attention-0044.txt"
ok_cmd "text: the spaces' legend" grep -qxF "memory spaces (TPU): 0 HBM, 1 VMEM" "$T/out"
run_hlodiff 1 "splash: html" --html "$T/p.html" "$D/tpu-splash_attention-0035.txt" "$D/tpu-splash_attention-0044.txt"
ok_cmd "html: chart panels named" grep -qF ">memory space 1 (VMEM) &#8212; old " "$T/p.html"
ok_cmd "html: the movers' space cell" grep -qF "<td class=\"n\" data-v=\"0\">0 (HBM)</td>" "$T/p.html"

# Every TPU dump of the corpus is recognised, no GPU or CPU dump is.
if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS/tpu" ]; then
	for dir in tpu gpu cpu; do
		n=0
		bad=0
		for f in "$HD_CORPUS/$dir"/*-buffer-assignment.txt; do
			n=$((n + 1))
			p=$("$HLODIFF" stat --json "$f" | python3 -c 'import json, sys; print(json.load(sys.stdin)["platform"])')
			want=None
			[ "$dir" = tpu ] && want=tpu
			[ "$p" = "$want" ] || { bad=$((bad + 1)); diag "$f: platform $p"; }
		done
		is 0 "$bad" "corpus/$dir: $n dumps, platform ${dir} recognised only on TPU"
	done
else
	skip "no corpus (HD_CORPUS)"
fi

done_testing
