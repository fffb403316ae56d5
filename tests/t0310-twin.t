#!/bin/sh
# Recompile twins: every dump is matched against the copy that
# scripts/recompile-twin makes of it (names, ids, allocation order and
# source lines changed, the program unchanged).  At least 99.5% of the
# values must pair with their true partner (the twin's MAPPING) and none
# may be added or removed, by two engines:
#   - build/tests/test_matchpairs (hd_match_values, pairs as text);
#   - "$HLODIFF --json --all" (the CLI's JSON, read with python3's json).
# The seeds in tests/data always; every corpus dump when HD_CORPUS is set
# (fragments/ left out: a truncated paste is not a whole program).
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 ||
	skip_all "python3 missing (scripts/recompile-twin and the scorer need it)"
ENGINE=$HD_BUILD/tests/test_matchpairs
TWIN=$HD_SRCDIR/scripts/recompile-twin
MIN_RIGHT=99.5

# score.py MODE MAPPING OUTPUT: prints "R/N right (P%), A added, D
# removed" and exits 0 when P >= MIN_RIGHT and A = D = 0.
cat >"$TMPDIR_T/score.py" <<'PYEOF'
import json, sys

mode, mapping_path, out_path, min_right = sys.argv[1:5]
truth = {}
with open(mapping_path, encoding="utf-8", errors="surrogateescape") as f:
    for line in f:
        parts = line.split()
        if len(parts) == 2:
            truth[parts[0]] = parts[1]
pairs, added, removed = [], 0, 0
with open(out_path, encoding="utf-8", errors="surrogateescape") as f:
    if mode == "json":
        for v in json.load(f)["values"]:
            if v["status"] == "matched":
                pairs.append((v["old"], v["new"]))
            elif v["status"] == "added":
                added += 1
            elif v["status"] == "removed":
                removed += 1
    else:
        for line in f:
            if line.startswith("#"):
                continue
            old, new, how = line.split()
            if old == "-":
                added += 1
            elif new == "-":
                removed += 1
            else:
                pairs.append((old, new))
total = len(pairs) + removed
right = sum(1 for old, new in pairs if truth.get(old) == new)
pct = 100.0 * right / total if total else 100.0
print("%d/%d right (%.2f%%), %d added, %d removed" % (right, total, pct, added, removed))
for old, new in pairs:
    if truth.get(old) != new:
        print("wrong: %s -> %s (true partner %s)" % (old, new, truth.get(old)))
sys.exit(0 if pct >= float(min_right) and added == 0 and removed == 0 else 1)
PYEOF

# Does the CLI print the JSON value list (--json --all)?
json_ok=0
if [ -x "$HLODIFF" ]; then
	"$HLODIFF" --json --all "$HD_SRCDIR/tests/data/seed-004.txt" \
		"$HD_SRCDIR/tests/data/seed-004.txt" >"$TMPDIR_T/probe.json" 2>/dev/null
	if [ $? -le 1 ] &&
		python3 -c 'import json,sys; json.load(open(sys.argv[1]))["values"]' \
			"$TMPDIR_T/probe.json" 2>/dev/null; then
		json_ok=1
	fi
fi

# same_figures.py OLD.json TWIN.json: the "stat --json" figures agree,
# names and file aside.
cat >"$TMPDIR_T/same_figures.py" <<'PYEOF'
import json, sys

def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items()
                if k not in ("file", "name", "prefetches", "value")}
    if isinstance(x, list):
        # the values that account for a stated peak's gap are named and
        # ordered by name on ties: the twin's names are others
        if x and all(isinstance(v, dict) and "reason" in v for v in x):
            return sorted(json.dumps(strip(v), sort_keys=True) for v in x)
        return [strip(v) for v in x]
    return x

a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
bad = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
if bad:
    print("figures differ: " + ", ".join(bad))
    sys.exit(1)
PYEOF

