#!/usr/bin/env python3
"""The last cube-map tex.grad residuals (docs/FIDELITY.md "tex.grad on cube maps: the last
residuals", tex14): candidate arithmetic for the two-component diagonal and for the placement of
samples, each scored on every set at once, reproducible.

The sets: gradlod (2,113 lines that read the lod of a 2-d texture directly), the mipmap probes'
3,321 2-d gradient lines (texture_grad_lod.py), the cubegradlod section (10,755 lines that read
the lod of a cube map directly; its rot sweep, d/dx = d/dy = (a, a / 2), holds the
two-component diagonals, its edge sweep the samples crossing onto +x) and cubegrad's 11,088 lod
ranges (texture_cube_grad_lod.py, when nvcc and build/bin/warpsim are there: 10 s more).

A diagonal candidate is a function of the sum's components on the largest one's grid of 9 bits
(u = its unit in the last place): l, m and s (largest, middle, smallest, integers) in units of
u; it returns the diagonal's share of the footprint in units of u. Every candidate of a family
is scored first on the direct lines of the diagonals (gradlod par, cubegradlod par, pars, rot:
fast), and the best of each family on every set; then the footprint rounded before the log2
table, the fewest lines any non-decreasing log2 of warpsim's footprint can miss, and the
placements of the samples. Prints one row per candidate: the misses of gradlod, 2-d lines,
cubegradlod (all, rot, edge) and cubegrad (45 s in all).

    python3 scripts/fit/texture_cube_residuals.py [build/bin/warpsim]
"""
import bisect
import collections
import itertools
import math
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import texture_cube_grad_lod as cube  # noqa: E402
import texture_cubegradlod as cgl  # noqa: E402
import texture_grad_lod as grad  # noqa: E402
import texture_gradlod as gl  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
SHARE = 1409 / 4096


def grid(x, k, mode):
    """x on the grid of 2^-k (k None: x), cut ('z'), to nearest, ties up ('n'), to nearest
    even ('e') or up ('u')."""
    if k is None:
        return x
    y = x * 2.0 ** k
    f = math.floor(y)
    if mode == 'n':
        f = math.floor(y + 0.5)
    elif mode == 'e':
        f += (y - f > 0.5) or (y - f == 0.5 and f % 2 == 1)
    elif mode == 'u':
        f = math.ceil(y)
    return f / 2.0 ** k


def shifted(x, shifts, k):
    """x times sum(2^-s for s in shifts) as an adder of shifted copies, each cut to 2^-k."""
    return sum(grid(x / 2.0 ** s, k, 'z') for s in shifts)


def warpsim_rule(l, m, s):
    """tex13: 11/16 of the largest rounded to nearest on the length's 10-bit grid, 11/16 of the
    shares added unrounded."""
    t = l + SHARE * m + s / 4
    k = 1 if t < 1024 else 0  # the length's grid of 10 bits, in units of u
    return grid(11 / 16 * l, k, 'n') + 11 / 16 * (SHARE * m + s / 4)


