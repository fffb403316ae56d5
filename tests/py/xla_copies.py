#!/usr/bin/env python3
"""The copy-start transfers of a split dump, read independently.

Reads the `from instruction:` lines of -buffer-assignment-values.txt with
regular expressions (the shape helpers of dump_figures.py) and classifies
each copy-start by the memory spaces of its destination and source:
1 <- 0 prefetch (cross-program-prefetch with the attribute), 0 <- 1
eviction, into 5 host-offload, from 5 host-reload, else other.  Compares
with the "copies" of `hlodiff stat --json`.

Usage: xla_copies.py VALUES_FILE STAT_JSON   (exit 0 if they agree)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dump_figures import copy_start_spaces  # noqa: E402

INSN = re.compile(r'^ from instruction: %(\S+) = (.*)$')


def copies(path):
    out = {}
    with open(path) as fh:
        for line in fh:
            m = INSN.match(line.rstrip('\n'))
            if not m or m.group(1) in out:
                continue
            cs = copy_start_spaces(m.group(2))
            if cs is None:
                continue
            dst, src, tail = cs
            if 'cross_program_prefetch_index=' in tail:
                cls = 'cross-program-prefetch'
            elif dst == 1 and src == 0:
                cls = 'prefetch'
            elif dst == 0 and src == 1:
                cls = 'eviction'
            elif dst == 5:
                cls = 'host-offload'
            elif src == 5:
                cls = 'host-reload'
            else:
                cls = 'other'
            out[m.group(1)] = (cls, src, dst)
    return out


def main():
    mine = copies(sys.argv[1])
    with open(sys.argv[2]) as fh:
        theirs = {c['name']: (c['class'], c['src_space'], c['dst_space'])
                  for c in json.load(fh)['copies']}
    bad = 0
    for name in sorted(set(mine) | set(theirs)):
        if mine.get(name) != theirs.get(name):
            print('%s: expected %s, hlodiff printed %s' % (name, mine.get(name), theirs.get(name)))
            bad += 1
    print('%d copy-starts' % len(mine))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
