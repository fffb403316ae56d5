#!/usr/bin/env python3
"""check.py - helpers of tests/t0810-html-chromium.t (Python 3 stdlib only).

    check.py inject PAGE SELFTEST_JS OUT
        Copies the hlodiff page PAGE to OUT with an error recorder at the
        start of <head> and the self-test script at the end of <body>.

    check.py png FILE
        Prints "WIDTH HEIGHT" of a PNG file; exit 1 when it is not a PNG.

    check.py check DOM JSON
        Judges the DOM that Chromium dumped (--dump-dom) after the
        self-test ran, against `hlodiff --json` of the same pair: one
        curve per side and memory space, the peak markers at the program
        positions of the peaks, the movers table sorting and filtering,
        nothing loaded from outside.  Prints one line per check,
        "PASS what" or "FAIL what: why".  Exit status 0 (the verdict is
        in the lines), 2 on usage or unreadable input.
"""
import html
import json
import re
import struct
import sys

RECORDER = ('<script>window.__hdErrors = [];'
            'window.addEventListener("error", function (e) {'
            ' window.__hdErrors.push(String(e.message)); });</script>')


def inject(page, selftest, out):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    with open(selftest, encoding="utf-8") as f:
        script = f.read()
    if "<head>" not in text or "</body>" not in text:
        sys.exit("check.py: %s: no <head> or </body>" % page)
    text = text.replace("<head>", "<head>\n" + RECORDER, 1)
    i = text.rindex("</body>")
    text = text[:i] + "<script>\n" + script + "</script>\n" + text[i:]
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


class Verdict:
    def __init__(self):
        self.lines = []

    def check(self, cond, what, why=""):
        if cond:
            self.lines.append("PASS " + what)
        else:
            self.lines.append("FAIL %s: %s" % (what, why))
        return cond


def selftest_result(dom):
    found = re.findall(r'<pre id="hd-selftest">(.*?)</pre>', dom, re.S)
    if not found:
        return None
    return json.loads(html.unescape(found[-1]))


def expected_spaces(report, side):
    """Memory spaces with bytes on that side, from the figure rows."""
    spaces = set()
    for row in report.get("figures", []):
        m = re.fullmatch(r"space(\d+)_bytes", row.get("name", ""))
        if m and row.get(side):
            spaces.add(m.group(1))
    return spaces


def check_curves(v, r, report):
    curves = r.get("curves", [])
    v.check(all(c["cls"] == "curve" for c in curves) and
            r.get("paths_outside_chart") == 0,
            "every <path> is a curve of the chart",
            "%d other paths" % r.get("paths_outside_chart", -1))
    seen = [(c["side"], c["space"]) for c in curves]
    v.check(len(seen) == len(set(seen)), "at most one curve per side and space",
            "duplicates in %s" % seen)
    for side in ("old", "new"):
        got = sorted(c["space"] for c in curves if c["side"] == side)
        want = sorted(expected_spaces(report, side))
        v.check(got == want, "%s: one curve per memory space %s" % (side, want),
                "curves for %s" % got)
    flat = [c for c in curves if c["width"] <= 0 or c["steps"] < 1]
    v.check(curves and not flat, "every curve is drawn (non-empty box)",
            "empty: %s" % flat)
    chart = r.get("chart") or {}
    v.check(chart.get("width", 0) > 300 and chart.get("height", 0) > 100,
            "chart laid out at a readable size", "size %s" % chart)


def check_markers(v, r, report):
    markers = r.get("markers", [])
    peak = report.get("peak") or {}
    for side in ("old", "new"):
        want = peak.get(side)
        got = [m for m in markers if m["side"] == side]
        if not want:
            v.check(not got, "%s: no peak, no marker" % side, "markers %s" % got)
            continue
        if not v.check(len(got) == 1, "%s: one peak marker" % side,
                       "%d markers" % len(got)):
            continue
        m = got[0]
        v.check(m["time"] == want["time"],
                "%s: marker at the peak's program position %d" % (side, want["time"]),
                "data-time %s" % m["time"])
        v.check(m["stated"] == ("1" if want.get("stated") else "0"),
                "%s: marker says stated=%s" % (side, want.get("stated")),
                "data-stated %s" % m["stated"])
        v.check("expect_x" in m and abs(m["x"] - m["expect_x"]) <= 1.0,
                "%s: marker drawn where the x axis puts t=%d" % (side, want["time"]),
                "x %s, axis says %s" % (m["x"], m.get("expect_x")))


def check_table(v, r, report):
    summary = report.get("summary", {})
    differ = (summary.get("changed", 0) + summary.get("added", 0) +
              summary.get("removed", 0))
    checks = r.get("checks", {})
    if differ == 0:
        v.check(checks.get("table") == "absent", "no value differs: no table", checks)
        return
    for name in ("sort_delta_desc", "sort_delta_asc", "sort_value_asc",
                 "rows_kept", "filter_matches", "filter_count", "filter_none",
                 "filter_all"):
        v.check(checks.get(name) is True, "movers table: " + name,
                "got %s" % checks.get(name))


def check(dom_path, json_path):
    with open(dom_path, encoding="utf-8", errors="replace") as f:
        dom = f.read()
    with open(json_path, encoding="utf-8") as f:
        report = json.load(f)
    v = Verdict()
    r = selftest_result(dom)
    if not v.check(r is not None, "self-test ran and wrote its result",
                   "no <pre id=hd-selftest> in the DOM"):
        print("\n".join(v.lines))
        return
    v.check(not r.get("errors"), "no script error in the page", r.get("errors"))
    v.check(not r.get("resources"), "nothing loaded from outside the page",
            r.get("resources"))
    check_curves(v, r, report)
    check_markers(v, r, report)
    if (report.get("peak") or {}).get("old") or (report.get("peak") or {}).get("new"):
        v.check(r.get("bars", 0) > 0, "peak bars drawn", "%s segments" % r.get("bars"))
    check_table(v, r, report)
    print("\n".join(v.lines))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        print("not a PNG")
        return 1
    print("%d %d" % struct.unpack(">II", head[16:24]))
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "inject":
        inject(argv[2], argv[3], argv[4])
    elif len(argv) == 3 and argv[1] == "png":
        return png_size(argv[2])
    elif len(argv) == 4 and argv[1] == "check":
        check(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except (OSError, ValueError) as e:
        sys.stderr.write("check.py: %s\n" % e)
        sys.exit(2)
