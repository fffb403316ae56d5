#!/bin/sh
# Twins with changes of shape: every dump is matched (test_matchpairs,
# hd_match_values) against copies scripts/recompile-twin makes of it,
# four kinds, each with its true mapping:
#   rename   names, ids (order kept), allocation order, source lines;
#   reorder  the same with value ids permuted (records reordered);
#   resize   reorder, and 3 instructions' first dimension x3;
#   scale    rename, and the first dimension of every array x2 (a
#            batch change: sizes and offsets follow).
# Over all dumps of a kind: at least 99.5% of the old values paired with
# their true partner or an interchangeable one, at most 0.5% of the
# values falsely added or removed.  A pair with another value than the
# true partner counts as right only when the dump cannot tell the two
# apart (docs/matching.md): the partner and the true one have the same
# instruction text once every name is stripped of its numbers, the same
# size and live range, and the pair agrees with the pairs of the
# operands and of the users (operand k of the old value's instruction
# is paired with operand k of the partner's; each user's partner uses
# the partner at the same operand position): values of identical
# reducer computations, say, whose order only the ids gave.  Both
# figures are printed: with the true partner itself, and with the
# interchangeable ones counted.
# The seeds in tests/data always, every corpus dump with HD_CORPUS.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 missing"
ENGINE=$HD_BUILD/tests/test_matchpairs
[ -x "$ENGINE" ] || skip_all "$ENGINE not built (make tests)"
TWIN=$HD_SRCDIR/scripts/recompile-twin
MIN_RIGHT=99.5
MAX_FALSE=0.5

# score.py KIND DUMP TWIN MAPPING PAIRS: one line "KIND N RIGHT EQUIV
# WRONG ADDED REMOVED" (old values; right; wrong but equivalent; wrong;
# falsely added and removed), then "wrong: ..." lines.
cat >"$TMPDIR_T/score.py" <<'PYEOF'
import re, sys

kind, dump, twin, mapping, pairs_path = sys.argv[1:6]
HEAD = re.compile(r"^<\d+ ([^ >{]+)(\{[0-9,]*\})?")
VLINE = re.compile(r"^ value: <\d+ ([^ >{]+)(\{[0-9,]*\})?[^>]*> \(size=(\d+),")
BLR = re.compile(r"^    ([^{:]+)(\{[0-9,]*\}):(\d+-\d+)$")
USE = re.compile(r"^  ([^ ,]+), operand (\d+)( \{[0-9,]*\})?$")
NAME = re.compile(r"%?[A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]+)*")

def strip(text):
    # every name without its numeric parts, sizes of shapes left out
    text = re.sub(r'metadata=\{.*', '', text)
    text = re.sub(r"\.\d+", "", text)
    text = re.sub(r"\[[0-9,<=]*\]", "[]", text)
    return text

OPS = re.compile(r"%([A-Za-z_][A-Za-z0-9_.\-]*)")

