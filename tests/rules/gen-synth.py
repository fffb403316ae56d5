#!/usr/bin/env python3
"""Writes synth-old.txt and synth-new.txt: a hand-made pair of dumps in
which every metric of the rules language changes, so that each metric
can be tested with each condition (tests/unit/test_rules.c has the
expected numbers).  Run from tests/rules/ after editing; commit both.

NEW against OLD: every allocation kind and memory space grows by 25%
(space 2 doubles, space 5 appears), attn.1 grows by 2048 bytes, and five
copy-starts appear: copy-start.1 an eviction, .2 a cross-program
prefetch, .3 a host offload, .4 a host reload, .5 a prefetch, .6 an
"other" copy into SMEM.  The prefetch copy-start is in both, unchanged.
"""


def rec(vid, name, idx, color, insn):
    pos = name + (" " + idx if idx else "")
    return "\n".join(["<%d %s%s @%d>" % (vid, name, idx, color), " positions:",
                      "  " + pos, " uses:", " from instruction: " + insn])


def md(op):
    return ', metadata={op_name="%s" source_file="m.py" source_line=1}' % op


def dump(new):
    def s(o, n):
        return n if new else o
    cs = "(f32[256]{0:S(1)}, f32[256]{0}, u32[]{:S(2)})"
    allocs = [
        ("allocation 0: size %d, parameter 0, shape |f32[%d]| at ShapeIndex {}:"
         % (s(1024, 1280), s(256, 320)),
         [(1, "p0.1", "", 0, s(1024, 1280), 0, "f32[%d]{0}" % s(256, 320))]),
        ("allocation 1: size %d, output shape is |f32[%d]|, maybe-live-out:"
         % (s(2048, 2560), s(512, 640)),
         [(20, "out.1", "", 0, s(2048, 2560), 0, "f32[%d]{0}" % s(512, 640))]),
        ("allocation 2: size %d, constant:" % s(512, 640),
         [(2, "constant.1", "", 0, s(512, 640), 0, "f32[%d]{0}" % s(128, 160))]),
        ("allocation 3: size %d, thread-local:" % s(256, 320),
         [(3, "add.9", "", 0, s(256, 320), 0, "f32[%d]{0}" % s(64, 80))]),
        ("allocation 4: size %d:" % s(128, 160),
         [(4, "other.1", "", 0, s(128, 160), 0, "f32[%d]{0}" % s(32, 40))]),
    ]
    temp = [(10, "attn.1", "", 0, s(4096, 6144), 0, "f32[%d]{0}" % s(1024, 1536)),
            (11, "mlp.1", "", 0, 4096, s(4096, 6144), "f32[1024]{0}"),
            (12, "copy-start", "{}", 0, 32, 0, cs)]
    if new:
        temp += [(16, "copy-start.1", "{0}", 0, 256, 0, "f32[64]{0}"),
                 (19, "copy-start.4", "{0}", 0, 256, 256, "f32[64]{0}")]
    allocs.append(("allocation 5: size %d, preallocated-temp:" % s(8192, 10240), temp))
    vm = [(13, "copy-start", "{0}", 1, 1024, 0, "f32[256]{0:S(1)}")]
    if new:
        vm += [(17, "copy-start.2", "{0}", 1, 1280, 0, "f32[320]{0:S(1)}"),
               (21, "copy-start.5", "{0}", 1, 512, 0, "f32[128]{0:S(1)}")]
    allocs.append(("allocation 6: size %d, color 1, preallocated-temp:" % s(1024, 1280), vm))
    allocs.append(("allocation 7: size %d, color 2, preallocated-temp:" % s(4, 8),
                   [(14, "copy-start", "{2}", 2, 4, 0, "u32[]{:S(2)}")]))
    sm = [(15, "s.1", "", 6, 512, 0, "u32[]{:T(128)S(6)}")]
    if new:
        sm += [(22, "copy-start.6", "{0}", 6, 128, 0, "u32[]{:T(128)S(6)}")]
    allocs.append(("allocation 8: size %d, color 6, preallocated-temp:" % s(512, 640), sm))
    if new:
        allocs.append(("allocation 9: size 256, color 5, preallocated-temp:",
                       [(18, "copy-start.3", "{0}", 5, 256, 0, "f32[64]{0:S(5)}")]))
    out = ["BufferAssignment:"]
    total = 0
    values = []
    for hdr, vals in allocs:
        out.append(hdr)
        total += int(hdr.split("size ")[1].split(",")[0].rstrip(":"))
        for (vid, name, idx, color, size, off, shape) in vals:
            out.append(" value: <%d %s%s @%d> (size=%d,offset=%d): %s"
                       % (vid, name, idx, color, size, off, shape))
            values.append((vid, name, idx, color))
    out += ["", "Total bytes used: %d (%.1fKiB)" % (total, total / 1024.0), "",
            "Used values:"]
    insns = {
        "p0.1": "%%p0.1 = f32[%d]{0} parameter(0)%s" % (s(256, 320), md("x")),
        "out.1": "%%out.1 = f32[%d]{0} fusion(%%mlp.1), kind=kLoop, calls=%%f.3%s"
                 % (s(512, 640), md("jit(f)/out/add")),
        "constant.1": "%%constant.1 = f32[%d]{0} constant({...})" % s(128, 160),
        "add.9": "%%add.9 = f32[%d]{0} add(%%p0.1, %%p0.1)%s" % (s(64, 80), md("jit(f)/inner/add")),
        "other.1": "%%other.1 = f32[%d]{0} custom-call(%%p0.1), custom_call_target=\"x\"%s"
                   % (s(32, 40), md("jit(f)/other")),
        "attn.1": "%%attn.1 = f32[%d]{0} fusion(%%copy-done), kind=kOutput, calls=%%f.1%s"
                  % (s(1024, 1536), md("jit(f)/attention/dot")),
        "mlp.1": "%%mlp.1 = f32[1024]{0} fusion(%%attn.1), kind=kOutput, calls=%%f.2%s"
                 % md("jit(f)/mlp/dot"),
        "copy-start": "%%copy-start = %s copy-start(%%p0.1)" % cs,
        "s.1": "%%s.1 = u32[]{:T(128)S(6)} add(%%constant.1, %%constant.1)%s" % md("jit(f)/scalar"),
        "copy-start.1": "%copy-start.1 = (f32[64]{0}, f32[64]{0:S(1)}, u32[]{:S(2)}) copy-start(%copy-done)",
        "copy-start.2": "%copy-start.2 = (f32[320]{0:S(1)}, f32[320]{0}, u32[]{:S(2)}) "
                        "copy-start(%p0.1), cross_program_prefetch_index=0",
        "copy-start.3": "%copy-start.3 = (f32[64]{0:S(5)}, f32[64]{0}, u32[]{:S(2)}) "
                        "copy-start(%mlp.1)" + md("jit(f)/offload"),
        "copy-start.4": "%copy-start.4 = (f32[64]{0}, f32[64]{0:S(5)}, u32[]{:S(2)}) copy-start(%copy-start.3)",
        "copy-start.5": "%copy-start.5 = (f32[128]{0:S(1)}, f32[128]{0}, u32[]{:S(2)}) copy-start(%attn.1)",
        "copy-start.6": "%copy-start.6 = (u32[]{:T(128)S(6)}, u32[]{:T(128)}, u32[]{:S(2)}) "
                        "copy-start(%constant.1)",
    }
    for (vid, name, idx, color) in sorted(values):
        out.append(rec(vid, name, idx, color, insns[name]))
    seq = ["p0.1", "constant.1", "copy-start", "copy-done", "attn.1", "mlp.1", "s.1", "out.1"]
    if new:
        seq += ["copy-start.%d" % i for i in range(1, 7)]
    out += ["", "", "HloLiveRange (max %d):" % len(seq), "  InstructionSequence:"]
    out += ["    %d:%s" % (i, n) for i, n in enumerate(seq)]
    out.append("  BufferLiveRange:")
    live = {"p0.1{}": (0, len(seq)), "constant.1{}": (1, 6), "copy-start{}": (2, 3),
            "copy-start{0}": (2, 4), "copy-start{2}": (2, 3), "attn.1{}": (4, 5),
            "mlp.1{}": (5, 7), "s.1{}": (6, 7), "out.1{}": (7, len(seq))}
    for i in range(1, 7):
        live["copy-start.%d{0}" % i] = (7 + i, len(seq))
    for (vid, name, idx, color) in sorted(values):
        if name in ("add.9", "other.1"):
            continue   # thread-local and unscheduled: no live range
        k = name + (idx or "{}")
        out.append("    %s:%d-%d" % (k, live[k][0], live[k][1]))
    out.append("  Live ranges at 5 (peak):")
    cum = 0
    for k, b in [("attn.1{}", s(4096, 6144)), ("mlp.1{}", 4096), ("p0.1{}", s(1024, 1280))]:
        cum += b
        out.append("    %s: %d bytes (cumulative: %d bytes)" % (k, b, cum))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    with open("synth-old.txt", "w") as f:
        f.write(dump(False))
    with open("synth-new.txt", "w") as f:
        f.write(dump(True))
