#!/usr/bin/env python3
"""How many cycles ptxas puts between an instruction that writes a predicate and the first one
that reads it, from the stall counts in the SASS's control bits (bits 41-44 of each
instruction's second 64-bit word), split by how the predicate is read: as a guard (`@P0 BRA`,
`@!P0 LDS`) or as an operand (SEL, PLOP3, ISETP's combining predicate). This is where the
timing model's `latency.predicate_guard` comes from (docs/TIMING_MODEL.md).

usage: scripts/fit/sass_predicate_latency.py [tests/recorded/sass/h200_suite_sm90.tar.xz]
"""
import collections
import re
import sys
import tarfile

PRODUCERS = ('ISETP', 'FSETP', 'DSETP', 'PLOP3', 'HSETP2', 'LOP3')
COMPARES = ('ISETP', 'FSETP', 'DSETP', 'PLOP3')


def instructions(text):
    """(text, stall) per SASS instruction; ('FUNC', 0) where a function starts."""
    lines = text.split('\n')
    out = []
    for i, line in enumerate(lines):
        if 'Function :' in line:
            out.append(('FUNC', 0))
            continue
        m = re.search(r'/\*([0-9a-f]{4})\*/\s+(.*?);\s*/\* (0x[0-9a-f]+) \*/', line)
        if not m or i + 1 >= len(lines):
            continue
        hi = re.search(r'/\* (0x[0-9a-f]+) \*/', lines[i + 1])
        if hi:
            out.append((m.group(2).strip(), (int(hi.group(1), 16) >> 41) & 0xF))
    return out


def split(inst):
    """(guard predicate or None, opcode, operand text)."""
    parts = inst.split(None, 2 if inst.startswith('@') else 1)
    if inst.startswith('@'):
        guard = re.match(r'@!?(\w+)', parts[0]).group(1)
        return guard, parts[1], parts[2] if len(parts) > 2 else ''
    return None, parts[0], parts[1] if len(parts) > 1 else ''


def pairs(insts, counts):
    for i, (text, stall) in enumerate(insts):
        if text == 'FUNC':
            continue
        _, op, rest = split(text)
        base = op.split('.')[0]
        if base not in PRODUCERS:
            continue
        dests = [d.strip() for d in rest.split(',')[:2]]
        preds = [d for d in dests if re.fullmatch(r'P\d', d)]
        if not preds:
            continue
        p, cycles = preds[0], stall
        for text2, stall2 in insts[i + 1:i + 40]:
            if text2 == 'FUNC':
                break
            guard, op2, rest2 = split(text2)
            sources = rest2.split(',')[2:] if op2.split('.')[0] in COMPARES else rest2.split(',')[1:]
            read_as_operand = re.search(r'(?<!\w)!?' + p + r'(?!\w)', ','.join(sources))
            if guard == p or read_as_operand:
                how = 'guard' if guard == p else 'operand'
                counts[(base, how, op2.split('.')[0])][cycles] += 1
                break
            if rest2.split(',')[0].strip() == p:
                break  # overwritten before it is read
            cycles += stall2


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else 'tests/recorded/sass/h200_suite_sm90.tar.xz'
    counts = collections.defaultdict(collections.Counter)
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            if member.name.endswith('.sass'):
                pairs(instructions(tar.extractfile(member).read().decode()), counts)
    for how in ('guard', 'operand'):
        rows = {k: v for k, v in counts.items() if k[1] == how and k[0] in ('ISETP', 'PLOP3', 'LOP3')}
        n = sum(sum(v.values()) for v in rows.values())
        low = min(min(v) for v in rows.values())
        print(f'read as {how}: {n} pairs, fewest cycles {low}')
    for key, v in sorted(counts.items(), key=lambda kv: -sum(kv[1].values()))[:12]:
        print(' ', ' -> '.join((key[0], key[2])), key[1], sum(v.values()), 'pairs;',
              'cycles:count', dict(sorted(v.items())[:6]))


if __name__ == '__main__':
    main()
