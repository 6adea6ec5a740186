#!/usr/bin/env python3
"""The middle component's share of a length and of a diagonal, fitted to the cuberot section of
texture_forms_probe (docs/FIDELITY.md "tex.grad on cube maps: the middle term", tex17).

cuberot holds the largest component l of the two-component diagonal (d/dx = d/dy = (a, b),
the sum (2a, 2b) wins: rotm) and of a single gradient (d/dx (a, b), d/dy 0: midm) at three
lengths of an octave (l = 512, 645 and 812 units u of its 9-bit grid) and sweeps the middle m
over 257 values up to l. The rule that reads every line of both (texture_gradlod.Model with
`shares`, what isa/insns/texture_mipmap.cpp implements):
  gradient  l + 11/32 m rounded to nearest on m's own grid of 11 bits (+ 1/4 smallest);
  diagonal  11/16 l rounded to nearest, ties up, on l's 10-bit grid (u/2), plus 121/512 m (m
            the diagonal's middle cut to 9 bits of its own) rounded on m's grid of 12 bits
            and 11/64 of the smallest, those two cut to the first term's grid of 9 bits.
Each row changes one thing from it (or is the model before, tex14) and is scored on every set:
gradlod (2,113 lines), the mipmap probes' 2-d and 3-d gradient lines (3,321), cubegradlod
(10,755; its rot and edge sweeps apart), cubegrad's lod ranges (11,088, when nvcc and
build/bin/warpsim are there) and cuberot's rotm and midm (2,313 each); first, the
families of a gradient's middle share on midm alone. 40 s.

    python3 scripts/fit/texture_cube_middle.py [build/bin/warpsim]
"""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import texture_cube_residuals as res  # noqa: E402
import texture_cubegradlod as cgl  # noqa: E402
import texture_gradlod as gl  # noqa: E402


def nearest_even(x, e, bits):
    """x rounded to nearest, ties to even, on the grid 2^(e - bits)."""
    y = x * 2.0 ** (bits - e)
    f = math.floor(y)
    f += (y - f > 0.5) or (y - f == 0.5 and f % 2 == 1)
    return f * 2.0 ** (e - bits)


class Variant(gl.Model):
    """warpsim's shares (gl.SHARES) with one change: `gk`, `dk`, `tg` the three grids' bits;
    `grad` 'exact' for a gradient's middle share of 1409/4096 unrounded (tex14); `diag`
    'tex14' for tex14's diagonal (the shares added unrounded); `middle` the diagonal's middle
    'cut' (to 9 bits of its own), 'exact' (the sum as it is) or 'grid' (on the largest's 9-bit
    grid, as tex14); `largest` how 11/16 of the largest rounds: 'up' (ties up on its 10-bit
    grid), 'even' (ties to even), 'length' (ties up on the length's 10-bit grid, tex14's);
    `to` the grid the middle's term is cut to: 'first' (11/16 of the largest's exponent),
    'length' (the length's) or 'sum' (the diagonal's)."""

    def __init__(self, table, gk=11, dk=12, tg=9, grad='rounded', diag='rounded', middle='cut',
                 largest='up', to='first'):
        super().__init__(table, 1409 / 4096, 9, 9, (True, True), True, True, (gk, dk, tg))
        self.grad, self.diag, self.middle, self.largest, self.to = grad, diag, middle, largest, to

    def gradient_length(self, v):
        if self.grad == 'exact':
            s, own = self.components(v), sorted((abs(a) for a in v), reverse=True) + [0.0, 0.0]
            return s[0] + 1409 / 4096 * own[1] + 0.25 * s[2]
        return super().gradient_length(v)

    def diagonal(self, v, rounded):
        if self.diag == 'tex14':
            return gl.Model.diagonal(gl.Model(self.table, 1409 / 4096, 9, 9, (True, True), True),
                                     v, rounded)
        s = self.components(v)
        own = sorted((abs(a) for a in v), reverse=True) + [0.0, 0.0]
        middle = {'cut': gl.cut(own[1], 9), 'exact': own[1], 'grid': s[1]}[self.middle]
        if not (s[0] > 0 and math.isfinite(s[0])):
            return 11 / 16 * (s[0] + 11 / 32 * middle + 0.25 * s[2])
        e = gl.exponent(s[0])
        if self.largest == 'length':
            e = gl.exponent(s[0] + 1409 / 4096 * s[1] + 0.25 * s[2])
        first = (nearest_even if self.largest == 'even' else gl.rounded_on_grid)(
            11 / 16 * s[0], e, 10)
        rest = gl.share_of(middle, 121 / 512, self.shares[1]) + 11 / 64 * s[2]
        to = {'first': first, 'length': s[0] + 11 / 32 * middle + 0.25 * s[2],
              'sum': first + rest}[self.to]
        return first + gl.on_grid(rest, gl.exponent(to), self.shares[2])


