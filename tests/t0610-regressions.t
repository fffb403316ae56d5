#!/bin/sh
# Regressions: each input in tests/regress/ once made a fuzz target (or
# the tool) crash, leak or trip a sanitizer (docs/robustness.md,
# "Findings").  Here each runs through the command line, in every report
# form, and must end with the status in the table below and no sanitizer
# report (under `make check-san` this is the sanitized build).  `make
# fuzz` and `make check-fuzz` also replay them through the fuzz targets.
#
# File names say which target found them: parse-* is one dump (run with
# stat), diff-* is OLD + four NUL bytes + NEW, or one dump compared with
# itself (fuzz/split-input cuts it), rules-* is a rules file (run with
# --rules on the seed dumps).
. "$(dirname "$0")/lib.sh"

need_hlodiff
T=$TMPDIR_T
R=$HD_SRCDIR/tests/regress
S0=$HD_SRCDIR/tests/data/seed-000.txt
S1=$HD_SRCDIR/tests/data/seed-001.txt

# FILE STATUS WHAT: the expected exit status of every form of the run
# (2 = rejected with a message; for diffs 1 = a rule was violated).
cat >"$T/table" <<'EOF'
diff-empty-shape.txt 0 value whose shape is unknown: shape.c hd_shape_strip_layout computed NULL + 0
diff-no-values.txt 0 dumps without values: peak.c and diff.c passed NULL to qsort_r
diff-empty-operand-name.txt 0 operand '%' without a name: canon.c add_name computes NULL + 0 (clang only; open)
parse-attrs-null.txt 0 a copy-start instruction without attributes: dump.c has_attr computed NULL + 0 (fuzz_parse, clang)
diff-copy-dest-of-another.txt 0 a copy-start whose {0} value is defined by another copy-start: compared with itself it was a new prefetch (verdict.c match_copies)
rules-many-decimals.rules 2 an amount with 71 decimals: rules.c parse_amount overflowed 10^71 and divided by 0 (SIGFPE)
EOF

# Every input has a row, every row an input.
for f in "$R"/*; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	if grep -q "^$b " "$T/table"; then
		pass "$b: listed"
	else
		fail "$b: listed"
		diag "add a row for tests/regress/$b to the table in $0"
	fi
done

while read -r file status what; do
	f=$R/$file
	if [ ! -f "$f" ]; then
		fail "$file: present"
		continue
	fi
	case $file in
	parse-*)
		run_hlodiff "$status" "$file ($what): stat" stat "$f"
		run_hlodiff "$status" "$file: stat --json" stat --json "$f"
		run_hlodiff "$status" "$file: stat --by op_name,kind" stat --by op_name,kind "$f"
		;;
	diff-*)
		"$HD_SRCDIR/fuzz/split-input" "$f" "$T/old.txt" "$T/new.txt"
		run_hlodiff "$status" "$file ($what): diff" "$T/old.txt" "$T/new.txt"
		run_hlodiff "$status" "$file: diff --json --all" --json --all "$T/old.txt" "$T/new.txt"
		run_hlodiff "$status" "$file: diff --by-name" --by-name "$T/old.txt" "$T/new.txt"
		run_hlodiff "$status" "$file: diff --by memory-space --html" --by memory-space --html "$T/r.html" "$T/old.txt" "$T/new.txt"
		;;
	rules-*)
		run_hlodiff "$status" "$file ($what): --rules" --rules "$f" "$S0" "$S1"
		run_hlodiff "$status" "$file: --rules --json" --rules "$f" --json "$S0" "$S1"
		;;
	*)
		fail "$file: name starts with parse-, diff- or rules-"
		;;
	esac
done <"$T/table"

# Compared with itself nothing is new, whatever the names say.
run_hlodiff 0 "diff-copy-dest-of-another.txt against itself" \
	"$R/diff-copy-dest-of-another.txt" "$R/diff-copy-dest-of-another.txt"
ok_cmd "diff-copy-dest-of-another.txt against itself: no new prefetch" \
	grep -q "error new prefetches (0 new)" "$T/out"

done_testing
