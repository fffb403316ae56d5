#!/bin/sh
# The manual page (docs/hlodiff.1) and the bash completion
# (completions/hlodiff.bash): installed by `make install`, the page
# rendered by man -l without a warning, every option of `hlodiff --help`
# in both, and a few completions checked.
. "$(dirname "$0")/lib.sh"

need_hlodiff
T=$TMPDIR_T
MAN=$HD_SRCDIR/docs/hlodiff.1
COMP=$HD_SRCDIR/completions/hlodiff.bash

# make install into a scratch root; -o: never rebuild the binary under test
make -s -C "$HD_SRCDIR" -o all -o "$HLODIFF" install BIN="$HLODIFF" \
	DESTDIR="$T/root" PREFIX=/usr >"$T/install.out" 2>&1
is 0 $? "make install DESTDIR=... PREFIX=/usr: exit 0" || diag_file "$T/install.out"
ok_cmd "installed: the man page" cmp -s "$MAN" "$T/root/usr/share/man/man1/hlodiff.1"
ok_cmd "installed: the completion" cmp -s "$COMP" "$T/root/usr/share/bash-completion/completions/hlodiff"
ok_cmd "installed: the binary" test -x "$T/root/usr/bin/hlodiff"

# The options hlodiff itself lists (its --help), one per line.
"$HLODIFF" --help | grep -o -- '\(^\|[ ,]\)-\(-[a-z][a-z-]*\|[a-z]\)' | sed 's/^[ ,]*//' |
	sort -u >"$T/options"
ok_cmd "--help lists options ($(wc -l <"$T/options"))" test "$(wc -l <"$T/options")" -ge 25

if command -v man >/dev/null 2>&1; then
	LC_ALL=C.UTF-8 MANWIDTH=80 MANROFFOPT=-ww man -l "$T/root/usr/share/man/man1/hlodiff.1" \
		>"$T/man.txt" 2>"$T/man.err"
	is 0 $? "man -l renders the installed page"
	ok_cmd "man -l: no warning" test ! -s "$T/man.err" || diag_file "$T/man.err"
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS RULES "EXIT STATUS" FILES EXAMPLES; do
		ok_cmd "man page: section $s" grep -q "^$s" "$T/man.txt"
	done
	# man may hyphenate and render '-' as U+2010: compare on plain ASCII
	sed 's/\xe2\x80\x90/-/g' "$T/man.txt" >"$T/man.ascii"
	missing=$(while read -r o; do grep -q -- "$o\\b" "$T/man.ascii" || echo "$o"; done <"$T/options")
	is "" "$missing" "man page: every option of --help"
else
	skip "no man (scripts/install-deps installs man-db)"
	for i in 1 2 3 4 5 6 7 8 9 10 11; do skip "no man"; done
fi

# Completion: _hlodiff with COMP_WORDS set as bash sets it, in an empty
# directory (no file names in the answers).
mkdir "$T/empty"
complete_words() { # WORD... : the completions of the last word
	(cd "$T/empty" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
		_hlodiff; printf "%s\n" "${COMPREPLY[@]}"' sh "$COMP" "$@" | sort | tr '\n' ' ')
}
is "--format " "$(complete_words hlodiff --form)" "completes --form to --format"
is "json junit " "$(complete_words hlodiff --format j)" "--format j: json, junit"
is "github json junit markdown text " "$(complete_words hlodiff --format '')" "--format: the five formats"
is "--format=markdown " "$(complete_words hlodiff --format=m)" "--format=m: --format=markdown"
is "--color=always --color=auto " "$(complete_words hlodiff --color=a)" "--color=a: auto, always"
is "stat " "$(complete_words hlodiff st)" "a command: stat"
is "check update " "$(complete_words hlodiff golden '')" "golden: update, check"
is "op_name,memory-space " "$(complete_words hlodiff --by op_name,me)" "--by: the second key after a comma"
is "--markdown --markdown-pr " "$(complete_words hlodiff --markdown)" "--markdown: both options"
opts=$(complete_words hlodiff -)
missing=$(while read -r o; do case " $opts " in *" $o "*) ;; *) echo "$o" ;; esac; done <"$T/options")
is "" "$missing" "completion: every option of --help"
touch "$T/empty/team.rules" "$T/empty/notes.txt"
is "team.rules " "$(complete_words hlodiff --rules '')" "--rules: *.rules files"

done_testing
