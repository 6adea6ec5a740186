#!/usr/bin/env python3
"""tex.grad's footprint arithmetic fitted to the gradlod section of texture_forms_probe
(docs/FIDELITY.md "tex.grad's level of detail"), reproducible.

The gradlod section (tests/recorded/texture/texture_forms.chip.txt.xz) reads the level of detail
directly: a 256 x 256 texture whose level k holds k, so a fetch returns the lod, a multiple of
1/256. Its sweeps: log2 (one gradient of 2 (1 + (i + f) / 256) texels: the log2 table entry by
entry), par (d/dx = d/dy = (a, 0): the diagonal), perp (d/dx (a, 0), d/dy (0, a)) and mid (d/dx
(2, m): the middle component's share).

Prints the table (the entries that differ from the rounded-up log2), the middle share's
interval, then one row per model step: the gradlod lines it misses, the mipmap probes' gradient
lines it misses (texture_grad_lod.py's 3,321), and, when nvcc and build/bin/warpsim are there,
the cube lines it misses (texture_cube_grad_lod.py's lod ranges, 11,088; 10 s). The last row is
the footprint arithmetic isa/insns/texture_mipmap.cpp implements; its cube column places a
gradient onto a neighbouring face as before tex18 (texture_cube_unfold.py scores tex18's rule).

    python3 scripts/fit/texture_gradlod.py [build/bin/warpsim]
"""
import math
import os
import re
import shutil
import struct
import subprocess
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import texture_cube_grad_lod as cube  # noqa: E402
import texture_grad_lod as grad  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')


def gradlod_lines():
    """[(sweep, (x0, x1), (y0, y1) in texels, lod in 1/256)]."""
    text = subprocess.run(['xz', '-dc', cube.CHIP], capture_output=True, check=True,
                          text=True).stdout
    out = []
    for line in text.splitlines():
        m = re.match(r'gradlod (\w+) ddx (\S+) (\S+) ddy (\S+) (\S+) = ([0-9a-f]+)$', line)
        if m:
            a, b, c, d = (float.fromhex(v) * 256 for v in m.groups()[1:5])
            value = struct.unpack('<f', struct.pack('<I', int(m.group(6), 16)))[0]
            out.append((m.group(1), (a, b), (c, d), round(value * 256)))
    return out


def chip_table(lines):
    """Entry i: what the log2 sweep's gradients 2 (1 + (i + f) / 256) read (one value for all f,
    checked), less one level."""
    table = {}
    for sweep, x, _, lod in lines:
        if sweep == 'log2':
            m, e = math.frexp(x[0])
            i = int((2 * m - 1) * 256)
            assert table.setdefault(i, lod - 256 * (e - 1)) == lod - 256 * (e - 1), i
    return [table[i] for i in range(256)]


ROUNDED_UP = [math.ceil(256 * math.log2(1 + i / 256) - 1e-9) for i in range(256)]
ROUNDED_UP_ENTRY2 = ROUNDED_UP[:2] + [4] + ROUNDED_UP[3:]


def cut(v, bits):
    """v cut toward zero to `bits` fractional bits of its significand."""
    if bits is None or v == 0 or not math.isfinite(v):
        return v
    m, e = math.frexp(abs(v))
    return math.copysign(math.floor(m * 2 ** (bits + 1)) / 2 ** (bits + 1) * 2 ** e, v)


def exponent(x):
    """The binary exponent of x > 0 (x in [2^e, 2^(e + 1)))."""
    return math.frexp(x)[1] - 1


def on_grid(x, e, bits):
    """x cut toward zero on the grid 2^(e - bits)."""
    return math.floor(x * 2.0 ** (bits - e)) * 2.0 ** (e - bits)


def rounded_on_grid(x, e, bits):
    """x rounded to nearest, ties up, on the grid 2^(e - bits)."""
    return on_grid(x + 2.0 ** (e - bits - 1), e, bits)


def share_of(c, share, bits):
    """share * c rounded to nearest on c's own grid of `bits` fractional bits (c >= 0; zero,
    infinities and NaN multiplied as they are)."""
    if not (c > 0 and math.isfinite(c)):
        return share * c
    return rounded_on_grid(share * c, exponent(c), bits)


# The shares isa/insns/texture_mipmap.cpp implements (tex17): a gradient's middle at 11 bits of
# its own exponent, a diagonal's at 12, cut to 9 bits of 11/16 of the largest.
SHARES = (11, 12, 9)