# score_out DESC MODE OUTPUT
score_out() {
	if python3 "$TMPDIR_T/score.py" "$2" "$TMPDIR_T/map" "$3" "$MIN_RIGHT" \
		>"$TMPDIR_T/score" 2>&1; then
		pass "$1: $(head -n 1 "$TMPDIR_T/score")"
	else
		fail "$1: $(head -n 1 "$TMPDIR_T/score")"
		diag_file "$TMPDIR_T/score" 10
	fi
}

n=0
check() {
	name=$1
	f=$2
	n=$((n + 1))
	if ! python3 "$TWIN" --seed "$n" "$f" "$TMPDIR_T/twin" "$TMPDIR_T/map" \
		2>"$TMPDIR_T/twin.err"; then
		fail "$name: recompile-twin"
		diag_file "$TMPDIR_T/twin.err"
		return
	fi
	pass "$name: recompile-twin"

	if [ -x "$ENGINE" ]; then
		"$ENGINE" "$f" "$TMPDIR_T/twin" >"$TMPDIR_T/pairs" 2>"$TMPDIR_T/err"
		st=$?
		if [ "$st" -ne 0 ]; then
			fail "$name: test_matchpairs exited $st"
			diag_file "$TMPDIR_T/err"
		else
			score_out "$name: hd_match_values" pairs "$TMPDIR_T/pairs"
		fi
	else
		skip "$ENGINE not built (run make tests)"
	fi

	if [ -x "$HLODIFF" ] &&
		"$HLODIFF" stat --json "$f" >"$TMPDIR_T/fig.old" 2>/dev/null &&
		"$HLODIFF" stat --json "$TMPDIR_T/twin" >"$TMPDIR_T/fig.new" \
			2>"$TMPDIR_T/err"; then
		if [ -s "$TMPDIR_T/err" ]; then
			fail "$name: twin parses without warnings"
			diag_file "$TMPDIR_T/err"
		elif python3 "$TMPDIR_T/same_figures.py" "$TMPDIR_T/fig.old" \
			"$TMPDIR_T/fig.new" >"$TMPDIR_T/fig.diff" 2>&1; then
			pass "$name: twin parses cleanly, same figures"
		else
			fail "$name: twin parses cleanly, same figures"
			diag_file "$TMPDIR_T/fig.diff"
		fi
	else
		skip "no working $HLODIFF stat --json"
	fi

	if [ "$json_ok" -eq 1 ]; then
		"$HLODIFF" --json --all "$f" "$TMPDIR_T/twin" >"$TMPDIR_T/json" \
			2>"$TMPDIR_T/err"
		st=$?
		if [ "$st" -gt 1 ]; then
			fail "$name: hlodiff --json --all exited $st"
			diag_file "$TMPDIR_T/err"
		else
			score_out "$name: hlodiff --json --all" json "$TMPDIR_T/json"
		fi
	else
		skip "$HLODIFF lacks a --json --all value list"
	fi
}

for f in "$HD_SRCDIR"/tests/data/seed-*.txt; do
	check "$(basename "$f")" "$f"
done

# A generated dump of 16 MiB: over the 4 MiB steps in which the parser and
# the canonical hashing give the mapped dump's pages back behind them, so
# the twin's matching also checks that what is read after that is right.
if [ -x "$HD_BUILD/gen-dump" ] &&
	"$HD_BUILD/gen-dump" --size 16M --seed 7 -o "$TMPDIR_T/gen16.txt" 2>"$TMPDIR_T/err"; then
	check "gen-dump 16M" "$TMPDIR_T/gen16.txt"
	rm -f "$TMPDIR_T/gen16.txt"
else
	skip "$HD_BUILD/gen-dump not built or failed (make tests)"
fi

if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS" ]; then
	find "$HD_CORPUS" \( -name '*buffer-assignment*.txt' -o -path '*/seeds/*.txt' \) \
		-type f ! -path '*/fragments/*' ! -name '*-buffer-assignment-values.txt' |
		LC_ALL=C sort >"$TMPDIR_T/list"
	while IFS= read -r f; do
		check "${f#"$HD_CORPUS"/}" "$f"
	done <"$TMPDIR_T/list"
else
	diag "HD_CORPUS not set: corpus twins skipped (tests/data seeds only)"
fi

done_testing
