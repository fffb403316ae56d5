#!/usr/bin/env python3
"""hlodiff's figures against XLA's own, on every compile of tests/xla/.

For each compile of tests/xla/MANIFEST.json: reads `hlodiff stat --json`
of its main file, reads the dump and its memory-usage report again here
(regular expressions, no code shared with hlodiff), and checks each
relation of docs/xla-figures.md against the fields of
compiled.memory_analysis() that the manifest recorded.  Prints one line
per relation:

    NAME<TAB>HELD<TAB>CHECKED<TAB>first failures

Usage: xla_figures.py HLODIFF CORPUS_DIR   (exit 0 if every relation held)
"""
import json
import os
import re
import subprocess
import sys

ALLOC = re.compile(r'^allocation (\d+): size (\d+)(.*):$')
SPACE = re.compile(r'^Memory Space: (\S+) \(color=(\d+)\)$')
SPACE_TOTAL = re.compile(r'^Total bytes: (\d+) \(')
TOTAL = re.compile(r'^Total bytes used: (\d+) ')


def kind(flags):
    """The allocation kind as docs/xla-figures.md names it."""
    if ', parameter ' in flags:
        return 'parameter'
    if 'maybe-live-out' in flags:
        return 'output'
    if ', constant' in flags:
        return 'constant'
    if 'thread-local' in flags:
        return 'thread-local'
    if 'preallocated-temp' in flags:
        return 'temp'
    return 'other'


def read_allocs(path):
    """(bytes by (colour, kind), parameter bytes also live out)."""
    by, alias = {}, {}
    with open(path) as fh:
        for line in fh:
            m = ALLOC.match(line.rstrip('\n'))
            if not m:
                continue
            size, flags = int(m.group(2)), m.group(3)
            c = re.search(r', color (\d+)', flags)
            color = int(c.group(1)) if c else 0
            k = kind(flags)
            by[(color, k)] = by.get((color, k), 0) + size
            if k == 'parameter' and 'maybe-live-out' in flags:
                alias[color] = alias.get(color, 0) + size
    return by, alias


def read_report(path):
    """{colour: total bytes} of a -memory-usage-report.txt."""
    out, color = {}, None
    with open(path) as fh:
        for line in fh:
            line = line.rstrip('\n')
            m = SPACE.match(line)
            if m:
                color = int(m.group(2))
                continue
            m = SPACE_TOTAL.match(line)
            if m and color is not None:
                out[color] = int(m.group(1))
                color = None
    return out


def read_total(path):
    with open(path) as fh:
        for line in fh:
            m = TOTAL.match(line)
            if m:
                return int(m.group(1))
    return None


class Relations:
    def __init__(self):
        self.rel = {}

    def check(self, name, where, ok, detail):
        r = self.rel.setdefault(name, [0, 0, []])
        r[1] += 1
        if ok:
            r[0] += 1
        elif len(r[2]) < 3:
            r[2].append('%s: %s' % (where, detail))


