#!/bin/sh
# The one metadata reader (find_metadata in src/parse_insn.c: its fast
# path for the usual form, else the item loop) against an independent
# reading of the dumps: for every value with a record, the op_name,
# source_file and source_line of `hlodiff --json --all DUMP DUMP` are
# those a few lines of python read from the metadata={...} of the
# record's " from instruction:" line.  tests/data always, the corpus
# when HD_CORPUS is set.
. "$(dirname "$0")/lib.sh"
need_hlodiff
command -v python3 >/dev/null 2>&1 || skip_all "no python3"

cat >"$TMPDIR_T/check.py" <<'PY'
import json, re, sys

def read_meta(line):
    """op_name, source_file, source_line of the first metadata={...}:
    items key=value split at spaces; a value is a string (backslash
    escapes kept) or runs to a space or the closing brace, brackets
    balanced; a later item of a key wins."""
    at = line.find('metadata={')
    if at < 0:
        return None, None, None
    i, out = at + len('metadata={'), {}
    while i < len(line):
        while i < len(line) and line[i] == ' ':
            i += 1
        if i >= len(line) or line[i] == '}':
            break
        eq = line.find('=', i)
        key, i = line[i:eq], eq + 1
        if line[i] == '"':
            j = i + 1
            while line[j] != '"':
                j += 2 if line[j] == '\\' else 1
            out[key], i = line[i + 1:j], j + 1
        else:
            j, depth = i, 0
            while j < len(line) and (depth or line[j] not in ' }'):
                depth += (line[j] in '([{') - (line[j] in ')]}')
                j += 1
            out[key], i = line[i:j], j
    n = out.get('source_line')
    return (out.get('op_name'), out.get('source_file'),
            int(n) if n is not None and n.isdigit() else None)

keys, key = {}, None
for raw in open(sys.argv[1], encoding='utf-8', errors='replace'):
    line = raw.rstrip('\n').rstrip('\r')
    m = re.match(r'<\d+ ([^ >{]+)(\{[^}]*\})?', line)
    if m:
        key = m.group(1) + (m.group(2) or '{}')
    elif line.startswith(' from instruction: ') and key:
        keys[key], key = read_meta(line), None
seen = bad = 0
for v in json.load(open(sys.argv[2]))['values']:
    if v.get('old') not in keys:
        continue
    got = (v.get('op_name'), v.get('source_file'), v.get('source_line'))
    seen += 1
    if got != keys[v['old']]:
        bad += 1
        if bad <= 3:
            print('%s: hlodiff %r, the dump %r' % (v['old'], got, keys[v['old']]),
                  file=sys.stderr)
print(seen, bad)
PY

{
	ls "$HD_SRCDIR"/tests/data/*.txt
	if [ -n "${HD_CORPUS:-}" ] && [ -d "$HD_CORPUS" ]; then
		corpus_dumps | grep -v -e '-values\.txt$' -e '-live-range\.txt$'
	fi
} >"$TMPDIR_T/dumps"

while read -r f; do
	name=${f#"$HD_SRCDIR"/}
	name=${name#"${HD_CORPUS:-/nonexistent}"/}
	"$HLODIFF" --json --all "$f" "$f" >"$TMPDIR_T/r.json" 2>"$TMPDIR_T/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name: hlodiff --json --all exits $rc"
		diag_file "$TMPDIR_T/err"
		continue
	fi
	set -- $(python3 "$TMPDIR_T/check.py" "$f" "$TMPDIR_T/r.json" 2>"$TMPDIR_T/err")
	if [ "${1:-0}" -eq 0 ]; then
		continue        # no value with a record: nothing to compare
	fi
	if [ "$2" -eq 0 ]; then
		pass "$name: metadata of $1 values as the dump has it"
	else
		fail "$name: $2 of $1 values differ from the dump"
		diag_file "$TMPDIR_T/err"
	fi
done <"$TMPDIR_T/dumps"
done_testing
