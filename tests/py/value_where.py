#!/usr/bin/env python3
"""An independent reading of what a report says of each value: its shape
(the value line's, with layout), its op_name and source_file:line (the
metadata of its defining instruction), read from the dump text with
regular expressions, not by hlodiff's parser.

  value_where.py json OLD NEW REPORT.json   check every listed value
  value_where.py text OLD NEW REPORT.txt    check the values table
  value_where.py show DUMP KEY              print shape, op_name, source
  value_where.py short OP_NAME              the shortened op_name

Each check prints "checked N" and exits 1 with the first difference.
"""
import json
import re
import sys

VALUE = re.compile(r'^ value: <\d+ ([^ >{]+)(\{[^}]*\})?(?: @\d+)?(?: \(phi\))?> '
                   r'\(size=(\d+),offset=\d+\): (.*)$')
INSN = re.compile(r'^ from instruction: %([^ ]+) = ')
META = re.compile(r'metadata=\{(.*)\}')
OPN = re.compile(r'op_name="((?:[^"\\]|\\.)*)"')
SRCF = re.compile(r'source_file="((?:[^"\\]|\\.)*)"')
SRCL = re.compile(r'source_line=(\d+)')
WIDTH = 64


def read(path):
    shapes, meta = {}, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = VALUE.match(line)
            if m:
                shapes.setdefault(m.group(1) + (m.group(2) or "{}"), m.group(4))
                continue
            m = INSN.match(line)
            if m and m.group(1) not in meta:
                md = META.search(line)
                op = src = None
                ln = None
                if md:
                    t = md.group(1)
                    a, b, c = OPN.search(t), SRCF.search(t), SRCL.search(t)
                    op = a.group(1) if a else None
                    src = b.group(1) if b else None
                    ln = int(c.group(1)) if c else None
                meta[m.group(1)] = (op, src, ln)
    return shapes, meta


def name_of(key):
    return key[:key.index("{")] if "{" in key else key


def where(meta, key):
    if key is None:
        return (None, None, None)
    return meta.get(name_of(key), (None, None, None))


def diff_where(old, new, ok, nk):
    w = where(new[1], nk)
    if w[0] or w[1]:
        return w
    return where(old[1], ok)


def short(op):
    if not op:
        return ""
    parts = op.split("/")
    if len(parts) > 2 and parts[0].startswith("jit(") and parts[1] == "jit(main)":
        op = "/".join(parts[2:])
    if len(op) <= WIDTH:
        return op
    room = WIDTH - 4
    keep = []
    for p in reversed(op.split("/")):
        cand = "/".join([p] + keep)
        if len(cand) > room:
            break
        keep = [p] + keep
    tail = "/".join(keep) if keep else op[-room:]
    return ".../" + tail


def shape_pair(old, new, ok, nk):
    o = old[0].get(ok) if ok else None
    n = new[0].get(nk) if nk else None
    if o and n and o != n:
        return "%s -> %s" % (o, n)
    return n or o or ""


def fail(msg):
    print(msg)
    sys.exit(1)


def check_json(old, new, report):
    doc = json.load(open(report))
    n = 0
    for v in doc["values"]:
        ok_, nk = v["old"], v["new"]
        for side, key, dump in (("old", ok_, old), ("new", nk, new)):
            want = dump[0].get(key) if key else None
            if key and key not in dump[0]:
                continue   # no value line: the instruction's subshape
            if v[side + "_shape"] != want:
                fail("%s %s: %s_shape %r, the dump says %r" %
                     (ok_, nk, side, v[side + "_shape"], want))
        op, src, ln = diff_where(old, new, ok_, nk)
        if (v["op_name"], v["source_file"]) != (op, src):
            fail("%s %s: op_name/source %r %r, the dump says %r %r" %
                 (ok_, nk, v["op_name"], v["source_file"], op, src))
        if v["source_line"] != (ln if src else None):
            fail("%s %s: source_line %r, the dump says %r" % (ok_, nk, v["source_line"], ln))
        n += 1
    print("checked %d" % n)


ROW = re.compile(r'^  (changed|added|removed|same) +(-|\d+) +(-|\d+) +([-+]?\d+)  (.{22})  (.*)$')


def check_text(old, new, report):
    lines = open(report, encoding="utf-8").read().split("\n")
    n = 0
    for i, line in enumerate(lines):
        m = ROW.match(line)
        if not m:
            continue
        label = m.group(6)
        label = re.sub(r'  \[[a-z,-]+\]$', '', label)
        mw = re.match(r'^(.*) \(was (.*)\)$', label)
        if m.group(1) == "removed":
            ok_, nk = label, None
        elif m.group(1) == "added":
            ok_, nk = None, label
        else:
            nk = mw.group(1) if mw else label
            ok_ = mw.group(2) if mw else label
        want_shape = shape_pair(old, new, ok_, nk)
        op, src, ln = diff_where(old, new, ok_, nk)
        want = []
        if (ok_ and ok_ not in old[0]) or (nk and nk not in new[0]):
            # no value line to read: the shape is the instruction's subshape
            if lines[i + 1].startswith("           shape: "):
                i += 1
        elif want_shape:
            want.append("           shape: " + want_shape)
        s = short(op)
        loc = ("%s:%d" % (src, ln)) if src and ln is not None else (src or "")
        if s or loc:
            want.append("           " + ("op_name: " + s if s else "") +
                        ("; " if s and loc else "") + ("source: " + loc if loc else ""))
        got = lines[i + 1:i + 1 + len(want)]
        if got != want:
            fail("%s: lines under it %r, the dumps say %r" % (label, got, want))
        n += 1
    print("checked %d" % n)


def main():
    cmd = sys.argv[1]
    if cmd == "short":
        print(short(sys.argv[2]))
    elif cmd == "show":
        d = read(sys.argv[2])
        key = sys.argv[3]
        op, src, ln = where(d[1], key)
        print("%s\t%s\t%s\t%s" % (d[0].get(key, ""), op or "", src or "",
                                  "" if ln is None else ln))
    else:
        old, new = read(sys.argv[2]), read(sys.argv[3])
        (check_json if cmd == "json" else check_text)(old, new, sys.argv[4])


if __name__ == "__main__":
    main()