def families():
    """(family, name, diagonal) for every candidate."""
    out = [('tex13', 'warpsim: 11/16 of the largest rounded, the shares added', warpsim_rule)]
    # The middle's (and smallest's) share added on a grid aligned to the largest at 10-13 bits,
    # round to nearest even or toward zero, to 11/16 of the largest rounded as tex13's.
    for kb, mode in itertools.product((1, 2, 3, 4), 'ez'):
        def f(l, m, s, kb=kb, mode=mode):
            t = l + SHARE * m + s / 4
            k = 1 if t < 1024 else 0
            return grid(11 / 16 * l, k, 'n') + grid(11 / 16 * (SHARE * m + s / 4), kb, mode)
        out.append(('share grid', f'share on the largest\'s {9 + kb}-bit grid, {mode}', f))
    # ... the share's sum taken first, then 11/16 of the sum, each on that grid.
    for kb, mode in itertools.product((1, 2, 3, 4), 'ez'):
        def f(l, m, s, kb=kb, mode=mode):
            t = l + SHARE * m + s / 4
            k = 1 if t < 1024 else 0
            return grid(11 / 16 * l, k, 'n') + grid(11 / 16 * grid(SHARE * m + s / 4, kb, mode),
                                                    kb, mode)
        out.append(('share grid', f'share then 11/16 on the {9 + kb}-bit grid, {mode}', f))
    # 11/16 as (x >> 1) + (x >> 3) + (x >> 4), each cut on the grid of 10 .. 14 bits, of the
    # largest alone (the shares added) or of the whole length; half a step of the length's
    # 10-bit grid added before the table's cut, or not.
    for k, whole, half in itertools.product((1, 2, 3, 4, 5), (False, True), (False, True)):
        def f(l, m, s, k=k, whole=whole, half=half):
            t = l + SHARE * m + s / 4
            step = 0.5 if t < 1024 else 1.0
            d = shifted(t, (1, 3, 4), k) if whole else (
                shifted(l, (1, 3, 4), k) + 11 / 16 * (SHARE * m + s / 4))
            return d + (step / 2 if half else 0)
        out.append(('shifts', f'11/16 as shifts cut at {9 + k} bits, '
                    f'{"the length" if whole else "the largest"}'
                    f'{", half a step added" if half else ""}', f))
    # ... with the share as shifted copies too: 1409/4096 = 1/4 + 1/16 + 1/32 + 1/4096.
    for k, half in itertools.product((1, 2, 3, 4, 5), (False, True)):
        def f(l, m, s, k=k, half=half):
            t = l + SHARE * m + s / 4
            step = 0.5 if t < 1024 else 1.0
            share = shifted(m, (2, 4, 5, 12), k) + grid(s / 4, k, 'z')
            return shifted(l, (1, 3, 4), k) + shifted(share, (1, 3, 4), k) + (
                step / 2 if half else 0)
        out.append(('shifts', f'share and 11/16 as shifts cut at {9 + k} bits'
                    f'{", half a step added" if half else ""}', f))
    # 11/16 of the largest rounded on a 10-bit grid of the diagonal's own exponent or the
    # largest's instead of the length's.
    for ref in ('diagonal', 'largest'):
        def f(l, m, s, ref=ref):
            t = l + SHARE * m + s / 4
            e = math.frexp(11 / 16 * t if ref == 'diagonal' else l)[1] - 1 - 9
            return grid(11 / 16 * l, 1 - e, 'n') + 11 / 16 * (SHARE * m + s / 4)
        out.append(('exponent', f'11/16 of the largest rounded on the {ref}\'s 10-bit grid', f))
    # The whole 11/16 length rounded or cut on its grid of 9 .. 12 bits (tex12's rules).
    for k, mode in itertools.product((0, 1, 2, 3), 'nz'):
        def f(l, m, s, k=k, mode=mode):
            t = l + SHARE * m + s / 4
            return grid(11 / 16 * t, k - (0 if t < 1024 else 1), mode)
        out.append(('whole', f'the whole 11/16 length on its {9 + k}-bit grid, {mode}', f))
    return out


class Diagonal(gl.Model):
    """warpsim's arithmetic (texture_gradlod.py's last row) with the diagonal `rule(l, m, s)`;
    `cut_sum`: the diagonal's components are the sum of the gradients as given, cut to 9 bits
    after the sum (the largest taken before the cut), not the sum of the cut gradients."""

    def __init__(self, table, rule, cut_sum=False):
        super().__init__(table, SHARE, 9, 9, (True, True), True, True)
        self.rule, self.cut_sum, self.raw = rule, cut_sum, None

    def diagonal(self, v, rounded):
        s = self.components(v)
        if not (s[0] > 0 and math.isfinite(s[0])):
            return 11 / 16 * self.length(v)
        u = 2.0 ** (math.frexp(s[0])[1] - 1 - 9)
        return u * self.rule(s[0] / u, s[1] / u, s[2] / u)

    def rho(self, x, y, diagonals=True, is_cube=False):
        if not self.cut_sum:
            return super().rho(x, y, diagonals, is_cube)
        xc, yc = [gl.cut(a, 9) for a in x], [gl.cut(a, 9) for a in y]
        terms = [self.gradient_length(xc), self.gradient_length(yc)]
        if diagonals:
            terms += [self.diagonal([gl.cut(a + b, 9) for a, b in zip(x, y)], True),
                      self.diagonal([gl.cut(a - b, 9) for a, b in zip(x, y)], True)]
        terms = [t for t in terms if not math.isnan(t)]
        return max(terms) if terms else 0.0


