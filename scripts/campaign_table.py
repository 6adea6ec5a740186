#!/usr/bin/env python3
"""Per-opcode figures of an ISA campaign, as docs/FIDELITY.md shows them.

  build/bin/warpsim isa-check --count 10000 --ptx-dir /tmp/progs   (the campaign's programs)
  python3 scripts/campaign_table.py /tmp/progs tests/recorded/campaign/isa-record.log.gz

For every opcode (the first word of an instruction: add, cvt, setp, shfl, ...): how many of the
programs that ran on both backends use it, and how many first divergences (the instruction where
a differing program's GPU and simulator runs part) it has, by category.
"""
import collections
import gzip
import os
import re
import sys


def body_opcodes(ptx):
    lines = [l.strip() for l in ptx.split("\n")]
    start = next(i for i, l in enumerate(lines) if l.startswith("mul.wide.u32 %a2,%t0,")) + 1
    # The frame's prologue: pointers, the shared slot, the input loads (predicates via %t0).
    prologue = re.compile(r"(add\.s64 %a\d,|mov\.u32 %sb,sm;|shl\.b32 %t0,%tx,3;|"
                          r"add\.s32 %sa,%sb,%t0;|ld\.global\.\w+ %\w+,\[%a0(\+\d+)?\];|"
                          r"setp\.ne\.b32 %p\d+,%t0,0;)")
    while start < len(lines) and prologue.match(lines[start]):
        start += 1
    ops = set()
    for l in lines[start:]:
        if l.startswith("st.global.") and "[%a1" in l:
            break
        if not l or l.endswith(":") or l.startswith(("//", ".")):
            continue
        if l.startswith("@"):
            l = l.split(" ", 1)[1]
        op = l.split(" ", 1)[0].split(".")[0]
        if op not in ("bra",):
            ops.add(op)
    return ops


def main():
    progs, log = sys.argv[1], sys.argv[2]
    text = (gzip.open if log.endswith(".gz") else open)(log, "rt").read()
    not_run = set(int(s) for s in re.findall(r"prog-(\d+)\.ptx: (?:ptxas crashed|faulted on the GPU|the GPU refused)", text))
    using = collections.Counter()
    for name in os.listdir(progs):
        m = re.match(r"prog-(\d+)\.ptx$", name)
        if not m or int(m.group(1)) in not_run:
            continue
        for op in body_opcodes(open(os.path.join(progs, name)).read()):
            using[op] += 1
    div = collections.defaultdict(collections.Counter)
    lines = text.split("\n")
    for i, l in enumerate(lines):
        m = re.match(r"  first divergence, thread \d+ of block \d+: `(?:@!?%p\d+ )?([a-z0-9_]+)", l)
        if not m or i + 1 >= len(lines):
            continue
        verdict = lines[i + 1].strip()
        cat = verdict[len("explained: "):] if verdict.startswith("explained: ") else "UNEXPLAINED"
        div[m.group(1)][cat] += 1
    not_reproduced = text.count("explained: not-reproduced")
    cats = ["nan-bits", "guard-ignored", "immediate-field", "context-dependent",
            "byte-store-of-half", "branch-ignored", "UNEXPLAINED"]
    print("| opcode | programs using it | first divergences | " + " | ".join(cats) + " |")
    print("|---|---:|---:|" + "---:|" * len(cats))
    for op in sorted(using, key=lambda o: (-sum(div[o].values()), o)):
        d = div[op]
        print(f"| {op} | {using[op]:,} | {sum(d.values())} | " +
              " | ".join(str(d[c]) if d[c] else "" for c in cats) + " |")
    print(f"\n({not_reproduced} further differences were not reproduced by the traced variant.)")


if __name__ == "__main__":
    main()