def main():
    hlodiff, root = sys.argv[1], sys.argv[2]
    with open(os.path.join(root, 'MANIFEST.json')) as fh:
        man = json.load(fh)
    R = Relations()
    for c in man['compiles']:
        if not c.get('main'):
            continue
        d = os.path.join(root, c['dir'])
        main_file = os.path.join(d, c['main'])
        st = subprocess.run([hlodiff, 'stat', '--json', main_file],
                            stdout=subprocess.PIPE, check=True)
        j = json.loads(st.stdout)
        ma = c['memory_analysis']
        by, alias = read_allocs(main_file)
        kinds = j['bytes_by_kind']
        colors = {int(k): v for k, v in j['bytes_by_color'].items()}
        w = c['dir']

        def mine(color, k):
            return by.get((color, k), 0)

        # arguments: every entry-parameter allocation, all colours but host
        arg = ma['argument_size_in_bytes']
        R.check('argument_size = parameter bytes (device)', w,
                arg == kinds['parameter'] - mine(5, 'parameter') ==
                sum(v for (col, k), v in by.items() if k == 'parameter' and col != 5),
                '%d vs hlodiff %d' % (arg, kinds['parameter']))
        # alias: parameter allocations that are also live out
        R.check('alias_size = parameter allocations also maybe-live-out', w,
                ma['alias_size_in_bytes'] == sum(v for col, v in alias.items() if col != 5),
                '%d vs %d' % (ma['alias_size_in_bytes'], sum(alias.values())))
        # outputs: the live-out allocations, donated parameters included
        R.check('output_size - alias_size = output bytes', w,
                ma['output_size_in_bytes'] - ma['alias_size_in_bytes'] ==
                kinds['output'] - mine(5, 'output'),
                '%d - %d vs hlodiff %d' % (ma['output_size_in_bytes'],
                                            ma['alias_size_in_bytes'], kinds['output']))
        if c['backend'] == 'cpu':
            R.check('temp_size = temp bytes (CPU)', w,
                    ma['temp_size_in_bytes'] == kinds['temp'],
                    '%d vs hlodiff %d' % (ma['temp_size_in_bytes'], kinds['temp']))
            R.check('peak_memory = argument + output - alias + constant bytes (CPU)', w,
                    ma['peak_memory_in_bytes'] == ma['argument_size_in_bytes'] +
                    ma['output_size_in_bytes'] - ma['alias_size_in_bytes'] +
                    kinds['constant'],
                    '%d vs %d' % (ma['peak_memory_in_bytes'],
                                  arg + ma['output_size_in_bytes'] -
                                  ma['alias_size_in_bytes'] + kinds['constant']))
            R.check('generated_code_size = 0 (CPU)', w,
                    ma['generated_code_size_in_bytes'] == 0,
                    str(ma['generated_code_size_in_bytes']))
        # host memory (space 5): its allocations by kind
        host = {'argument': mine(5, 'parameter'), 'output': mine(5, 'output'),
                'alias': alias.get(5, 0), 'temp': mine(5, 'temp')}
        for f, v in host.items():
            R.check('host_%s_size = space-5 %s allocations' % (f, f), w,
                    ma['host_%s_size_in_bytes' % f] == v,
                    '%d vs %d' % (ma['host_%s_size_in_bytes' % f], v))
        R.check('host argument + output - alias + temp = space 5 bytes', w,
                ma['host_argument_size_in_bytes'] + ma['host_output_size_in_bytes'] -
                ma['host_alias_size_in_bytes'] + ma['host_temp_size_in_bytes'] ==
                colors.get(5, 0), 'hlodiff space 5: %d' % colors.get(5, 0))
        # the memory-usage report's spaces are hlodiff's
        reports = [f for f in c['files'] if f.endswith('-memory-usage-report.txt')]
        rep = read_report(os.path.join(d, reports[0])) if reports else None
        R.check('memory-usage report: per-space totals = bytes by memory space', w,
                rep == colors, 'report %s vs hlodiff %s' % (rep, colors))
        values = [f for f in c['files'] if f.endswith('-buffer-assignment-values.txt')]
        total = read_total(os.path.join(d, values[0])) if values else None
        R.check('Total bytes used (values file) = total_bytes = sum of spaces', w,
                total == j['total_bytes'] == sum(colors.values()),
                '%s vs %s' % (total, j['total_bytes']))
        # the peak: XLA's figure is recorded; hlodiff's held peak (when
        # this build has it) holds at least the CPU figure, which counts
        # what is live at the end of the program
        if c['backend'] == 'cpu' and 'peak_bytes_by_color' in j:
            R.check('peak_bytes (held) >= peak_memory (CPU)', w,
                    j['peak_bytes'] >= ma['peak_memory_in_bytes'],
                    '%d vs %d' % (j['peak_bytes'], ma['peak_memory_in_bytes']))
    bad = 0
    for name in sorted(R.rel):
        held, n, fails = R.rel[name]
        print('%s\t%d\t%d\t%s' % (name, held, n, '; '.join(fails)))
        bad += held != n
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
