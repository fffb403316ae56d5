#!/usr/bin/env python3
"""Independent reading of the memory a dump holds at its peak (for t1000).

At each time t of HloLiveRange: for every allocation, the size of the
union of [offset, offset + size) over its value lines whose value is live
at t (BufferLiveRange start <= t <= end, joined by name{index}), summed
over allocations; the peak is the maximum over t, its time the first t
that reaches it.  Also per allocation colour.  Regular expressions over
the text and a plain walk over the times; no code shared with hlodiff.
Usage:

    peak_held.py DUMP STAT_JSON     exit 0 if hlodiff agrees, 1 otherwise
    peak_held.py DUMP               print the figures as JSON
"""
import json
import os
import re
import sys

ALLOC = re.compile(r'^allocation (\d+): size (\d+)(.*):$')
VALUE = re.compile(r'^ value: <\d+ ([^ >{]+)(\{[0-9,]*\})?[^>]*> '
                   r'\(size=(\d+),offset=(\d+)\): ')
MAX = re.compile(r'^HloLiveRange \(max (\d+)\):$')
RANGE = re.compile(r'^    (\S+?)(\{[0-9,]*\}):(-?\d+)-(-?\d+)$')


def read_lines(path):
    with open(path, encoding='utf-8', errors='replace') as fh:
        for line in fh:
            yield line.rstrip('\n')
    # the newest XLA writes the live ranges to a file of their own
    other = path.replace('-buffer-assignment.txt', '-live-range.txt')
    if other != path and os.path.exists(other):
        with open(other, encoding='utf-8', errors='replace') as fh:
            for line in fh:
                yield line.rstrip('\n')


def held(path):
    placed = {}          # name{index} -> (allocation, colour, offset, size)
    colours = {}
    ranges = []
    t_max = None
    alloc = None
    in_ranges = False
    for line in read_lines(path):
        m = ALLOC.match(line)
        if m:
            c = re.search(r', color (\d+)', m.group(3))
            alloc = int(m.group(1))
            colours[alloc] = c.group(1) if c else '0'
            continue
        m = VALUE.match(line)
        if m and alloc is not None:
            key = m.group(1) + (m.group(2) or '{}')
            placed.setdefault(key, (alloc, colours[alloc], int(m.group(4)),
                                    int(m.group(3))))
            continue
        m = MAX.match(line)
        if m:
            t_max = int(m.group(1))
            continue
        if line == '  BufferLiveRange:':
            in_ranges = True
            continue
        if in_ranges:
            m = RANGE.match(line)
            if m:
                ranges.append((m.group(1) + m.group(2), int(m.group(3)),
                               int(m.group(4))))
                continue
            in_ranges = False
    if t_max is None or not ranges:
        return None
    # what is live at t, per allocation: a list of intervals
    starts = {}
    for key, s, e in ranges:
        if key not in placed:
            continue
        a, c, off, size = placed[key]
        s, e = max(s, 0), min(e, t_max)
        if size <= 0 or s > e:
            continue
        starts.setdefault(s, []).append((e, a, c, off, off + size))
    live = []
    best, best_t = -1, None
    per_colour = {c: (0, 0) for c in colours.values()}
    for t in range(t_max + 1):
        live = [x for x in live if x[0] >= t] + starts.get(t, [])
        by_alloc = {}
        for e, a, c, lo, hi in live:
            by_alloc.setdefault((a, c), []).append((lo, hi))
        total = 0
        colour_total = {}
        for (a, c), iv in by_alloc.items():
            iv.sort()
            union, end = 0, None
            for lo, hi in iv:
                if end is None or lo >= end:
                    union += hi - lo
                    end = hi
                elif hi > end:
                    union += hi - end
                    end = hi
            total += union
            colour_total[c] = colour_total.get(c, 0) + union
        if total > best:
            best, best_t = total, t
        for c, b in colour_total.items():
            if b > per_colour[c][0]:
                per_colour[c] = (b, t)
    return {'peak_bytes': best, 'peak_time': best_t,
            'peak_bytes_by_color': {c: v[0] for c, v in per_colour.items()},
            'peak_time_by_color': {c: v[1] for c, v in per_colour.items()}}


def main():
    mine = held(sys.argv[1])
    if len(sys.argv) == 2:
        print(json.dumps(mine, indent=1, sort_keys=True))
        return 0
    with open(sys.argv[2]) as fh:
        theirs = json.load(fh)
    if mine is None:
        if theirs.get('peak_bytes') is not None:
            print('no live ranges, yet hlodiff printed peak_bytes %r'
                  % theirs.get('peak_bytes'))
            return 1
        return 0
    bad = 0
    for key, want in mine.items():
        got = theirs.get(key, '<missing>')
        if got != want:
            print(f'{key}: expected {want!r}, hlodiff printed {got!r}')
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
