#!/bin/sh
# GitHub annotations on the source lines behind a violation (issue 23,
# item 1) and --source-prefix OLD=NEW, which maps the dump's absolute
# source paths to repository paths.
. "$(dirname "$0")/lib.sh"

T=$TMPDIR_T
D=$HD_SRCDIR/tests/data
S35=$D/tpu-splash_attention-0035.txt
S44=$D/tpu-splash_attention-0044.txt
V2=$D/gpu-full_run-shardedv2.txt
V3=$D/gpu-full_run-shardedv3.txt

# The independent reading: splash_mha_fwd_c602b16d.1's source in the dump.
file=$(sed -n 's/.*from instruction: %splash_mha_fwd_c602b16d\.1 = .*source_file="\([^"]*\)".*/\1/p' "$S44" | head -n 1)
line=$(sed -n 's/.*from instruction: %splash_mha_fwd_c602b16d\.1 = .*source_line=\([0-9]*\).*/\1/p' "$S44" | head -n 1)
is "/home/ptoulme/miniconda3/envs/vllm/lib/python3.12/site-packages/jax/experimental/pallas/ops/tpu/splash_attention/splash_attention_kernel.py 1100" \
	"$file $line" "sed: the source of splash_mha_fwd_c602b16d.1"
pre=/home/ptoulme/miniconda3/envs/vllm/lib/python3.12/site-packages/
rest=${file#"$pre"}

run_hlodiff 1 "github, no mapping" --format github "$S35" "$S44"
is 2 "$(grep -c "^::error file=$file,line=$line,title=hlodiff tpu-splash_attention-0044%3A error " "$T/out")" \
	"one annotation on the source line per violated rule (total and peak), the dump's path"
ok_cmd "it names the values from that line and the op_name" \
	grep -qF "::values from this line behind the violation (op_name .../jit(_splash_attention)/splash_mha_fwd_c602b16d/pallas_call):%0A  +262144 splash_mha_fwd_c602b16d.1{0} 262144 -> 524288 (was splash_mha_fwd_e9701070.1{0})%0A  +262144 splash_mha_fwd_c602b16d.1{1} " "$T/out"
is 2 "$(grep -c '^::error title=' "$T/out")" "the rules' own annotations stay (no file= for the built-in rules)"

run_hlodiff 1 "github --source-prefix" --format github --source-prefix "$pre=third_party/" "$S35" "$S44"
is 2 "$(grep -c "^::error file=third_party/$rest,line=$line," "$T/out")" "--source-prefix: the repository path"
ok_cmd "--source-prefix: the dump's path is gone" sh -c "! grep -qF '$pre' '$T/out'"
run_hlodiff 1 "github, two prefixes: the first that matches" --format github \
	--source-prefix /nowhere/=x/ --source-prefix="$pre=" --source-prefix /home/=y/ "$S35" "$S44"
is 2 "$(grep -c "^::error file=$rest,line=$line," "$T/out")" "--source-prefix OLD= (empty NEW): the path relative to OLD"
run_hlodiff 1 "--source-prefix also maps the text report" --source-prefix "$pre=third_party/" "$S35" "$S44"
ok_cmd "text: source: third_party/..." grep -qF "source: third_party/$rest:$line" "$T/out"
run_hlodiff 1 "... and Markdown" --format markdown --source-prefix "$pre=third_party/" "$S35" "$S44"
ok_cmd "markdown: third_party/..." grep -qF "\`third_party/$rest:$line\`" "$T/out"
run_hlodiff 1 "... not JSON (the dump's path, for programs)" --json --source-prefix "$pre=third_party/" "$S35" "$S44"
ok_cmd "json: source_file as in the dump" grep -qF "\"source_file\": \"$file\"" "$T/out"

# Several source lines behind one violation (GPU sharding rewrite, with a
# rule that fails on the growth of added values).
cat >"$T/r.rules" <<'R'
error temp_bytes grows by more than 0%
error bytes(kind=temp) grows by more than 0 B
R
run_hlodiff 0 "gpu: nothing grew" --format github --rules "$T/r.rules" "$V2" "$V3"
run_hlodiff 1 "gpu, the other way: temp grew" --format github --rules "$T/r.rules" "$V3" "$V2"
grep '::values from this line' "$T/out" | sed 's/^::error file=\([^,]*\),line=\([0-9]*\),title=\([^:]*\)::.*/\3 \1:\2/' | sort >"$T/places"
# every place named is the source of a value the annotation lists
python3 - "$V3" "$V2" "$T/out" <<'PY' >"$T/py.out"
import re, sys
meta = {}
for path in (sys.argv[2], sys.argv[1]):   # the new value's source first
    for l in open(path):
        m = re.match(r' from instruction: %([^ ]+) = .*source_file="([^"]*)" source_line=(\d+)', l)
        if m:
            meta.setdefault(m.group(1), "%s:%s" % (m.group(2), m.group(3)))
n = 0
for l in open(sys.argv[3]):
    m = re.match(r'::error file=([^,]*),line=(\d+),', l)
    if not m or '::values from this line' not in l:
        continue
    place = "%s:%s" % (m.group(1), m.group(2))
    names = re.findall(r'%0A  [-+]\d+ ([^ {]+)\{', l)
    assert names, l
    for nm in names:
        assert meta.get(nm) == place, (nm, meta.get(nm), place)
    n += 1
print(n)
PY
st=$?
is 0 "$st" "every source annotation names values from that file:line (read from the dumps)"
ok_cmd "several source lines annotated" test "$(cat "$T/py.out")" -ge 2
is "$(sort -u "$T/places" | wc -l)" "$(wc -l <"$T/places")" "one annotation per source line per rule ($(wc -l <"$T/places") in all)"

# Usage errors.
run_hlodiff 2 "--source-prefix without =" --source-prefix /a "$S35" "$S44"
ok_cmd "message: --source-prefix takes OLD=NEW" grep -qF "hlodiff: --source-prefix takes OLD=NEW (a path prefix of the dump, then what to show instead), not '/a'" "$T/err"
run_hlodiff 2 "--source-prefix with an empty OLD" --source-prefix =x "$S35" "$S44"
run_hlodiff 2 "--source-prefix without a value" "$S35" "$S44" --source-prefix
ok_cmd "message: --source-prefix needs OLD=NEW" grep -qF "hlodiff: --source-prefix needs OLD=NEW" "$T/err"

done_testing
