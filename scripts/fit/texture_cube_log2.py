#!/usr/bin/env python3
"""A log2 finer than the 8-bit table, fitted (docs/FIDELITY.md "tex.grad on cube maps: a finer
log2", tex15): tex14 found that any non-decreasing log2 of warpsim's footprint misses at least
53 of the gradlod and cubegradlod lines (39 with the textbook middle share 11/32), while the log2
sweeps pin each 8-bit table entry only at offsets 0, 1/8, 1/2 and 7/8 of it. So: the table at
`b` bits (the footprint's significand cut to b fractional bits, one entry in 1/256 for each) is
a free parameter; each line whose lod lies inside the levels asks one value of the entry its
footprint falls in; a dynamic program finds the non-decreasing table that the most lines agree
with (gradlod's and the 2-d lines weighed 1000: all soft, the same tables come), then the fitted
table is scored on every set (gradlod, the 2-d lines, cubegradlod by sweep, cubegrad) next to
simple rules (the 8-bit entry plus linear interpolation of the bits below; a uniform fraction of
an entry added before the 8-bit cut). Last, the rot sweep's diagonals (2a, a) alone: the fewest
lines that 11/16 of the largest (rounded as warpsim does, or not) plus any non-decreasing
function of the middle, a linear one, or one on a grid of u .. 4u, reads wrong. 50 s.

    python3 scripts/fit/texture_cube_log2.py [build/bin/warpsim]
"""
import collections
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import texture_cube_residuals as res  # noqa: E402
import texture_cubegradlod as cgl  # noqa: E402
import texture_gradlod as gl  # noqa: E402

SHARES = {'1409/4096': 1409 / 4096, '11/32': 11 / 32}


class TableModel(gl.Model):
    """warpsim's footprint (share `mid`) read by a log2 `lookup(significand in [1, 2))` in
    1/256 instead of the 8-bit table."""

    def __init__(self, table, mid, lookup):
        super().__init__(table, mid, 9, 9, (True, True), True, True)
        self.lookup = lookup

    def log2(self, rho):
        if not (rho > 0 and math.isfinite(rho)):
            return super().log2(rho)
        m, e = math.frexp(rho)
        return 256 * (e - 1) + self.lookup(2 * m)


def constraints(sets, model):
    """[(set, significand in [1, 2), wanted entry value in 1/256)] of the lines whose lod lies
    inside the levels (clamped lines say nothing exact about the table)."""
    out = []

    def add(name, rho, lod):
        if rho > 0 and math.isfinite(rho):
            m, e = math.frexp(rho)
            out.append((name, 2 * m, lod - 256 * (e - 1)))

    for _, x, y, lod in sets.gradlod:
        if 0 < lod < 2048:
            add('gradlod', model.rho(x, y), lod)
    place = cgl.Placement('rcp')
    for q in sets.cgl:
        size, levels = cgl.SIZES[q['obj']]
        g = place.gradients(q, size)
        if g is not None and 0 < q['lod'] < 256 * (levels - 1):
            add('cgl ' + q['sweep'], model.rho(*g[0], not g[1]), q['lod'])
    for sizes, levels, dx, dy, want in sets.twod:
        x = [a * s for a, s in zip(dx, sizes)]
        y = [a * s for a, s in zip(dy, sizes)]
        if 0 < want < 256 * (levels - 1):
            add('2d', model.rho(x, y), want)
    return out


def fit(cons, bits, table8, hard=('gradlod',), weight=1000):
    """The non-decreasing table of 2^bits entries (values 0 .. 256) that the most lines read
    (lines of the `hard` sets weigh `weight`), of those the one with the fewest entries away from
    the chip's 8-bit entry they lie in: (table, misses per set)."""
    n = 1 << bits
    cost = np.full((n, 257), 1e-4)
    for j in range(n):
        cost[j, table8[j >> (bits - 8)]] = 0
    for name, m, v in cons:
        j = min(n - 1, int((m - 1) * n))
        w = weight if name in hard else 1
        if 0 <= v <= 256:
            cost[j] += w
            cost[j, v] -= w
        else:
            cost[j] += w
    best = np.zeros(257)
    choice = np.zeros((n, 257), dtype=np.int32)
    for j in range(n):
        # best over v' <= v of the previous entries, then this entry's cost at v
        pm = np.minimum.accumulate(best)
        is_new = np.r_[True, best[1:] < pm[:-1]]  # where the prefix minimum's argmin moves
        choice[j] = np.maximum.accumulate(np.where(is_new, np.arange(257), 0))
        best = pm + cost[j]
    v = int(np.argmin(best))
    table = [0] * n
    for j in range(n - 1, -1, -1):
        table[j] = v
        v = int(choice[j, v])
    miss = collections.Counter()
    for name, m, want in cons:
        j = min(n - 1, int((m - 1) * n))
        miss[name] += table[j] != want
    return table, miss


