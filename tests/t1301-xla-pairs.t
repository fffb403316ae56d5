#!/bin/sh
# Real pairs: the generated JAX corpus (tests/xla/<backend>/<program>/
# <variant>/, MANIFEST.json) has each program compiled with another
# configuration (batch x2, width x2, sequence x2, bf16, one more layer,
# ...) and compiled again unchanged ("same").
#   - configuration changes: an instruction whose op_name, source file
#     and line (when the dumps have them) and opcode are unique on both
#     sides identifies its partner; the values of such instructions (same index) must be
#     paired with it at least 99% of the time over each backend;
#   - same-program pairs: no value changed, added or removed.
# The identity is read here from the dumps' text (python3), the pairs
# from "$HLODIFF --json --all".  Skipped when tests/xla is absent
# (HD_XLA names another place).
. "$(dirname "$0")/lib.sh"

XLA=${HD_XLA:-$HD_SRCDIR/tests/xla}
[ -f "$XLA/MANIFEST.json" ] || skip_all "no generated JAX corpus at $XLA"
command -v python3 >/dev/null 2>&1 || skip_all "python3 missing"
need_hlodiff
MIN_AGREE=99.0

cat >"$TMPDIR_T/pairs.py" <<'PYEOF'
import json, os, sys

root = sys.argv[1]
m = json.load(open(os.path.join(root, "MANIFEST.json")))
by = {}
for c in m["compiles"]:
    by[(c["backend"], c["program"], c["variant"])] = c
for c in m["compiles"]:
    if not c.get("pair_of"):
        continue
    base = by.get((c["backend"], c["program"], c["pair_of"]))
    if not base:
        continue
    kind = "same" if c["variant"] == "same" else "config"
    print("\t".join([kind, c["backend"], c["program"], c["variant"],
                     os.path.join(root, base["dir"], base["main"]),
                     os.path.join(root, c["dir"], c["main"])]))
PYEOF

# agree.py OLD NEW JSON: "R/N agree (P%)" over the values of the
# instructions the metadata identifies; lines "miss: ..." after.
cat >"$TMPDIR_T/agree.py" <<'PYEOF'
import json, re, sys

HEAD = re.compile(r"^<\d+ ([^ >{]+)(\{[0-9,]*\})?")
INSN = re.compile(r"^ from instruction: %([^ ]+) = (.*)$")

def opcode_of(rest):
    i = 0
    if rest.startswith("("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                break
        i += 1
    else:
        i = rest.find(" ")
    rest = rest[i:].lstrip()
    return rest[:rest.find("(")] if "(" in rest else rest

def meta(rest, key):
    m = re.search(key + r'="((?:[^"\\]|\\.)*)"', rest)
    return m.group(1) if m else None

def read(path):
    """value key -> instruction name; instruction -> identity."""
    texts = [path]
    side = path.replace("-buffer-assignment.txt", "-buffer-assignment-values.txt")
    if side != path:
        texts.append(side)
    values, ident = {}, {}
    cur = None
    for p in texts:
        try:
            f = open(p, encoding="utf-8", errors="surrogateescape")
        except OSError:
            continue
        for line in f:
            line = line.rstrip("\n")
            h = HEAD.match(line)
            if h:
                cur = h.group(1) + (h.group(2) or "{}")
                continue
            i = INSN.match(line)
            if i and cur:
                name, rest = i.group(1), i.group(2)
                values[cur] = (name, cur[len(cur.split("{")[0]):])
                op = meta(rest, "op_name")
                src = meta(rest, "source_file")
                ln = re.search(r"source_line=(\d+)", rest)
                # (these dumps may have no source metadata: then the
                # op_name and opcode alone)
                if op:
                    ident[name] = (op, src, ln and ln.group(1),
                                   opcode_of(rest))
                cur = None
    return values, ident

def unique(ident):
    count = {}
    for k in ident.values():
        count[k] = count.get(k, 0) + 1
    return {k: n for n, k in ident.items() if count[k] == 1}

ov, oi = read(sys.argv[1])
nv, ni = read(sys.argv[2])
ou, nu = unique(oi), unique(ni)
true_insn = {ou[k]: nu[k] for k in ou if k in nu}
by_insn_idx = {v: k for k, v in nv.items()}
truth = {}
for key, (insn, idx) in ov.items():
    if insn in true_insn and (true_insn[insn], idx) in by_insn_idx:
        truth[key] = by_insn_idx[(true_insn[insn], idx)]
pairs = {}
for v in json.load(open(sys.argv[3]))["values"]:
    if v["status"] == "matched":
        pairs[v["old"]] = v["new"]
right = sum(1 for k, t in truth.items() if pairs.get(k) == t)
print("%d/%d agree" % (right, len(truth)))
for k, t in sorted(truth.items()):
    if pairs.get(k) != t:
        print("miss: %s -> %s (identity %s)" % (k, pairs.get(k), t))
PYEOF

python3 "$TMPDIR_T/pairs.py" "$XLA" >"$TMPDIR_T/list" ||
	bail "cannot read $XLA/MANIFEST.json"
: >"$TMPDIR_T/totals"
while IFS="$(printf '\t')" read -r kind backend program variant old new; do
	name="$backend/$program/$variant"
	"$HLODIFF" --no-rules --json --all "$old" "$new" >"$TMPDIR_T/json" 2>"$TMPDIR_T/err"
	st=$?
	if [ "$st" -ne 0 ]; then
		fail "$name: hlodiff --json --all exited $st"
		diag_file "$TMPDIR_T/err"
		continue
	fi
	if [ "$kind" = same ]; then
		s=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print("%d %d %d" % (s["changed"], s["added"], s["removed"]))' "$TMPDIR_T/json")
		is "$s" "0 0 0" "$name: compiled again, no value changed, added or removed"
		continue
	fi
	python3 "$TMPDIR_T/agree.py" "$old" "$new" "$TMPDIR_T/json" >"$TMPDIR_T/agree"
	r=$(head -n 1 "$TMPDIR_T/agree")
	echo "$backend ${r%%/*} $(echo "$r" | sed 's|^[0-9]*/\([0-9]*\).*|\1|')" >>"$TMPDIR_T/totals"
	diag "$name: $r"
	grep '^miss' "$TMPDIR_T/agree" | head -n 5 | while IFS= read -r l; do diag "  $l"; done
done <"$TMPDIR_T/list"

for backend in $(cut -d' ' -f1 "$TMPDIR_T/totals" | sort -u); do
	set -- $(awk -v b="$backend" '$1 == b { r += $2; n += $3 } END { print r + 0, n + 0 }' "$TMPDIR_T/totals")
	pct=$(awk -v r="$1" -v n="$2" 'BEGIN { printf "%.2f", n ? 100 * r / n : 100 }')
	ok_cmd "$backend configuration changes: $1/$2 values paired as the metadata identity says ($pct%, at least $MIN_AGREE%)" \
		awk -v p="$pct" -v m="$MIN_AGREE" 'BEGIN { exit !(p >= m) }'
done

done_testing
