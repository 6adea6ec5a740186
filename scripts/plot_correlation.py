#!/usr/bin/env python3
"""Draws `warpsim correlate --plot FILE.png`: predicted against measured cycles per problem
(log-log, the y = x line and +-20% bands) and the design-change pairs (the model's speed-up
against the chip's). Called by warpsim with the two CSV files it writes."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(problems_csv, pairs_csv, png):
    problems = list(csv.DictReader(open(problems_csv)))
    pairs = list(csv.DictReader(open(pairs_csv)))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 6))
    xs = [float(p["measured"]) for p in problems]
    ys = [float(p["predicted"]) for p in problems]
    ax.scatter(xs, ys, s=14)
    lo, hi = min(xs + ys) * 0.8, max(xs + ys) * 1.25
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    ax.plot([lo, hi], [lo * 1.2, hi * 1.2], "k:", lw=0.6)
    ax.plot([lo, hi], [lo / 1.2, hi / 1.2], "k:", lw=0.6)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("measured cycles (H200, ncu gpc__cycles_elapsed.max)")
    ax.set_ylabel("predicted cycles (warpsim --timing)")
    ax.set_title("cycles per problem")
    if pairs:
        px = [float(p["measured"]) for p in pairs]
        py = [float(p["predicted"]) for p in pairs]
        bx.scatter(px, py, s=14, c="tab:orange")
        for p, x, y in zip(pairs, px, py):
            bx.annotate(f'{p["b"]}/{p["a"]}', (x, y), fontsize=6)
        lo, hi = min(px + py) * 0.8, max(px + py) * 1.25
        bx.plot([lo, hi], [lo, hi], "k-", lw=0.8)
        bx.axhline(1, color="grey", lw=0.5)
        bx.axvline(1, color="grey", lw=0.5)
        bx.set_xscale("log")
        bx.set_yscale("log")
    bx.set_xlabel("chip's speed-up of b over a")
    bx.set_ylabel("model's speed-up")
    bx.set_title("design-change pairs")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    main(*sys.argv[1:4])
