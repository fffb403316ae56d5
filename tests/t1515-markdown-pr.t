#!/bin/sh
# The pull-request Markdown (--pr, --markdown-pr FILE): failing modules
# first, then warnings, a count of the passing ones, sections folded,
# under 60,000 characters with a line naming what was left out and where
# the full report is.  On two directories of real dumps (the corpus).
. "$(dirname "$0")/lib.sh"

need_hlodiff
D=$HD_SRCDIR/tests/data
T=$TMPDIR_T
cd "$T" || exit 1
ba=after_optimizations-buffer-assignment.txt

# Without the corpus: usage and one pair.
run_hlodiff 2 "--pr without Markdown: exit 2" --pr "$D/seed-000.txt" "$D/seed-000.txt"
ok_cmd "--pr without Markdown: says what to add" grep -qF "hlodiff: --pr shapes the Markdown report: add --format markdown or --markdown FILE (or use --markdown-pr FILE)" "$T/err"
run_hlodiff 2 "--markdown-pr with stat: exit 2" stat --markdown-pr x.md "$D/seed-000.txt"
ok_cmd "--markdown-pr with stat: says so" grep -qF "hlodiff: --pr, --markdown-pr and --full-report go with a comparison" "$T/err"
run_hlodiff 2 "--markdown-pr without a file: exit 2" "$D/seed-000.txt" "$D/seed-000.txt" --markdown-pr
ok_cmd "--markdown-pr without a file: says so" grep -qF "hlodiff: --markdown-pr needs a file name" "$T/err"
run_hlodiff 2 "--full-report without a value: exit 2" "$D/seed-000.txt" "$D/seed-000.txt" --full-report
ok_cmd "--full-report without a value: says so" grep -qF "hlodiff: --full-report needs a URL or a file name" "$T/err"
run_hlodiff 1 "one pair: --format markdown --pr" --format markdown --pr \
	"$D/tpu-splash_attention-0035.txt" "$D/tpu-splash_attention-0044.txt"
cp "$T/out" pair-pr.md
run_hlodiff 1 "one pair: --format markdown" --format markdown \
	"$D/tpu-splash_attention-0035.txt" "$D/tpu-splash_attention-0044.txt"
ok_cmd "one pair under the limit: the PR form is the report" cmp -s pair-pr.md "$T/out"

need_corpus_or_done() {
	if [ -z "${HD_CORPUS:-}" ] || [ ! -d "$HD_CORPUS/gpu" ]; then
		skip "no corpus (HD_CORPUS unset): directory tests"
		done_testing
	fi
}
need_corpus_or_done

# OLD: every whole dump of the corpus, one module each (99).  NEW: the
# same, except that where two neighbouring files are compiles of one
# program the second module gets the first's dump (a real change).
mkdir old new
i=0 prev= prevmod= changed=0
find "$HD_CORPUS/tpu" "$HD_CORPUS/gpu" "$HD_CORPUS/cpu" -name '*-buffer-assignment.txt' | LC_ALL=C sort >list
while read -r f; do
	i=$((i + 1))
	n=$(printf %04d "$i")
	mod=$(basename "$f" | sed 's/.*module_[0-9]*\.\([^.]*\)\..*/\1/')
	name="module_$n.m${n}_$mod.$ba"
	cp "$f" "old/$name"
	if [ "$mod" = "$prevmod" ] && [ $((i % 2)) -eq 0 ] && ! cmp -s "$f" "$prev"; then
		cp "$prev" "new/$name"
		changed=$((changed + 1))
	else
		cp "$f" "new/$name"
	fi
	prev=$f prevmod=$mod
done <list
ok_cmd "$i modules ($changed changed): at least 40" test "$i" -ge 40 -a "$changed" -ge 5

run_hlodiff 1 "directories: exit 1" --markdown full.md --markdown-pr pr.md \
	--full-report "https://ci.example/run/7" --text full.txt old new
python3 - full.md pr.md full.txt >py.out 2>&1 <<'PY'
import re, sys
full = open(sys.argv[1], encoding="utf-8").read()
pr = open(sys.argv[2], encoding="utf-8").read()
txt = open(sys.argv[3], encoding="utf-8").read()
# the verdicts by module, from the text report's summary table
rows = {}
for line in txt.splitlines():
    m = re.match(r"^(m\d{4}_\S+)\s.*\s{2}(ok.*|FAIL.*|only in .*|compared)$", line)
    if m:
        rows[m.group(1)] = m.group(2)
fails = [k for k, v in rows.items() if v.startswith("FAIL")]
warns = [k for k, v in rows.items() if v.startswith("ok,")]
passes = [k for k in rows if k not in fails and k not in warns]
assert len(rows) >= 40, len(rows)
assert fails, "nothing failed"
print("sizes", len(full), len(pr))
assert len(pr) < 60000, len(pr)
# failing modules first: the Failing table, then Warnings, then the count
i_fail = pr.index("### Failing (%d)" % len(fails))
i_pass = pr.index("**%d modules passed**" % len(passes))
assert i_fail < i_pass
if warns:
    i_warn = pr.index("### Warnings (%d)" % len(warns))
    assert i_fail < i_warn < i_pass
table = pr[i_fail:i_pass]
for k in fails:
    assert "| `%s` |" % k in table.split("### Warnings")[0], k
for k in passes:
    assert "`%s`" % k not in pr, k
# sections folded, failing before warnings, none for a passing module
summaries = re.findall(r"<summary><code>([^<]*)</code>: ([^<]*)</summary>", pr)
assert summaries, "no folded section"
kinds = ["F" if v.startswith("FAIL") else "W" for _, v in summaries]
assert kinds == sorted(kinds), kinds
assert pr.count("<details>") == pr.count("</details>")
last = pr.rstrip("\n").splitlines()[-1]
assert last.endswith("The full report: https://ci.example/run/7."), last
print("ok")
PY
ok_cmd "PR Markdown: under 60,000 characters, failing first, passing counted, folded" grep -qx ok py.out || diag_file py.out
sed -n 's/^sizes /# full and PR Markdown: /p' py.out >&2