def departures(table, table8):
    """The entries of a finer table that differ from the 8-bit entry they lie in, as
    'i+k/2^(bits-8): value (8-bit value)'."""
    sub = len(table) // 256
    return [f'{j // sub}+{j % sub}/{sub}: {v} ({table8[j // sub]})' for j, v in enumerate(table)
            if v != table8[j // sub]]


def lookup_of(table):
    n = len(table)
    return lambda m: table[min(n - 1, int((m - 1) * n))]


def interpolated(table8, bits, mode):
    """The 8-bit entry plus linear interpolation toward the next one by the significand's bits
    8 .. bits, rounded ('n') or cut ('z') to 1/256 (entry 256 reads 256)."""
    nxt = table8[1:] + [256]

    def f(m):
        y = (m - 1) * 256
        i = int(y)
        frac = math.floor((y - i) * 2 ** (bits - 8)) / 2 ** (bits - 8)
        d = (nxt[i] - table8[i]) * frac
        return table8[i] + (math.floor(d + 0.5) if mode == 'n' else math.floor(d))
    return f


def offset_lookup(table8, c):
    """The 8-bit table read after c/256 of an entry is added to the significand (a uniform
    rounding before the cut)."""
    def f(m):
        i = int((m - 1) * 256 + c / 256)
        return table8[i] if i < 256 else 256
    return f


def rot_rows(sets):
    """[(l, m, lo, hi)] of GL16's rot lines inside the levels: the gradients' sum (2a, a) as
    its largest and middle component in units u of the largest's 9-bit grid, and the diagonal
    values (in u) that read the recorded lod through the chip's table."""
    model = gl.Model(sets.table, 1409 / 4096, 9, 9, (True, True), True, True)
    out = []
    for q in sets.cgl:
        if q['obj'] != 'GL16' or q['sweep'] != 'rot' or not 0 < q['lod'] < 256 * 4:
            continue
        (x, y), _ = cgl.Placement('rcp').gradients(q, 16)
        s = model.components([gl.cut(a, 9) + gl.cut(b, 9) for a, b in zip(x, y)])
        u = 2.0 ** (math.frexp(s[0])[1] - 1 - 9)
        e, v = divmod(q['lod'], 256)
        idx = [i for i in range(256) if sets.table[i] == v]
        out.append((s[0] / u, s[1] / u, 2.0 ** e * (1 + min(idx) / 256) / u,
                    2.0 ** e * (1 + (max(idx) + 1) / 256) / u))
    return out


def warpsim_largest(l, m):
    """11/16 of the largest rounded to nearest on the length's 10-bit grid (in u)."""
    return res.grid(11 / 16 * l, 1 if l + 1409 / 4096 * m < 1024 else 0, 'n')


def monotone_middle(rows, largest):
    """The fewest rot lines that any non-decreasing B(m) added to largest(l, m) reads wrong
    (a longest chain of the intervals that B must meet, in the order of m)."""
    iv = sorted((m, lo - largest(l, m), hi - largest(l, m)) for l, m, lo, hi in rows)
    best = [-math.inf] + [math.inf] * len(iv)
    for _, a, b in iv:
        for c in range(len(iv) - 1, -1, -1):
            if best[c] < b:
                best[c + 1] = min(best[c + 1], max(best[c], a))
    return len(iv) - max(c for c in range(len(best)) if best[c] < math.inf)


def linear_middle(rows, largest):
    """The fewest rot lines that B(m) = c m + C misses, c scanned over 11/16 of a share in
    [0.327, 0.349], C the best for each."""
    fewest = len(rows)
    for c in np.arange(0.225, 0.240, 0.00005):
        ev = []
        for l, m, lo, hi in rows:
            ev += [(lo - largest(l, m) - c * m, 0), (hi - largest(l, m) - c * m, 1)]
        ev.sort(key=lambda p: (p[0], -p[1]))
        cur = most = 0
        for _, kind in ev:
            cur += 1 if kind == 0 else -1
            most = max(most, cur)
        fewest = min(fewest, len(rows) - most)
    return fewest


def rounded_middle(rows):
    """The fewest rot lines that 11/16 of S m cut, rounded or raised to a grid of u, 2u or 4u,
    plus a constant C, added to 11/16 l (rounded as warpsim or not), misses; S in [0.33, 0.35],
    C in [-1.5, 2.5)."""
    l, m, lo, hi = (np.array(c) for c in zip(*rows))
    fewest = len(rows)
    for largest in (np.array([warpsim_largest(a, b) for a, b, _, _ in rows]), 11 / 16 * l):
        for share in np.arange(0.330, 0.350, 0.0001):
            for g in (1, 2, 4):
                for b in (np.floor(share * m / g + 0.5), np.floor(share * m / g),
                          np.ceil(share * m / g)):
                    base = largest + 11 / 16 * g * b
                    for c in np.arange(-1.5, 2.5, 1 / 32):
                        f = base + c
                        fewest = min(fewest, int(np.sum(~((lo <= f) & (f < hi)))))
    return fewest


def score(sets, model):
    return sets.row(model, cgl.Placement('rcp'))


def main():
    warpsim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(res.ROOT, 'build/bin/warpsim')
    sets = res.Sets(warpsim)
    head = 'gradl    2d  cube  rot edge  cubeg  candidate'
    print(head)
    for sname, share in SHARES.items():
        base = TableModel(sets.table, share, lookup_of(sets.table))
        print(f'{score(sets, base)}  the chip\'s 8-bit table, share {sname}')
    for sname, share in SHARES.items():
        model = TableModel(sets.table, share, None)
        cons = constraints(sets, model)
        for bits in (8, 9, 10, 11, 12):
            table, miss = fit(cons, bits, sets.table, ('gradlod', '2d'))
            fitted = TableModel(sets.table, share, lookup_of(table))
            detail = ' '.join(f'{k} {v}' for k, v in sorted(miss.items()) if v)
            away = departures(table, sets.table)
            print(f'{score(sets, fitted)}  fitted {bits}-bit table, share {sname} (its fit '
                  f'misses {detail}; {len(away)} entries away from the 8-bit table)')
            if away:
                print('      ' + ', '.join(away))
        for bits, mode in ((10, 'z'), (12, 'z')):
            f = TableModel(sets.table, share, interpolated(sets.table, bits, mode))
            print(f'{score(sets, f)}  8-bit entry + interpolation of bits 9..{bits}, {mode}, '
                  f'share {sname}')
        for c in (1, 2, 4, 8, 16):
            f = TableModel(sets.table, share, offset_lookup(sets.table, c))
            print(f'{score(sets, f)}  {c}/256 of an entry added to the significand before the '
                  f'8-bit cut, share {sname}')
    print('rot (GL16; the three face sizes read the same): the sum (2a, a) as l, m in units of '
          'its largest\'s 9-bit grid, the diagonal 11/16 l + B(m)')
    rows = rot_rows(sets)
    print(f'  any non-decreasing B(m), 11/16 l rounded as warpsim (par\'s rule): at least '
          f'{monotone_middle(rows, warpsim_largest)} of {len(rows)} wrong')
    print(f'  any non-decreasing B(m), 11/16 l unrounded: at least '
          f'{monotone_middle(rows, lambda l, m: 11 / 16 * l)} wrong')
    for name, largest in (('rounded as warpsim', warpsim_largest),
                          ('unrounded', lambda l, m: 11 / 16 * l)):
        print(f'  B(m) = c m + C, 11/16 l {name}: at least {linear_middle(rows, largest)} wrong')
    short = [r for r in rows if r[0] + 1409 / 4096 * r[1] < 1024]
    print(f'  ... the {len(short)} lines whose length lies below 1024 u alone (the 10-bit grid '
          f'u/2), 11/16 l rounded as warpsim: at least {linear_middle(short, warpsim_largest)} '
          f'wrong')
    print(f'  B(m) = 11/16 of S m on a grid of u .. 4u (cut, rounded or raised) + C: at least '
          f'{rounded_middle(rows)} wrong')


if __name__ == '__main__':
    main()
