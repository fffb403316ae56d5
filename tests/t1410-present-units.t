#!/bin/sh
# Sizes a person can read (issue 23, item 2): human units next to raw
# bytes in text, Markdown and HTML, each table saying which size it
# shows, rows that sum value sizes saying so, no percentage for a time.
# Human forms from tests/py/human.py (XLA's rule, written out again).
. "$(dirname "$0")/lib.sh"

T=$TMPDIR_T
D=$HD_SRCDIR/tests/data
V2=$D/gpu-full_run-shardedv2.txt
V3=$D/gpu-full_run-shardedv3.txt
S35=$D/tpu-splash_attention-0035.txt
S44=$D/tpu-splash_attention-0044.txt
H="python3 $HD_SRCDIR/tests/py/human.py"

run_hlodiff 0 "gpu sharding rewrite: text" "$V2" "$V3"
cp "$T/out" "$T/text"
ok_cmd "the values table says which size it shows" \
	grep -qxF "  sizes: size= bytes each value holds in its allocation, padding included" "$T/text"
ok_cmd "the peak table says which size it shows" \
	grep -qxF "  sizes: bytes each value holds at the peak" "$T/text"
# every value row: the human column is old -> new of its raw numbers
awk '$1 ~ /^(changed|added|removed|same)$/ && NF >= 8 { print $2, $3, $5, $7 }' "$T/text" >"$T/rows"
n=0
bad=0
while read -r o nw ho hn; do
	n=$((n + 1))
	for pair in "$o $ho" "$nw $hn"; do
		set -- $pair
		if [ "$1" = - ]; then want=-; else want=$($H "$1"); fi
		[ "$want" = "$2" ] || { bad=$((bad + 1)); diag "row $n: $1 shown as $2, want $want"; }
	done
done <"$T/rows"
is "20 0" "$n $bad" "text: the 20 rows' human column is old -> new of their bytes"
# the others row: its count and sum from the JSON of every listed value
run_hlodiff 0 "json, every listed value" --json "$V2" "$V3"
python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["values"][20:]
print(len(v), sum(x["delta"] for x in v))' "$T/out" >"$T/rest"
read -r rn rs <"$T/rest"
hs=$($H "$rs")
case $rs in -*) sgn= ;; *) sgn=+ ;; esac
want=$(printf '  %-8s %12s %12s %12s  %-22s  in %s other values (sum of value sizes)' ... '' '' "$sgn$rs" "$sgn$hs" "$rn")
ok_cmd "text: '$sgn$rs $sgn$hs in $rn other values (sum of value sizes)'" grep -qxF "$want" "$T/text"
ok_cmd "text: peak lines with human units" grep -qE "^peak: old 2025186688 bytes \($($H 2025186688)\) held at 178 of 358" "$T/text"
ok_cmd "text: stated_peak_time (the dump's own) without a percentage" grep -qE '^stated_peak_time +248 +145 +-103$' "$T/text"

run_hlodiff 0 "markdown" --format markdown "$V2" "$V3"
ok_cmd "markdown: figures with human units" \
	grep -qF "| total_bytes | 2026823886 ($($H 2026823886)) | 846605582 ($($H 846605582)) | -1180218304 ($($H -1180218304)) | -58.2% |" "$T/out"
ok_cmd "markdown: stated_peak_time without a percentage" grep -qxF "| stated_peak_time | 248 | 145 | -103 |  |" "$T/out"
ok_cmd "markdown: a mover's cells with human units" \
	grep -qF "| removed | \`fft.16.0{}\` | 943718400 ($($H 943718400)) | - | -943718400 ($($H -943718400)) |" "$T/out"
ok_cmd "markdown: the others row sums value sizes" \
	grep -qF "| … | $rn other values (sum of value sizes) | | | $sgn$rs ($sgn$hs) |" "$T/out"
ok_cmd "markdown: the movers say which size" grep -qF "Sizes are \`size=\`: the bytes each value holds in its allocation, padding included." "$T/out"
ok_cmd "markdown: the peak values say which size" grep -qF "; bytes each holds at the peak)</summary>" "$T/out"
ok_cmd "markdown: below 1 KiB the number alone" grep -qF "| constant_bytes | 176 | 112 | -64 | -36.4% |" "$T/out"

run_hlodiff 0 "html" --html "$T/p.html" "$V2" "$V3"
ok_cmd "html: a bytes cell shows both" grep -qF "title=\"943718400 bytes\">943718400 ($($H 943718400))</td>" "$T/p.html"
ok_cmd "html: a delta cell shows both" grep -qF "title=\"-943718400 bytes\">-943718400 ($($H -943718400))</td>" "$T/p.html"
ok_cmd "html: stated_peak_time without a percentage" grep -qF "<tr><td>stated_peak_time</td><td class=\"n\">248</td><td class=\"n\">145</td><td class=\"n\">-103</td><td class=\"n\"></td></tr>" "$T/p.html"

run_hlodiff 0 "json" --json "$V2" "$V3"
is "None -54.1" "$(python3 -c '
import json, sys
f = {r["name"]: r for r in json.load(open(sys.argv[1]))["figures"]}
print(f["stated_peak_time"]["percent"], f["stated_peak_bytes"]["percent"])' "$T/out")" \
	"json: stated_peak_time's percent is null, stated_peak_bytes' is not"

# The reading's rule itself, on numbers from the dumps.
is "17.77MiB 256.0KiB 512B 1.89GiB" "$($H 18629632 262144 512 2026823886 | tr '\n' ' ' | sed 's/ $//')" \
	"human.py agrees with XLA's own 'Total bytes used' lines"
ok_cmd "the dump says 17.77MiB for 18629632" grep -q "^Total bytes used: 18629632 (17.77MiB)" "$S35"
ok_cmd "the dump says 1.89GiB for 2026823886" grep -q "^Total bytes used: 2026823886 (1.89GiB)" "$V2"

done_testing