class Fixed(cgl.Placement):
    """Samples placed as warpsim does (the f32 reciprocal), then their coordinates in texels of
    the face on a fixed-point grid of `bits` fractional bits before the differences (as the
    filter's weights), cut or rounded to nearest; the crossing samples only or all."""

    def __init__(self, bits, mode, which):
        super().__init__('rcp')
        self.bits, self.mode, self.which = bits, mode, which

    def gradients(self, q, size):
        p = q['dir']
        at = self.point(p)
        if at is None:
            return None
        face = at[1]

        def texels(c, snap):
            return [grid((v + 1) / 2 * size, self.bits, self.mode) if snap and math.isfinite(v)
                    else (v + 1) / 2 * size for v in c]

        t0 = texels(self.placed(face, p)[0], self.which == 'all')
        grads, crosses = [], False
        for d in (q['dx'], q['dy']):
            c1, crossed = self.placed(face, [cgl.f32(a + b) for a, b in zip(p, d)])
            crosses |= crossed
            t1 = texels(c1, self.which == 'all' or crossed)
            grads.append([a - b for a, b in zip(t1, t0)])
        return grads, crosses


def placements():
    out = [('quotient', 'components over the major axis, exact (tex13)', cgl.Placement()),
           ('quotient', '... the quotient rounded to f32', cgl.Placement('f32')),
           ('quotient', '... the unfolded 2 - u rounded to f32 too',
            cgl.Placement('f32', 'f32')),
           ('rcp', 'times the f32 reciprocal, rounded to f32 (warpsim)', cgl.Placement('rcp')),
           ('rcp', '... the unfolded 2 - u rounded to f32', cgl.Placement('rcp', 'f32')),
           ('rcp', '... normalized coordinates s / 2 + 1/2 in f32, then differences',
            cgl.Placement('rcp', 'exact', 'norm'))]
    for bits, mode, which in itertools.product((8, 10, 12, 14, 16), 'zn', ('cross', 'all')):
        out.append(('fixed', f'texel coordinates of {which} samples on a {bits}-bit grid, '
                    f'{mode}', Fixed(bits, mode, which)))
    return out


class Sets:
    def __init__(self, warpsim):
        self.gradlod = gl.gradlod_lines()
        self.table = gl.chip_table(self.gradlod)
        self.twod = grad.load()
        self.cgl = cgl.section_lines(os.path.join(ROOT, cube.CHIP))
        self.cubes = None
        if shutil.which('nvcc') and os.path.exists(warpsim):
            self.cubes = cube.chip_lines()
            cube.solve(self.cubes, warpsim)
        self.direct = [q for q in self.cgl if q['obj'] == 'GL16' and
                       q['sweep'] in ('par', 'pars', 'rot')]
        self.gpar = [l for l in self.gradlod if l[0] == 'par']

    def fast(self, model):
        """Misses of the direct diagonal lines: gradlod par, GL16 par, pars and rot."""
        bad = sum(max(0, min(2048, model.lod(x, y))) != want for _, x, y, want in self.gpar)
        return bad + sum(cgl.model_lod(q, cgl.Placement('rcp'), model) != q['lod']
                         for q in self.direct)

    def row(self, model, placement):
        by = cgl.misses(self.cgl, placement, model)
        rot = sum(v for k, v in by.items() if k.endswith(' rot'))
        edge = sum(v for k, v in by.items() if k.endswith(' edge'))
        c = cgl.misses_cubegrad(self.cubes, placement, model) if self.cubes else '-'
        return (f'{gl.misses_gradlod(model, self.gradlod):5d} {gl.misses_2d(model, self.twod):5d}'
                f' {sum(by.values()):5d} {rot:4d} {edge:4d} {c:>5}')


