#!/usr/bin/env python3
"""Reduces a PTX program line by line while a property of its compilation still holds.

  reduce.py FILE.ptx crash            ptxas -arch=sm_90 dies of a signal
  reduce.py FILE.ptx sass REGEX       cuobjdump -sass of ptxas's cubin matches REGEX

Prints the reduced program. Declarations, the entry's braces and `ret;` are kept; every other
line is dropped when the property survives without it (repeated until nothing more goes).
"""
import re
import subprocess
import sys
import tempfile


def holds(lines, mode, pattern):
    with tempfile.TemporaryDirectory() as d:
        src, cubin = d + "/t.ptx", d + "/t.cubin"
        open(src, "w").write("\n".join(lines) + "\n")
        r = subprocess.run(["ptxas", "-arch=sm_90", src, "-o", cubin], capture_output=True)
        if mode == "crash":
            return r.returncode < 0 or r.returncode > 128
        if r.returncode != 0:
            return False
        sass = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True).stdout
        return re.search(pattern, sass) is not None


def main():
    path, mode = sys.argv[1], sys.argv[2]
    pattern = sys.argv[3] if mode == "sass" else None
    lines = open(path).read().split("\n")
    assert holds(lines, mode, pattern), "the property does not hold for the input"
    keep = (".version", ".target", ".address", ".visible", "{", "}", ".reg", ".shared", "ret;")
    changed = True
    while changed:
        changed = False
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            if not line or line.startswith(keep) or line.startswith("//"):
                i += 1
                continue
            trial = lines[:i] + lines[i + 1:]
            if holds(trial, mode, pattern):
                lines, changed = trial, True
            else:
                i += 1
    print("\n".join(lines))


if __name__ == "__main__":
    main()
