#!/usr/bin/env python3
"""Compares two warpsim binaries' functional speed on a shared, noisy machine: kernel by
kernel, it runs `OLD bench K --repeat 3 --json` then `NEW bench K ...`, for ROUNDS rounds, keeps
each binary's best 1-thread and 2-thread rate per kernel, and prints a Markdown table (before,
after, ratio), the geomean over the non-micro cards and the slowest kernel of each, each
binary's 1 -> 2 thread speed-up (the geomean of best 2-thread over best 1-thread rates), and
both binaries' best slowdown against the plain C++ loop (vector_add, saxpy, sgemm_*; 1 and 2
host threads). Progress goes to stderr.

The kernels are those both binaries list (an old binary may know fewer cards); a kernel whose
thread-instruction count differs between the two (a changed card) is named on stderr and in the
table, since its rates are then not the same work.

    scripts/bench_alternate.py /tmp/warpsim-old build/bin/warpsim 2
    scripts/bench_alternate.py OLD NEW 3 --size 1048576 --kernels vector_add,saxpy
"""
import argparse
import json
import math
import subprocess
import sys


def cards(binary):
    """The non-micro cards a binary lists, in its order."""
    listing = subprocess.run([binary, "suite", "--list"], capture_output=True, text=True).stdout
    return [l.split()[0] for l in listing.splitlines() if l.strip() and l.split()[1] != "micro"]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("rounds", nargs="?", type=int, default=2)
    ap.add_argument("--size", type=int, default=0, help="problem size (0 = each card's default)")
    ap.add_argument("--kernels", default="", help="comma-separated cards (default: all both know)")
    args = ap.parse_args()
    old, new = args.old, args.new
    known_old = set(cards(old))
    names = [k for k in cards(new) if k in known_old]
    if args.kernels:
        wanted = args.kernels.split(",")
        names = [k for k in names if k in wanted]
    extra = ["--size", str(args.size)] if args.size else []
    best = {old: {}, new: {}}
    best2 = {old: {}, new: {}}
    insns = {old: {}, new: {}}
    native = {old: {}, new: {}}
    for _ in range(args.rounds):
        for k in names:
            for b in (old, new):
                out = subprocess.run([b, "bench", k, "--repeat", "3", "--json"] + extra,
                                     capture_output=True, text=True).stdout
                for e in json.loads(out)["kernels"]:
                    if e["kernel"] != k:  # the pattern is a substring: scan_blelloch_padded too
                        continue
                    best[b][k] = max(best[b].get(k, 0), e["rate_1_thread"])
                    best2[b][k] = max(best2[b].get(k, 0), e["rate_2_threads"])
                    insns[b][k] = e["thread_instructions"]
                    if "native_seconds" in e:
                        for tag, secs in (("1", e["seconds_1_thread"]), ("2", e["seconds_2_threads"])):
                            slow = secs / e["native_seconds"]
                            native[b][k + "/" + tag] = min(native[b].get(k + "/" + tag, 1e30), slow)
            print(k, "%.3g %.3g" % (best[old][k], best[new][k]), file=sys.stderr, flush=True)
    changed = [k for k in names if insns[old][k] != insns[new][k]]
    for k in changed:
        print("changed card: %s runs %d thread-instructions before, %d after" %
              (k, insns[old][k], insns[new][k]), file=sys.stderr)
    print("| kernel | before | after | ratio | before, 2 threads | after, 2 threads |")
    print("|---|---:|---:|---:|---:|---:|")
    for k in names:
        mark = " (changed card)" if k in changed else ""
        print("| %s%s | %.3g | %.3g | %.2fx | %.3g | %.3g |" % (
            k, mark, best[old][k], best[new][k], best[new][k] / best[old][k], best2[old][k],
            best2[new][k]))
    g = {b: geomean([best[b][k] for k in names]) for b in (old, new)}
    g2 = {b: geomean([best2[b][k] for k in names]) for b in (old, new)}
    print("| **geomean (%d kernels)** | %.3g | %.3g | %.2fx | %.3g | %.3g |" % (
        len(names), g[old], g[new], g[new] / g[old], g2[old], g2[new]))
    for b, tag in ((old, "before"), (new, "after")):
        k = min(names, key=lambda n: best[b][n])
        scaling = geomean([best2[b][n] / best[b][n] for n in names])
        print("\nslowest %s: %s %.3g" % (tag, k, best[b][k]))
        print("1 -> 2 threads %s: %.2fx (geomean of best 2-thread over best 1-thread rate)" % (
            tag, scaling))
        print("slowdown against the C++ loop %s (kernel/threads): %s" % (
            tag, ", ".join("%s %.1fx" % (n, v) for n, v in sorted(native[b].items()))))


if __name__ == "__main__":
    main()