class RoundedFootprint(gl.Model):
    """The footprint (its diagonals 11/16 of their length, unrounded, or warpsim's) rounded to
    nearest at `bits` fractional bits of its significand before the table reads the first 8:
    the log2 sweeps (gradients cut to 9 bits) cannot tell that from the cut alone."""

    def __init__(self, table, share, bits, warpsim_diagonal):
        super().__init__(table, share, 9, 9, (True, True), True, True)
        self.round_bits, self.warpsim_diagonal = bits, warpsim_diagonal

    def diagonal(self, v, rounded):
        return super().diagonal(v, rounded) if self.warpsim_diagonal else 11 / 16 * self.length(v)

    def log2(self, rho):
        if not (rho > 0 and math.isfinite(rho)):
            return super().log2(rho)
        m, e = math.frexp(rho)
        m = grid(m, self.round_bits + 1, 'n')
        if m >= 1:
            m, e = m / 2, e + 1
        return 256 * (e - 1) + self.table[int((2 * m - 1) * 256)]


def monotone_bound(sets, model):
    """The fewest gradlod and cubegradlod lines (lod inside the levels) that any non-decreasing
    log2 of the model's footprint reads wrong: the lines less the longest run whose lod does
    not fall as the footprint's significand grows (equal footprints, equal lods)."""
    pairs = []

    def add(rho, lod):
        if rho > 0 and math.isfinite(rho):
            m, e = math.frexp(rho)
            pairs.append((2 * m, lod - 256 * (e - 1)))

    for _, x, y, lod in sets.gradlod:
        if 0 < lod < 2048:
            add(model.rho(x, y, True), lod)
    place = cgl.Placement('rcp')
    for q in sets.cgl:
        size, levels = cgl.SIZES[q['obj']]
        g = place.gradients(q, size)
        if g is not None and 0 < q['lod'] < 256 * (levels - 1):
            add(model.rho(*g[0], not g[1]), q['lod'])
    tails = []
    for _, v in sorted(pairs, key=lambda p: (p[0], -p[1])):
        i = bisect.bisect_right(tails, v)
        tails[i:i + 1] = [v]
    return len(pairs), len(pairs) - len(tails)


def main():
    warpsim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'build/bin/warpsim')
    sets = Sets(warpsim)
    head = 'gradl    2d  cube  rot edge  cubeg  candidate'
    print('diagonals (samples placed as warpsim does); per family, the best on the direct lines')
    print(head)
    best = collections.defaultdict(list)
    for fam, name, rule in families():
        best[fam].append((sets.fast(Diagonal(sets.table, rule)), name, rule))
    for fam, cands in best.items():
        cands.sort(key=lambda c: c[0])
        for _, name, rule in cands[:2]:
            print(f'{sets.row(Diagonal(sets.table, rule), cgl.Placement("rcp"))}  [{fam}] {name}')
    print(f'{sets.row(Diagonal(sets.table, warpsim_rule, True), cgl.Placement("rcp"))}  '
          '[cut after the sum] the diagonal\'s components cut after summing the gradients')
    for share, bits, ours in itertools.product((SHARE, 11 / 32), (10, 11, 12), (False, True)):
        print(f'{sets.row(RoundedFootprint(sets.table, share, bits, ours), cgl.Placement("rcp"))}'
              f'  [rounded footprint] the footprint rounded at {bits} bits before the table, '
              f'share {share}, {"warpsim" if ours else "11/16 unrounded"}\'s diagonal')
    for share in (SHARE, 11 / 32):
        model = gl.Model(sets.table, share, 9, 9, (True, True), True, True)
        n, bound = monotone_bound(sets, model)
        print(f'any non-decreasing log2 of warpsim\'s footprint with a middle share of {share}: '
              f'at least {bound} of {n} gradlod and cubegradlod lines wrong')
    print('placements (warpsim\'s diagonal)')
    print(head)
    model = Diagonal(sets.table, warpsim_rule)
    for fam, name, placement in placements():
        print(f'{sets.row(model, placement)}  [{fam}] {name}')


if __name__ == '__main__':
    main()