def rows(table):
    tex14 = gl.Model(table, 1409 / 4096, 9, 9, (True, True), True, True)
    return [
        ('the model before (tex14: share 1409/4096 unrounded, diagonal 11/16 l rounded on the '
         'length\'s grid + the shares)', tex14),
        ('tex17 (warpsim): the shares below', gl.Model(table, 1409 / 4096, 9, 9, (True, True),
                                                       True, True, gl.SHARES)),
        ('  a gradient\'s share alone (the diagonal as tex14)', Variant(table, diag='tex14')),
        ('  the diagonal alone (a gradient\'s share 1409/4096 unrounded)',
         Variant(table, grad='exact')),
        ('  a gradient\'s share 11/32 rounded at 10 bits of the middle', Variant(table, gk=10)),
        ('  ... at 12 bits', Variant(table, gk=12)),
        ('  a diagonal\'s share 121/512 rounded at 11 bits of the middle', Variant(table, dk=11)),
        ('  ... at 13 bits', Variant(table, dk=13)),
        ('  the diagonal\'s middle term cut to 8 bits of 11/16 l', Variant(table, tg=8)),
        ('  ... to 10 bits', Variant(table, tg=10)),
        ('  ... to 9 bits of the length', Variant(table, to='length')),
        ('  ... to 9 bits of the diagonal', Variant(table, to='sum')),
        ('  11/16 l rounded ties to even', Variant(table, largest='even')),
        ('  11/16 l rounded on the length\'s 10-bit grid (as before)',
         Variant(table, largest='length')),
        ('  the diagonal\'s middle as summed (not cut to 9 bits)', Variant(table, middle='exact')),
        ('  the diagonal\'s middle on the largest\'s 9-bit grid (as before)',
         Variant(table, middle='grid')),
    ]


def midm_rows(lines, table):
    """[(l, m, lo, hi)] of the midm lines: the gradient's largest and middle component (cut to 9
    bits of their own) in units u of the largest's 9-bit grid, and the lengths [lo, hi) (in u)
    that read the recorded lod through the chip's table."""
    out = []
    for q in lines:
        if q['sweep'] != 'midm' or not 0 < q['lod'] < 256 * 8:
            continue
        (x, _), _ = cgl.Placement('rcp').gradients(q, 256)
        a, b = gl.cut(abs(x[0]), 9), gl.cut(abs(x[1]), 9)
        u = 2.0 ** (gl.exponent(a) - 9)
        e, v = divmod(q['lod'], 256)
        idx = [i for i in range(256) if table[i] == v]
        out.append((a / u, b / u, 2.0 ** e * (1 + min(idx) / 256) / u,
                    2.0 ** e * (1 + (max(idx) + 1) / 256) / u))
    return out


def midm_families(rows):
    """(family, the fewest midm lines any of its members misses, that member): the middle's
    share P(m) of a length l + P(m), m in u."""
    def own(m, k):  # the grid of k fractional bits of m's own exponent
        return gl.exponent(m) - k

    def shifted(m, k):  # 1409/4096 as m/4 + m/16 + m/32 + m/4096, each cut on m's k-bit grid
        return sum(gl.on_grid(m / 2 ** t, own(m, k), 0) for t in (2, 4, 5, 12))

    fams = collections.defaultdict(list)
    fams['a constant share'] = [(f'{c}', lambda m, c=c: c * m)
                                for c in (1409 / 4096, 11 / 32, 87 / 256)]
    for k in range(8, 16):
        fams['11/32 rounded on the middle\'s grid'].append(
            (f'{k} bits', lambda m, k=k: gl.rounded_on_grid(11 / 32 * m, own(m, k), 0)))
        fams['11/32 rounded on its own grid'].append(
            (f'{k} bits', lambda m, k=k: gl.rounded_on_grid(11 / 32 * m, own(11 / 32 * m, k), 0)))
        fams['1409/4096 rounded on the middle\'s grid'].append(
            (f'{k} bits', lambda m, k=k: gl.rounded_on_grid(1409 / 4096 * m, own(m, k), 0)))
        fams['1409/4096 cut on the middle\'s grid'].append(
            (f'{k} bits', lambda m, k=k: gl.on_grid(1409 / 4096 * m, own(m, k), 0)))
        fams['1409/4096 as shifted copies, each cut on the middle\'s grid'].append(
            (f'{k} bits', lambda m, k=k: shifted(m, k)))
    for k in range(0, 12):
        fams['1409/4096 cut on the largest\'s grid'].append(
            (f'2^-{k} u', lambda m, k=k: gl.on_grid(1409 / 4096 * m, 0, k)))
        fams['11/32 rounded on the largest\'s grid'].append(
            (f'2^-{k} u', lambda m, k=k: gl.rounded_on_grid(11 / 32 * m, 0, k)))
    out = []
    for fam, members in fams.items():
        best = min((sum(not lo <= l + (p(m) if m > 0 else 0) < hi for l, m, lo, hi in rows), name)
                   for name, p in members)
        out.append((fam, *best))
    return out


def main():
    warpsim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(res.ROOT, 'build/bin/warpsim')
    sets = res.Sets(warpsim)
    rot = cgl.section_lines(os.path.join(res.ROOT, 'tests/recorded/texture/'
                                         'texture_forms.chip.txt.xz'), 'cuberot')
    rows_m = midm_rows(rot, sets.table)
    print(f'a gradient\'s middle share, per family the fewest of midm\'s {len(rows_m)} lines '
          'missed')
    for fam, miss, name in midm_families(rows_m):
        print(f'{miss:5d}  {fam} ({name})')
    print('gradl    2d  cube  rot edge  cubeg  rotm  midm  candidate')
    for name, model in rows(sets.table):
        by = collections.Counter()
        for q in rot:
            by[q['sweep']] += cgl.model_lod(q, cgl.Placement('rcp'), model) != q['lod']
        print(f'{sets.row(model, cgl.Placement("rcp"))} {by["rotm"]:5d} {by["midm"]:5d}  {name}',
              flush=True)


if __name__ == '__main__':
    main()
