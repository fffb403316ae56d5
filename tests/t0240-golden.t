#!/bin/sh
# Whole reports, byte for byte, against golden/.  Regenerate on purpose
# with HD_UPDATE_GOLDEN=1 prove tests/t0240-golden.t and review the diff.
. "$(dirname "$0")/lib.sh"

G=$HD_SRCDIR/golden
cd "$HD_SRCDIR" || exit 1   # file names in the reports are relative

golden() { # NAME EXPECTED-STATUS ARGS...
	name=$1
	st=$2
	shift 2
	run_hlodiff "$st" "$name: exit $st" "$@" || return
	is_file "$G/$name" "$TMPDIR_T/out" "$name: report matches golden/$name"
}

for i in 0 1 2 3 4; do
	golden "stat-seed-00$i.txt" 0 stat tests/data/seed-00$i.txt
done
golden "stat-seed-002.json" 0 stat --json tests/data/seed-002.txt
golden "diff-jit_normal.txt" 0 examples/jit_normal-0021.txt examples/jit_normal-0041.txt
golden "diff-jit_normal.json" 0 --json examples/jit_normal-0021.txt examples/jit_normal-0041.txt
golden "diff-jit_normal-all.json" 0 --json --all examples/jit_normal-0021.txt examples/jit_normal-0041.txt
golden "diff-truncated_normal-cpu.txt" 0 tests/data/cpu-truncated_normal-0015.txt tests/data/seed-001.txt
golden "diff-truncated_normal-cpu-n3.txt" 0 -n 3 tests/data/cpu-truncated_normal-0015.txt tests/data/seed-001.txt
golden "diff-seed-000-self.txt" 0 tests/data/seed-000.txt tests/data/seed-000.txt

# Real pairs from corpus/SOURCES.md, readable by eye: the GPU jit__full_run
# series (a fusion change; the sharding rewrite that cut total bytes 58%)
# and three TPU splash-attention compiles that each grew.
golden "diff-full_run-simple-simplefused.txt" 0 tests/data/gpu-full_run-simple.txt tests/data/gpu-full_run-simplefused.txt
golden "diff-full_run-shardedv2-shardedv3.txt" 0 tests/data/gpu-full_run-shardedv2.txt tests/data/gpu-full_run-shardedv3.txt
golden "diff-splash_attention-0035-0044.txt" 1 tests/data/tpu-splash_attention-0035.txt tests/data/tpu-splash_attention-0044.txt
golden "diff-splash_attention-0044-0052.txt" 1 tests/data/tpu-splash_attention-0044.txt tests/data/tpu-splash_attention-0052.txt
golden "diff-full_run-simple-simplefused-all.json" 0 --json --all tests/data/gpu-full_run-simple.txt tests/data/gpu-full_run-simplefused.txt

done_testing
