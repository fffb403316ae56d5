#!/bin/sh
# hlodiff's figures against XLA's own (compiled.memory_analysis(), kept in
# tests/xla/MANIFEST.json, and the -memory-usage-report.txt): each
# relation of docs/xla-figures.md on every compile it applies to, checked
# by tests/py/xla_figures.py (which also reads the dumps itself).
. "$(dirname "$0")/lib.sh"

X=$HD_SRCDIR/tests/xla
T=$TMPDIR_T
[ -f "$X/MANIFEST.json" ] || skip_all "no tests/xla/MANIFEST.json"

python3 "$HD_SRCDIR/tests/py/xla_figures.py" "$HLODIFF" "$X" >"$T/rel" 2>"$T/err"
st=$?
is 0 "$st" "xla_figures.py: every relation held"
diag_file "$T/err"

# relation -> the number of compiles it must have been checked on
while IFS='	' read -r want name; do
	line=$(grep -F "$name	" "$T/rel")
	held=$(printf '%s\n' "$line" | cut -f2)
	n=$(printf '%s\n' "$line" | cut -f3)
	if [ -n "$line" ] && [ "$held" = "$n" ] && [ "$n" = "$want" ]; then
		pass "$name: held on $n of $want compiles"
	else
		fail "$name: held on $want compiles"
		diag "got: ${line:-no such relation}"
	fi
done <<'LIST'
96	argument_size = parameter bytes (device)
96	alias_size = parameter allocations also maybe-live-out
96	output_size - alias_size = output bytes
48	temp_size = temp bytes (CPU)
48	peak_memory = argument + output - alias + constant bytes (CPU)
48	generated_code_size = 0 (CPU)
96	host_argument_size = space-5 argument allocations
96	host_output_size = space-5 output allocations
96	host_alias_size = space-5 alias allocations
96	host_temp_size = space-5 temp allocations
96	host argument + output - alias + temp = space 5 bytes
96	memory-usage report: per-space totals = bytes by memory space
96	Total bytes used (values file) = total_bytes = sum of spaces
LIST

# the relations are not all trivial on this corpus
for f in alias_size_in_bytes host_temp_size_in_bytes; do
	k=$(grep -c "\"$f\": [1-9]" "$X/MANIFEST.json")
	ok_cmd "$f is not 0 on some compile ($k)" test "$k" -gt 0
done

# with the held peak (peak_bytes_by_color in stat --json) the CPU figure
# is at most hlodiff's: XLA's counts what is live at the program's end
if grep -q 'peak_bytes (held)' "$T/rel"; then
	line=$(grep -F 'peak_bytes (held) >= peak_memory (CPU)' "$T/rel")
	is "48/48" "$(printf '%s\n' "$line" | cut -f2)/$(printf '%s\n' "$line" | cut -f3)" \
		"peak_bytes (held) >= peak_memory_in_bytes on the 48 CPU compiles"
else
	skip "this build's stat --json has no held peak (peak_bytes_by_color)"
fi

done_testing