# Every module changed to another program: the sections cannot all fit.
mkdir new2
ls old | LC_ALL=C sort >names
set -- $(cat names)
first=$1
while [ $# -gt 0 ]; do
	cur=$1
	shift
	src=${1:-$first}
	cp "old/$src" "new2/$cur"
done
run_hlodiff 1 "every module another program: exit 1" --format markdown --pr old new2
cp "$T/out" pr2.md
run_hlodiff 1 "the same, full Markdown: exit 1" --format markdown old new2
cp "$T/out" full2.md
python3 - full2.md pr2.md >py2.out 2>&1 <<'PY'
import re, sys
full = open(sys.argv[1], encoding="utf-8").read()
pr = open(sys.argv[2], encoding="utf-8").read()
assert len(full) > 60000, len(full)
assert len(pr) < 60000, len(pr)
last = pr.rstrip("\n").splitlines()[-1]
m = re.match(r"Left out to stay under 60000 characters: (?:\d+ table rows?, )?the sections of (\d+) modules? \((.*)\)\. The full report: run hlodiff on the same inputs without `--pr`\.$", last)
assert m, last
left = int(m.group(1))
shown = len(re.findall(r"<summary><code>", pr))
# every failing and warning module has a row; each row's section is
# shown or counted as left out
rows = len(re.findall(r"^\| `m\d{4}_[^`]*` \|.*(:x: FAIL|:warning: ok)", pr, re.M))
assert shown + left == rows, (shown, left, rows)
for name in re.findall(r"`([^`]+)`", m.group(2)):
    assert "<summary><code>%s</code>" % name not in pr, name
    assert "### `%s`" % name in full, name
print("ok", len(full), len(pr), shown, left)
PY
ok_cmd "PR Markdown of a huge report: under 60,000, says which sections it left out" grep -q "^ok" py2.out || diag_file py2.out
sed -n 's/^ok /# full, PR bytes; sections shown, left out: /p' py2.out >&2

long=$(python3 -c 'print("https://ci.example/" + "x" * 5000)')
run_hlodiff 1 "a 5,000-character --full-report" --format markdown --pr --full-report "$long" old new2
ok_cmd "a long --full-report is cut: still under 60,000 characters" sh -c \
	"test \$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding=\"utf-8\").read()))' '$T/out') -lt 60000 &&
	 tail -n 1 '$T/out' | grep -q 'xxx\.\.\.\.\$'"

# One pair whose Markdown is too long (--all on the 2.4 MB block4 dump):
# its first lines, open <details> closed, and what was cut.
A=$(ls "$HD_CORPUS"/gpu/*b1rtol1e4*full_run*)
B=$(ls "$HD_CORPUS"/gpu/*block4*full_run*)
run_hlodiff 1 "a long pair: full Markdown" --format markdown --all -n 0 "$A" "$B"
cp "$T/out" pairfull.md
run_hlodiff 1 "a long pair: --pr" --format markdown --pr --all -n 0 "$A" "$B"
python3 - pairfull.md "$T/out" >py3.out 2>&1 <<'PY'
import sys
full = open(sys.argv[1], "rb").read()
pr = open(sys.argv[2], "rb").read()
assert len(full) > 60000 and len(pr.decode()) < 60000, (len(full), len(pr))
common = 0
while common < len(pr) and pr[common] == full[common]:
    common += 1
tail = pr.rsplit(b"\n---\n", 1)[1].decode()
assert tail.startswith("Left out to stay under 60000 characters: the last "), tail
n = int(tail.split("the last ")[1].split(" bytes")[0])
# the report's first bytes, then the cut (give or take the newline the
# closing </details> starts with)
assert common > 50000 and abs((len(full) - common) - n) <= 1, (common, n, len(full))
body = pr.rsplit(b"\n---\n", 1)[0]
assert body.count(b"<details>") == body.count(b"</details>")
print("ok")
PY
ok_cmd "a long pair: the report's start, closed, and how much was cut" grep -qx ok py3.out || diag_file py3.out

# scripts/ci-gate writes the PR form beside the full one.
HLODIFF=$HLODIFF "$HD_SRCDIR/scripts/ci-gate" old new gate >/dev/null 2>&1
is 1 $? "ci-gate: exit 1"
ok_cmd "ci-gate: hlodiff-pr.md under 60,000 bytes, the full hlodiff.md beside it" \
	test -s gate/hlodiff-pr.md -a "$(wc -c <gate/hlodiff-pr.md)" -lt 60000 -a -s gate/hlodiff.md
ok_cmd "ci-gate: the PR form points to the full report" grep -q "The full report: gate/hlodiff.md\.$" gate/hlodiff-pr.md
GITHUB_SERVER_URL=https://github.com GITHUB_REPOSITORY=o/r GITHUB_RUN_ID=42 \
	HLODIFF=$HLODIFF "$HD_SRCDIR/scripts/ci-gate" old new gate2 >/dev/null 2>&1
ok_cmd "ci-gate on GitHub: the PR form links the run" grep -qF "The full report: https://github.com/o/r/actions/runs/42 (artifacts: gate2/hlodiff.md, gate2/hlodiff.txt)." gate2/hlodiff-pr.md
ok_cmd "the bundled workflow posts hlodiff-pr.md" grep -q "path: hlodiff-out/hlodiff-pr.md" "$HD_SRCDIR/docs/github-workflow.yml"

done_testing
