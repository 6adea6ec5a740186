#!/usr/bin/env python3
"""The cube diagonal's middle term at fixed lengths: the cuberot section of texture_forms_probe
(docs/FIDELITY.md "tex.grad on cube maps: a recording that would pin it"), once recorded.

tex15 left rot's middle term B(m) (the two-component diagonal d/dx = d/dy = (a, a / 2) reads
11/16 of its largest l plus B of its middle m) non-decreasing but neither linear nor on a grid;
rot varies l and m together. cuberot holds l: on GL256 (cubegradlod's 256-texel-face cube whose
level k holds k), from +z's centre, a = 2^(i / 3) 4^j texels (9 lengths), b = a k / 256:
  rotm  d/dx = d/dy = (a, b): the diagonal (2a, 2b) wins;
  midm  d/dx (a, b), d/dy 0: a single gradient's middle share at the same points.

Per sweep and length a, prints the lines, those warpsim's model (texture_cubegradlod.py's
(warpsim) row) misses, and what the recorded lods allow:
  rotm  with 11/16 l unrounded (tex15) or rounded as warpsim rounds it: the fewest lines any
        non-decreasing B(m) misses, the fewest a linear c m + C misses, and (-v) each run of
        equal lods: its m (in u, the largest's 9-bit grid) and the B values that read it;
  midm  the shares (length = largest + share m) each line allows, intersected: the interval
        every line of that length reads, or the fewest lines any one share misses.

    python3 scripts/fit/texture_cuberot.py [CHIP_FILE [SIM_FILE]] [-v]

CHIP_FILE: the device script's h200.txt, or (the default) the recording
tests/recorded/texture/texture_forms.chip.txt.xz once the section is appended to it; SIM_FILE:
warpsim exec's output of the same section (the device script's sim.txt), checked line for line
against the (warpsim) row.
"""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import texture_cube_log2 as cl2  # noqa: E402
import texture_cubegradlod as cgl  # noqa: E402
import texture_gradlod as gl  # noqa: E402

SIZE, LEVELS = 256, 9


def length_of(q):
    """a in texels (the line's d/dx x component over the texel 2 / 256)."""
    return q['dx'][0] * SIZE / 2


def reading(table, lod):
    """The footprint values [lo, hi) that read lod (1/256) through the table."""
    e, v = divmod(lod, 256)
    idx = [i for i in range(256) if table[i] == v]
    if not idx:
        return None
    return 2.0 ** e * (1 + min(idx) / 256), 2.0 ** e * (1 + (max(idx) + 1) / 256)


def rot_rows(lines, table, model):
    """[(l, m, lo, hi)] in u of the rotm lines inside the levels (as texture_cube_log2's rot_rows,
    on GL256)."""
    out = []
    for q in lines:
        if not 0 < q['lod'] < 256 * (LEVELS - 1):
            continue
        (x, y), _ = cgl.Placement('rcp').gradients(q, SIZE)
        s = model.components([gl.cut(a, 9) + gl.cut(b, 9) for a, b in zip(x, y)])
        u = 2.0 ** (math.frexp(s[0])[1] - 1 - 9)
        r = reading(table, q['lod'])
        if r:
            out.append((s[0] / u, s[1] / u, r[0] / u, r[1] / u))
    return out


def mid_shares(lines, table, model):
    """[(lo, hi)] the middle shares each midm line with a middle component allows."""
    out = []
    for q in lines:
        if not 0 < q['lod'] < 256 * (LEVELS - 1):
            continue
        (x, _), _ = cgl.Placement('rcp').gradients(q, SIZE)
        s = model.components([gl.cut(a, 9) for a in x])
        m = sorted((abs(gl.cut(a, 9)) for a in x), reverse=True)[1]
        r = reading(table, q['lod'])
        if r and m > 0:
            out.append(((r[0] - s[0]) / m, (r[1] - s[0]) / m))
    return out


def fewest_missed(intervals):
    """The fewest intervals [lo, hi) that any one value lies outside."""
    ev = sorted([(lo, 0) for lo, _ in intervals] + [(hi, -1) for _, hi in intervals])
    cur = most = 0
    for _, kind in ev:
        cur += 1 if kind == 0 else -1
        most = max(most, cur)
    return len(intervals) - most


def runs(rows, largest):
    """Runs of equal lod along m: (m first, m last, B low, B high) with B the values the run's
    lines all allow (11/16 l or its rounding taken off)."""
    out = []
    for l, m, lo, hi in sorted(rows, key=lambda r: r[1]):
        b = (lo - largest(l, m), hi - largest(l, m))
        if out and out[-1][4] == (lo, hi):
            f, _, a0, a1, key = out[-1]
            out[-1] = (f, m, max(a0, b[0]), min(a1, b[1]), key)
        else:
            out.append((m, m, b[0], b[1], (lo, hi)))
    return [r[:4] for r in out]


def main():
    args = [a for a in sys.argv[1:] if a != '-v']
    verbose = '-v' in sys.argv[1:]
    if not args:
        args = [os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                             'tests/recorded/texture/texture_forms.chip.txt.xz')]
    lines = cgl.section_lines(args[0], 'cuberot')
    if not lines:
        sys.exit(f'no cuberot lines in {args[0]}')
    table = cgl.chip_table()
    warpsim = (cgl.Placement('rcp', grad='parts'),
               gl.Model(table, 1409 / 4096, 9, 9, (True, True), True, True, gl.SHARES))
    if len(args) > 1:
        sim = cgl.section_lines(args[1], 'cuberot')
        assert [(q['dir'], q['dx'], q['dy']) for q in sim] == \
            [(q['dir'], q['dx'], q['dy']) for q in lines]
        bad = sum(cgl.model_lod(q, *warpsim) != s['lod'] for q, s in zip(lines, sim))
        print(f'(warpsim) model against the simulator\'s output: {bad} of {len(sim)} differ')
        differ = sum(q['lod'] != s['lod'] for q, s in zip(lines, sim))
        print(f'the simulator against CHIP_FILE: {differ} of {len(sim)} lines differ')
    groups = collections.defaultdict(list)
    for q in lines:
        groups[(q['sweep'], length_of(q))].append(q)
    unrounded = lambda l, m: 11 / 16 * l  # noqa: E731
    print('sweep  a (texels)  lines  warpsim misses  | rotm: monotone B misses (unrounded, '
          'rounded), linear B misses | midm: shares every line allows, or the fewest missed')
    for (sweep, a), qs in sorted(groups.items()):
        miss = sum(cgl.model_lod(q, *warpsim) != q['lod'] for q in qs)
        row = f'{sweep:5} {a:11.6f} {len(qs):6d} {miss:15d}  |'
        if sweep == 'rotm':
            rows = rot_rows(qs, table, warpsim[1])
            row += (f' {cl2.monotone_middle(rows, unrounded)} '
                    f'{cl2.monotone_middle(rows, cl2.warpsim_largest)} '
                    f'{cl2.linear_middle(rows, unrounded)} of {len(rows)}')
        else:
            sh = mid_shares(qs, table, warpsim[1])
            lo, hi = max(s[0] for s in sh), min(s[1] for s in sh)
            row += (f' [{lo:.5f}, {hi:.5f}) of {len(sh)}' if lo < hi else
                    f' none: {fewest_missed(sh)} of {len(sh)} missed at best')
        print(row)
        if verbose and sweep == 'rotm':
            for f, t, b0, b1 in runs(rot_rows(qs, table, warpsim[1]), unrounded):
                print(f'    m {f:9.3f} .. {t:9.3f}  B in [{b0:9.4f}, {b1:9.4f}) u')


if __name__ == '__main__':
    main()