class Model:
    """The footprint: components cut to `bits`; lengths the largest + `mid` the middle + 1/4 the
    smallest (on the largest's grid of `grid` bits if given); the diagonals 11/16 of their
    length, rounded to nearest on the length's grid of 10 bits where `rounded` says (2-d, cube);
    the log2 of the significand cut to 8 bits read from `table`. `shares` (tex17, docs/FIDELITY.md
    "tex.grad on cube maps: the middle term"; `mid` then unused): a gradient's middle share is
    11/32 of its middle component rounded to nearest on the middle's own grid of `shares[0]`
    bits; a diagonal is 11/16 of its largest rounded on the largest's 10-bit grid, plus 121/512
    of its middle (cut to 9 bits of its own) rounded on the middle's grid of `shares[1]` bits
    and 11/64 of its smallest, those two cut to the first term's grid of `shares[2]` bits."""

    def __init__(self, table, mid=87 / 256, bits=None, grid=None, rounded=(False, False),
                 largest_only=False, middle_own=False, shares=None):
        self.table, self.mid, self.bits, self.grid, self.rounded = table, mid, bits, grid, rounded
        self.largest_only, self.middle_own, self.shares = largest_only, middle_own, shares

    def components(self, v):
        s = sorted((abs(a) for a in v), reverse=True) + [0.0, 0.0]
        if self.grid is not None and s[0] > 0 and math.isfinite(s[0]):
            q = 2.0 ** (math.frexp(s[0])[1] - 1 - self.grid)
            s = [math.floor(a / q) * q for a in s]
        return s

    def length(self, v):
        s = self.components(v)
        return s[0] + self.mid * s[1] + 0.25 * s[2]

    def gradient_length(self, v):
        """A gradient's (not a diagonal's) length: with middle_own its middle component keeps
        its own bits (the largest's grid for the smallest only)."""
        if not self.middle_own:
            return self.length(v)
        s, own = self.components(v), sorted((abs(a) for a in v), reverse=True) + [0.0, 0.0]
        if self.shares:
            return s[0] + share_of(own[1], 11 / 32, self.shares[0]) + 0.25 * s[2]
        return s[0] + self.mid * own[1] + 0.25 * s[2]

    def diagonal(self, v, rounded):
        """11/16 of the length; rounded: on the length's grid of 10 bits, the whole of it or
        (largest_only) 11/16 of the largest component, the others' shares added unrounded."""
        if self.shares:
            return self.rounded_shares_diagonal(v)
        length = self.length(v)
        d = 11 / 16 * length
        if not rounded or not length > 0 or not math.isfinite(length):
            return d
        q = 2.0 ** (math.frexp(length)[1] - 1 - 10)
        if self.largest_only:
            s = self.components(v)
            return math.floor(11 / 16 * s[0] / q + 0.5) * q + 11 / 16 * (self.mid * s[1] +
                                                                        0.25 * s[2])
        return math.floor(d / q + 0.5) * q

    def rounded_shares_diagonal(self, v):
        """The `shares` diagonal (isa/insns/texture_mipmap.cpp diagonalTerm)."""
        s = self.components(v)
        middle = cut(sorted((abs(a) for a in v), reverse=True)[1] if len(v) > 1 else 0.0, 9)
        if not (s[0] > 0 and math.isfinite(s[0])):
            return 11 / 16 * (s[0] + 11 / 32 * middle + 0.25 * s[2])
        largest = rounded_on_grid(11 / 16 * s[0], exponent(s[0]), 10)
        rest = share_of(middle, 121 / 512, self.shares[1]) + 11 / 64 * s[2]
        return largest + on_grid(rest, exponent(largest), self.shares[2])

    def rho(self, x, y, diagonals=True, is_cube=False):
        """The footprint: the longest of the gradients (cut to `bits`) and, with diagonals, of
        their sum and difference; NaN terms left out, 0 for none."""
        x = [cut(a, self.bits) for a in x]
        y = [cut(a, self.bits) for a in y]
        terms = [self.gradient_length(x), self.gradient_length(y)]
        if diagonals:
            rounded = self.rounded[1 if is_cube else 0]
            terms += [self.diagonal([a + b for a, b in zip(x, y)], rounded),
                      self.diagonal([a - b for a, b in zip(x, y)], rounded)]
        terms = [t for t in terms if not math.isnan(t)]
        return max(terms) if terms else 0.0

    def log2(self, rho):
        """The footprint's lod in 1/256 (the table read at its significand's first 8 bits); -inf
        or inf outside."""
        if not rho > 0:
            return -math.inf
        if math.isinf(rho):
            return math.inf
        m, e = math.frexp(rho)
        return 256 * (e - 1) + self.table[int((2 * m - 1) * 256)]

    def lod(self, x, y, diagonals=True, is_cube=False):
        """In 1/256; -inf or inf outside."""
        return self.log2(self.rho(x, y, diagonals, is_cube))


