#!/bin/sh
# No function of src/ or include/hlodiff/ is longer than 80 lines, from
# the first line of its signature to its closing brace (a function that
# long does several things: split it into named steps).  A function
# body opens with "{" and closes with "}" at the start of a line, as
# the project writes them; the signature is the run of lines above the
# "{" up to a blank line, a comment, a preprocessor line or a ";".
. "$(dirname "$0")/lib.sh"

T=$TMPDIR_T
MAX=80

awk -v max="$MAX" '
FNR == 1 { n = 0 }
{ line[++n] = $0 }
/^\{/ {
	open_at = n
	sig = n
	while (sig > 1) {
		p = line[sig - 1]
		if (p ~ /^[ \t]*$/ || p ~ /^[ \t]*(\/\*|\*)/ || p ~ /^#/ || p ~ /;[ \t]*$/ || p ~ /^\}/)
			break
		sig--
	}
	start = sig
}
/^\}/ && open_at {
	len = n - start + 1
	name = line[start]
	for (k = start; k < open_at; k++)
		if (line[k] ~ /\(/) { name = line[k]; break }
	sub(/\(.*/, "", name)
	sub(/.*[ *]/, "", name)
	printf "%d %s:%d %s\n", len, FILENAME, start, name
	open_at = 0
}
' "$HD_SRCDIR"/src/*.c "$HD_SRCDIR"/src/*.h "$HD_SRCDIR"/include/hlodiff/*.h >"$T/lengths"

count=$(wc -l <"$T/lengths")
if [ "$count" -ge 500 ]; then
	pass "found $count functions"
else
	fail "found $count functions (the pattern no longer fits the code)"
fi

sort -rn "$T/lengths" | awk -v max="$MAX" '$1 > max' >"$T/long"
if [ ! -s "$T/long" ]; then
	pass "no function over $MAX lines"
else
	fail "no function over $MAX lines"
	diag "lines file:line function"
	diag_file "$T/long" 40
fi
longest=$(sort -rn "$T/lengths" | head -n 1)
diag "longest: $longest"

done_testing
