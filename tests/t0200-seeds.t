#!/bin/sh
# Figures of the five seed dumps, against numbers read from the files by
# hand (grep of the allocation headers, "Total bytes used", the last
# cumulative peak line and the copy-start instructions).
. "$(dirname "$0")/lib.sh"

D=$HD_SRCDIR/tests/data

# json_get FILE EXPR: evaluates a Python expression over the JSON as j.
json_get() {
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2]), sort_keys=True))' "$1" "$2"
}

# seed N TOTAL ALLOCS VALUES COLORS PEAK_TIME PEAK_BYTES PREFETCHES
seed() {
	run_hlodiff 0 "seed $1: stat --json runs" stat --json "$D/seed-00$1.txt" || return
	cp "$TMPDIR_T/out" "$TMPDIR_T/s$1.json"
	j=$TMPDIR_T/s$1.json
	is "$2" "$(json_get "$j" "j['total_bytes']")" "seed $1: total bytes"
	is "$2" "$(json_get "$j" "j['alloc_bytes']")" "seed $1: allocation sizes add up to the total"
	is "$3" "$(json_get "$j" "j['allocations']")" "seed $1: allocations"
	is "$4" "$(json_get "$j" "j['values']")" "seed $1: values in allocations"
	is "$5" "$(json_get "$j" "j['bytes_by_color']")" "seed $1: bytes by colour"
	is "$6" "$(json_get "$j" "j['stated_peak_time']")" "seed $1: stated peak time"
	is "$7" "$(json_get "$j" "j['stated_peak_bytes']")" "seed $1: stated peak bytes"
	is "$8" "$(json_get "$j" "j['prefetches']")" "seed $1: prefetches"
	is "true" "$(json_get "$j" "j['recomputed_peak']['agrees']")" "seed $1: recomputed peak agrees"
}

seed 0 92676 7 15 '{"0": 83456, "1": 8704, "2": 4, "6": 512}' 15 8980 '["copy-start"]'
seed 1 9152 10 65 '{"0": 9152}' 45 8288 '[]'
seed 2 172580 16 25 '{"0": 102944, "1": 69632, "2": 4}' 13 43200 '["copy-start", "copy-start.1"]'
seed 3 52288 20 19 '{"0": 52288, "1": 0}' 6 96 '[]'
seed 4 18980 8 9 '{"0": 9760, "1": 8192, "2": 4, "6": 1024}' 7 4132 '["copy-start"]'

# Classification of the copies of seed 002 (FORMAT.md section 9).
json_get "$TMPDIR_T/s2.json" "[(c['name'], c['class'], c['src_space'], c['dst_space'], c['bytes']) for c in j['copies']]" >"$TMPDIR_T/copies"
is '[["copy-start.1", "prefetch", 0, 1, 16384], ["copy-start", "cross-program-prefetch", 0, 1, 32768]]' \
	"$(cat "$TMPDIR_T/copies")" "seed 2: copy-start classes, spaces and bytes"

done_testing