def operands(text):
    rest = text.split(" = ", 1)[-1]
    i = rest.find("(")
    if rest.startswith("("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                break
        i = rest.find("(", i + 1)
    j = rest.find("), ", i)
    body = rest[i + 1:j if j >= 0 else len(rest)]
    return OPS.findall(re.sub(r'"(?:[^"\\]|\\.)*"', "", body))

def read(path):
    facts = {}
    cur = None
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        line = line.rstrip("\r\n")
        m = VLINE.match(line)
        if m:
            k = m.group(1) + (m.group(2) or "{}")
            facts.setdefault(k, {})["size"] = m.group(3)
            continue
        m = HEAD.match(line)
        if m:
            cur = m.group(1) + (m.group(2) or "{}")
            facts.setdefault(cur, {})["uses"] = []
            continue
        m = USE.match(line)
        if m and cur:
            facts[cur]["uses"].append((m.group(1), m.group(2), m.group(3) or ""))
            continue
        if line.startswith(" from instruction: ") and cur:
            facts.setdefault(cur, {})["insn"] = strip(line.split(" = ", 1)[-1])
            facts[cur]["ops"] = operands(line)
            continue
        m = BLR.match(line)
        if m:
            facts.setdefault(m.group(1) + m.group(2), {})["live"] = m.group(3)
    return facts

truth = {}
for line in open(mapping, encoding="utf-8", errors="surrogateescape"):
    p = line.split()
    if len(p) == 2:
        truth[p[0]] = p[1]
pairs, added, removed = {}, 0, 0
for line in open(pairs_path, encoding="utf-8", errors="surrogateescape"):
    if line.startswith("#"):
        continue
    o, n, how = line.split()
    if o == "-":
        added += 1
    elif n == "-":
        removed += 1
    else:
        pairs[o] = n
right = equiv = wrong = 0
wrongs = []
nf = of = None

def same_but_ops(a, b):
    return a and b and all(a.get(k) == b.get(k) for k in ("insn", "size", "live"))

def partner_of(name):
    # a user's partner: paired, else its true partner, else (it defines
    # no value, a get-tuple-element) its name without numbers
    v = pairs.get(name + "{}") or truth.get(name + "{}")
    return v[:-2] if v else re.sub(r"\.\d+", "", name)

def users_agree(oa, na):
    mine = sorted((partner_of(u), k, i) for u, k, i in oa.get("uses", []))
    theirs = sorted((u if u + "{}" in nf else re.sub(r"\.\d+", "", u), k, i)
                    for u, k, i in na.get("uses", []))
    return mine == theirs

def ops_agree(oa, na):
    po, pn = oa.get("ops", []), na.get("ops", [])
    return len(po) == len(pn) and all(
        pairs.get(x + "{}", x + "{}") == y + "{}" or
        (x + "{}" not in pairs and truth.get(x + "{}", y + "{}") == y + "{}")
        for x, y in zip(po, pn))

for o, n in pairs.items():
    t = truth.get(o)
    if t == n:
        right += 1
        continue
    if nf is None:
        nf, of = read(twin), read(dump)
    if same_but_ops(nf.get(n, {}), nf.get(t, {})) and \
            ops_agree(of.get(o, {}), nf.get(n, {})) and \
            users_agree(of.get(o, {}), nf.get(n, {})):
        equiv += 1
    else:
        wrong += 1
        wrongs.append("wrong: %s -> %s (true partner %s)" % (o, n, t))
print(kind, len(pairs) + removed, right, equiv, wrong, added, removed)
for w in wrongs[:5]:
    print(w)
PYEOF

: >"$TMPDIR_T/scores"
n=0
twins() {
	f=$1
	n=$((n + 1))
	for kind in rename reorder resize scale; do
		case $kind in
		rename) args= ;;
		reorder) args=--shuffle-ids ;;
		resize) args="--shuffle-ids --resize 3" ;;
		scale) args="--scale-dim 2" ;;
		esac
		# shellcheck disable=SC2086
		if ! python3 "$TWIN" --seed "$n" $args "$f" "$TMPDIR_T/twin" \
			"$TMPDIR_T/map" 2>"$TMPDIR_T/err"; then
			fail "$kind twin of $f"
			diag_file "$TMPDIR_T/err"
			continue
		fi
		if ! "$ENGINE" "$f" "$TMPDIR_T/twin" >"$TMPDIR_T/pairs" 2>"$TMPDIR_T/err"; then
			fail "$kind twin of $f: test_matchpairs failed"
			diag_file "$TMPDIR_T/err"
			continue
		fi
		python3 "$TMPDIR_T/score.py" "$kind" "$f" "$TMPDIR_T/twin" \
			"$TMPDIR_T/map" "$TMPDIR_T/pairs" >"$TMPDIR_T/score"
		head -n 1 "$TMPDIR_T/score" >>"$TMPDIR_T/scores"
		if [ "$(wc -l <"$TMPDIR_T/score")" -gt 1 ]; then
			diag "$kind twin of ${f#"${HD_CORPUS:-}"/}: $(head -n 1 "$TMPDIR_T/score")"
			tail -n +2 "$TMPDIR_T/score" | while IFS= read -r l; do diag "  $l"; done
		fi
	done
}

for f in "$HD_SRCDIR"/tests/data/seed-*.txt; do
	twins "$f"
done
if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS" ]; then
	find "$HD_CORPUS" \( -name '*buffer-assignment*.txt' -o -path '*/seeds/*.txt' \) \
		-type f ! -path '*/fragments/*' ! -name '*-buffer-assignment-values.txt' |
		LC_ALL=C sort >"$TMPDIR_T/list"
	while IFS= read -r f; do
		twins "$f"
	done <"$TMPDIR_T/list"
else
	diag "HD_CORPUS not set: the seeds' twins only"
fi

for kind in rename reorder resize scale; do
	set -- $(awk -v k="$kind" '$1 == k { n += $2; r += $3; e += $4; w += $5; a += $6; d += $7 }
		END { print n + 0, r + 0, e + 0, w + 0, a + 0, d + 0 }' "$TMPDIR_T/scores")
	tot=$1 right=$2 eq=$3 added=$5 removed=$6
	pct=$(awk -v t="$tot" -v r="$right" -v e="$eq" 'BEGIN { printf "%.2f", t ? 100 * (r + e) / t : 100 }')
	raw=$(awk -v t="$tot" -v r="$right" 'BEGIN { printf "%.2f", t ? 100 * r / t : 100 }')
	fpct=$(awk -v t="$tot" -v a="$added" -v d="$removed" 'BEGIN { printf "%.2f", t ? 100 * (a + d) / (2 * t) : 0 }')
	min=$MIN_RIGHT
	ok_cmd "$kind twins: $((right + eq))/$tot paired right ($pct%): $right with the true partner ($raw%), $eq with an interchangeable one; at least $min%" \
		awk -v p="$pct" -v m="$min" 'BEGIN { exit !(p >= m) }'
	ok_cmd "$kind twins: $added falsely added, $removed falsely removed ($fpct%), at most $MAX_FALSE%" \
		awk -v p="$fpct" -v m="$MAX_FALSE" 'BEGIN { exit !(p <= m) }'
done

done_testing
