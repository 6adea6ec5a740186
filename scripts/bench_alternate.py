#!/usr/bin/env python3
"""Compares two warpsim binaries' functional speed on a shared, noisy machine: kernel by
kernel, it runs `OLD bench K --repeat 3 --json` then `NEW bench K ...`, for ROUNDS rounds, keeps
each binary's best 1-thread rate per kernel, and prints a Markdown table (before, after, ratio),
the geomean over the non-micro cards and the slowest kernel of each, and both binaries' best
slowdown against the plain C++ loop (vector_add, saxpy, sgemm_*; 1 and 2 host threads).
Progress goes to stderr.

    scripts/bench_alternate.py /tmp/warpsim-old build/bin/warpsim 2
"""
import json
import math
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    listing = subprocess.run([new, "suite", "--list"], capture_output=True, text=True).stdout
    names = [l.split()[0] for l in listing.splitlines() if l.strip() and l.split()[1] != "micro"]
    best = {old: {}, new: {}}
    native = {old: {}, new: {}}
    for _ in range(rounds):
        for k in names:
            for b in (old, new):
                out = subprocess.run([b, "bench", k, "--repeat", "3", "--json"],
                                     capture_output=True, text=True).stdout
                for e in json.loads(out)["kernels"]:
                    if e["kernel"] != k:  # the pattern is a substring: scan_blelloch_padded too
                        continue
                    best[b][k] = max(best[b].get(k, 0), e["rate_1_thread"])
                    if "native_seconds" in e:
                        for tag, secs in (("1", e["seconds_1_thread"]), ("2", e["seconds_2_threads"])):
                            slow = secs / e["native_seconds"]
                            native[b][k + "/" + tag] = min(native[b].get(k + "/" + tag, 1e30), slow)
            print(k, "%.3g %.3g" % (best[old][k], best[new][k]), file=sys.stderr, flush=True)
    print("| kernel | before | after | ratio |")
    print("|---|---:|---:|---:|")
    logs = {old: 0.0, new: 0.0}
    for k in names:
        for b in (old, new):
            logs[b] += math.log(best[b][k])
        print("| %s | %.3g | %.3g | %.2fx |" % (k, best[old][k], best[new][k],
                                               best[new][k] / best[old][k]))
    g = {b: math.exp(logs[b] / len(names)) for b in (old, new)}
    print("| **geomean (%d kernels)** | %.3g | %.3g | %.2fx |" % (len(names), g[old], g[new],
                                                                g[new] / g[old]))
    for b, tag in ((old, "before"), (new, "after")):
        k = min(names, key=lambda n: best[b][n])
        print("\nslowest %s: %s %.3g" % (tag, k, best[b][k]))
        print("slowdown against the C++ loop %s (kernel/threads): %s" % (
            tag, ", ".join("%s %.1fx" % (n, v) for n, v in sorted(native[b].items()))))


if __name__ == "__main__":
    main()