def misses_gradlod(model, lines):
    bad = 0
    for _, x, y, want in lines:
        lod = model.lod(x, y)
        bad += max(0, min(2048, lod)) != want
    return bad


def misses_2d(model, data):
    bad = 0
    for sizes, levels, dx, dy, want in data:
        x = [a * s for a, s in zip(dx, sizes)]
        y = [a * s for a, s in zip(dy, sizes)]
        lod = min(max(model.lod(x, y) / 256, 0), levels - 1)
        bad += math.floor(lod * 256) != want
    return bad


def misses_cube(model, lines, rcp=False):
    """rcp: the samples placed by the f32 reciprocal of their largest component (tex14)."""
    cube.footprint_lod = lambda x, y, diagonals=True, rule=False: model.lod(
        x, y, diagonals, True) / 256
    bad = 0
    for q in lines:
        size, levels = cube.OBJECTS[q['obj']]
        lod, top = cube.placed_lod(q, size, rcp), levels * 256 + 512
        j = -512 if math.isnan(lod) or lod < -2 else top if lod > levels + 2 else round(256 * lod)
        j = max(-512, min(top, j))
        bad += not q['range'][0] <= j <= q['range'][1]
    return bad


def main():
    lines = gradlod_lines()
    table = chip_table(lines)
    print('log2 table: entries that differ from the rounded-up log2 (entry: chip, rounded up)')
    print('  ' + ', '.join(f'{i}: {table[i]} {ROUNDED_UP[i]}' for i in range(256)
                           if table[i] != ROUNDED_UP[i]))
    lo, hi = Fraction(0), Fraction(1)
    for sweep, x, _, lod in lines:
        if sweep == 'mid' and x[1] > 0:
            # (2 + s m) / 2 = 1 + s m / 2: the entries that read this lod bound s
            idx = [i for i in range(256) if table[i] == lod - 256]
            m = Fraction(x[1])
            lo, hi = max(lo, Fraction(min(idx), 128) / m), min(hi, Fraction(max(idx) + 1, 128) / m)
    print(f'middle share: [{float(lo):.6f}, {float(hi):.6f}) (11/32 = 0.34375, 87/256 = 0.33984)')
    data = grad.load()
    warpsim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'build/bin/warpsim')
    cubes = None
    if shutil.which('nvcc') and os.path.exists(warpsim):
        cubes = cube.chip_lines()
        cube.solve(cubes, warpsim)
    rows = [
        ('the model before (table: rounded up, entry 2 4/256; middle 87/256)',
         Model(ROUNDED_UP_ENTRY2)),
        ('the chip\'s log2 table', Model(table)),
        ('... middle share 1409/4096', Model(table, 1409 / 4096)),
        ('... components cut to 9 bits', Model(table, 1409 / 4096, 9)),
        ('... lengths on the largest component\'s 9-bit grid', Model(table, 1409 / 4096, 9, 9)),
        ('... diagonals rounded, 2-d and cube', Model(table, 1409 / 4096, 9, 9, (True, True))),
        ('... diagonals rounded on 2-d textures only (tex12)',
         Model(table, 1409 / 4096, 9, 9, (True, False))),
        ('... 11/16 of the largest rounded, the shares added, 2-d and cube',
         Model(table, 1409 / 4096, 9, 9, (True, True), True)),
        ('... a gradient\'s middle component at its own bits',
         Model(table, 1409 / 4096, 9, 9, (True, True), True, True)),
        ('... cube samples placed by the f32 reciprocal of the major axis (tex14)',
         Model(table, 1409 / 4096, 9, 9, (True, True), True, True), True),
        ('... shares 11/32 and 121/512 rounded on the middle\'s grid, a diagonal\'s cut to 11/16 '
         'of the largest\'s (tex17, warpsim)',
         Model(table, 1409 / 4096, 9, 9, (True, True), True, True, SHARES), True),
    ]
    print(f'misses: gradlod of {len(lines)}, 2-d gradient lines of {len(data)}, cube lines of '
          f'{len(cubes) if cubes else "(no nvcc or warpsim)"}')
    for name, model, *rcp in rows:
        c = misses_cube(model, cubes, bool(rcp and rcp[0])) if cubes else '-'
        print(f'{misses_gradlod(model, lines):6d} {misses_2d(model, data):6d} {c:>6}  {name}')


if __name__ == '__main__':
    main()
