#!/usr/bin/env python3
"""Independent reading of a buffer-assignment dump, for the tests.

Computes a few figures straight from the text with regular expressions
(no code shared with hlodiff) and compares them with the JSON that
`hlodiff stat --json` printed.  Usage:

    dump_figures.py DUMP STAT_JSON     exit 0 if all agree, 1 otherwise
    dump_figures.py DUMP               print the figures as JSON
"""
import json
import re
import sys

ALLOC = re.compile(r'^allocation (\d+): size (\d+)(.*):$')
VALUE = re.compile(r'^ value: <\d+ [^>]*> \(size=(\d+),offset=(\d+)\): ')
TOTAL = re.compile(r'^Total bytes used: (\d+) ')
PEAK_HDR = re.compile(r'^  Live ranges at (\d+) \(peak\):$')
PEAK_CUM = re.compile(r'^    \S+: (\d+) bytes \(cumulative: (\d+) bytes\)$')
PEAK_PLAIN = re.compile(r'^    \S+: (\d+) bytes$')
INSN = re.compile(r'^ from instruction: %(\S+) = (.*)$')


def split_top(s):
    """Splits a tuple body on ', ' at bracket depth 0."""
    parts, depth, cur = [], 0, ''
    i = 0
    while i < len(s):
        c = s[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        if depth == 0 and s.startswith(', ', i):
            parts.append(cur)
            cur = ''
            i += 2
            continue
        cur += c
        i += 1
    parts.append(cur)
    return [re.sub(r'^/\*index=\d+\*/', '', p) for p in parts]


def space(shape):
    m = re.search(r':[^{}]*S\((\d+)\)', shape)
    return int(m.group(1)) if m else 0


def copy_start_spaces(rest):
    """rest = 'SHAPE copy-start(...)...' -> (dst, src) memory spaces."""
    depth = 0
    for i, c in enumerate(rest):
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif c == ' ' and depth == 0:
            shape, tail = rest[:i], rest[i + 1:]
            break
    else:
        return None
    if not tail.startswith('copy-start(') or not shape.startswith('('):
        return None
    elems = split_top(shape[1:-1])
    return space(elems[0]), space(elems[1]), tail


def figures(path):
    f = {'allocations': 0, 'values': 0, 'bytes_by_color': {},
         'alloc_bytes': 0, 'total_bytes': None, 'stated_peak_time': None,
         'stated_peak_bytes': None, 'prefetches': []}
    seen_insn = set()
    peak = None
    with open(path, encoding='utf-8', errors='replace') as fh:
        for line in fh:
            line = line.rstrip('\n')
            m = ALLOC.match(line)
            if m:
                size = int(m.group(2))
                c = re.search(r', color (\d+)', m.group(3))
                color = c.group(1) if c else '0'
                f['allocations'] += 1
                f['alloc_bytes'] += size
                f['bytes_by_color'][color] = f['bytes_by_color'].get(color, 0) + size
                continue
            if VALUE.match(line):
                f['values'] += 1
                continue
            m = TOTAL.match(line)
            if m:
                f['total_bytes'] = int(m.group(1))
                continue
            m = PEAK_HDR.match(line)
            if m:
                f['stated_peak_time'] = int(m.group(1))
                peak = 'open'
                f['stated_peak_bytes'] = 0
                continue
            if peak == 'open':
                m = PEAK_CUM.match(line)
                if m:
                    f['stated_peak_bytes'] = int(m.group(2))
                    continue
                m = PEAK_PLAIN.match(line)
                if m:
                    f['stated_peak_bytes'] += int(m.group(1))
                    continue
                peak = 'closed'
            m = INSN.match(line)
            if m and m.group(1) not in seen_insn:
                seen_insn.add(m.group(1))
                cs = copy_start_spaces(m.group(2))
                if cs is None:
                    continue
                dst, src, tail = cs
                cross = ('cross_program_prefetch_index=' in tail or
                         'is_cross_program_prefetch=true' in tail)
                if cross or (dst == 1 and src == 0):
                    f['prefetches'].append(m.group(1))
    f['prefetches'].sort()
    return f


def main():
    mine = figures(sys.argv[1])
    if len(sys.argv) == 2:
        print(json.dumps(mine, indent=1, sort_keys=True))
        return 0
    with open(sys.argv[2]) as fh:
        theirs = json.load(fh)
    bad = 0
    for key, want in mine.items():
        got = theirs.get(key, '<missing>')
        if got != want:
            print(f'{key}: expected {want!r}, hlodiff printed {got!r}')
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
