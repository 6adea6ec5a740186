#!/usr/bin/env python3
"""Prints Nsight Compute's source page (scripts/device_source_pages.sh's NAME.sass.csv) as a table:
one row per SASS instruction with its stall samples by reason, the largest reasons as columns,
then the totals per reason and per opcode.

    python3 scripts/fit/source_page.py NAME.sass.csv [--all]   (--all: rows without samples too)
"""
import csv
import sys
from collections import Counter


def main(path, show_all):
    rows = list(csv.reader(open(path)))
    header = next(r for r in rows if "Address" in r)
    start = rows.index(header) + 1
    col = {h: i for i, h in enumerate(header)}
    reasons = [h for h in header if h.startswith("stall_") and "(Not Issued)" not in h]
    data = [r for r in rows[start:] if len(r) == len(header)]
    totals = Counter()
    per_op = Counter()
    for r in data:
        for h in reasons:
            v = int(float(r[col[h]] or 0))
            totals[h] += v
            words = r[col["Source"]].split()
            op = words[1] if words and words[0].startswith("@") and len(words) > 1 else (
                words[0] if words else "?")
            per_op[op.split(".")[0]] += v
    top = [h for h, _ in totals.most_common(8) if totals[h]]
    samples = col.get("Warp Stall Sampling (All Samples)")
    print("%-8s %-56s %7s" % ("address", "instruction", "samples") +
          "".join("%9s" % h[6:15] for h in top))
    for r in data:
        n = int(float(r[samples] or 0)) if samples is not None else 0
        if not n and not show_all:
            continue
        print("%-8s %-56s %7d" % (r[col["Address"]][-6:], r[col["Source"]][:56], n) +
              "".join("%9s" % r[col[h]] for h in top))
    print("\nper reason: " + ", ".join("%s %d" % (h[6:], v) for h, v in totals.most_common() if v))
    print("per opcode: " + ", ".join("%s %d" % (o, v) for o, v in per_op.most_common(10) if v))


if __name__ == "__main__":
    args = sys.argv[1:]
    main([a for a in args if a != "--all"][0], "--all" in args)
