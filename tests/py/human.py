#!/usr/bin/env python3
"""Bytes as XLA's HumanReadableNumBytes prints them (tsl/platform/numbers.cc):
below 1 KiB "NB"; else divided by 1024 in whole steps while at least 1 MiB,
then once more as a real number, "%.1fKiB" for kibibytes, "%.2f" above.

  human.py N...   prints each N's human form, one a line
"""
import sys


def human(b):
    sign = "-" if b < 0 else ""
    b = abs(b)
    if b < 1024:
        return "%s%dB" % (sign, b)
    units = "KMGTPE"
    u = 0
    while b >= 1024 * 1024 and u < 5:
        b //= 1024
        u += 1
    return ("%s%.1f%siB" if u == 0 else "%s%.2f%siB") % (sign, b / 1024.0, units[u])


if __name__ == "__main__":
    for a in sys.argv[1:]:
        print(human(int(a)))
