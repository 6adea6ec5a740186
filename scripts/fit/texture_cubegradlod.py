#!/usr/bin/env python3
"""tex.grad's level of detail on cube maps, read directly: the cubegradlod section of
texture_forms_probe (docs/FIDELITY.md "tex.grad on cube maps"), reproducible.

The section (tests/recorded/texture/texture_forms.chip.txt.xz, or a file given as the first
argument) fetches f32 cube maps of 256, 16 and 8-texel faces whose level k holds k on every
face, linear/linear, so each line reads the lod itself (a multiple of 1/256). Its sweeps, from
face +z: log2 (one gradient: the table), par (d/dx = d/dy along x: the diagonal), mid (the
middle share), rot (d/dx = d/dy = (a, a / 2)), pars (par from a point whose major axis is 1.5)
and edge (a sample crossing onto +x, unfolded back).

Prints one row per model: the lines it misses per sweep. The row marked (warpsim) is what
isa/insns/texture_mipmap.cpp (lodFromCubeGradients) implements; with a second argument (the
simulator's output of the same section, e.g. `build/bin/warpsim exec` of the probe) it also
checks that row against it line for line.

    python3 scripts/fit/texture_cubegradlod.py [CHIP_FILE [SIM_FILE]]
"""
import collections
import math
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import texture_cube_grad_lod as cube  # noqa: E402
import texture_gradlod as gl  # noqa: E402

SIZES = {'GL256': (256, 9), 'GL16': (16, 5), 'GL8': (8, 4)}


def f32(v):
    return cube.f32(v)


def section_lines(path, section='cubegradlod'):
    """[{obj, sweep, dir, dx, dy, lod in 1/256}] of the cubegradlod section (or another in its
    line format: cuberot, texture_cuberot.py)."""
    if path.endswith('.xz'):
        text = subprocess.run(['xz', '-dc', path], capture_output=True, check=True,
                              text=True).stdout
    else:
        text = open(path).read()
    out, on = [], False
    for line in text.splitlines():
        if line.startswith('== '):
            on = line == '== ' + section
            continue
        p = line.split()
        if not on or not p or p[0] not in SIZES or '=' not in p:
            continue
        i, j, eq = p.index('ddx'), p.index('ddy'), p.index('=')
        value = struct.unpack('<f', struct.pack('<I', int(p[eq + 1], 16)))[0]
        out.append({'obj': p[0], 'sweep': p[1], 'dir': [float.fromhex(x) for x in p[2:5]],
                    'dx': [float.fromhex(x) for x in p[i + 1:j]],
                    'dy': [float.fromhex(x) for x in p[j + 1:eq]], 'lod': round(value * 256)})
    return out


def chip_table():
    return gl.chip_table(gl.gradlod_lines())


class Placement:
    """How a sample's face coordinates are computed: `div` 'exact' (warpsim: components over the
    major axis in double), 'f32' (each quotient rounded to f32), 'rcp' (times the f32 reciprocal
    of the major axis, in f32); `past` the unfolded 2 - u in 'exact' or 'f32'; `grad` how the
    gradient is formed: 'half' (f32 of the difference / 2, times the size), 'norm' (normalized
    coordinates s / 2 + 1/2 in f32, their f32 difference times the size), 'parts' (warpsim,
    tex18: as 'half', but toward a sample on a neighbouring face the two distances to the edge,
    P's on its face and the sample's past it on its own, each in texels cut to `parts` bits of
    its significand (None: exact), then added)."""

    def __init__(self, div='exact', past='exact', grad='half', parts=9):
        self.div, self.past, self.grad, self.parts = div, past, grad, parts

    def point(self, q):
        mags = [abs(v) for v in q if not math.isnan(v)]
        ma = max(mags) if mags else 0.0
        if not ma > 0:
            return None
        if math.isinf(ma):
            n = [math.nan if math.isinf(v) else 0.0 for v in q]
        elif self.div == 'exact':
            n = [v / ma for v in q]
        elif self.div == 'f32':
            n = [f32(v / ma) for v in q]
        else:
            r = f32(1 / ma)
            n = [f32(v * r) for v in q]
        ax, ay, az = (abs(v) for v in n)
        axis = 0 if ax > ay and ax > az else 1 if ay > az else 2
        sign = 1 if n[axis] >= 0 else -1
        n = [0.0 if math.isnan(v) else v for v in n]
        n[axis] = float(sign)
        return n, (axis, sign)

    def placed(self, face, q):
        c = self.point(q)
        if c is None:
            return [0.0, 0.0, 0.0], False
        n, g = c
        if g[0] == face[0]:
            sc, tc = cube.frame(face, n)
            return [sc, tc, 0.0 if g[1] == face[1] else 2.0], g[1] != face[1]
        third, (es, et), (fs, ft) = cube.edge_frames(face, g)
        past = 2 - face[1] * n[face[0]]
        if self.past == 'f32':
            past = f32(past)
        other = n[third]
        return [es * past + fs * other, et * past + ft * other, 0.0], True

    def gradients(self, q, size):
        p = q['dir']
        at = self.point(p)
        if at is None:
            return None
        face = at[1]
        c0 = self.placed(face, p)[0]
        grads, crosses = [], False
        for d in (q['dx'], q['dy']):
            c1, crossed = self.placed(face, [f32(a + b) for a, b in zip(p, d)])
            crosses |= crossed
            if self.grad == 'parts' and crossed and c1[2] == 0:
                grads.append(self.crossing(face, at[0], d, p, size))
            elif self.grad in ('half', 'parts'):
                grads.append([f32((a - b) / 2) * size for a, b in zip(c1, c0)])
            else:
                grads.append([f32(f32(f32(a / 2) + 0.5) - f32(f32(b / 2) + 0.5)) * size
                              for a, b in zip(c1, c0)])
        return grads, crosses


    def crossing(self, face, pn, d, p, size):
        """The gradient toward a sample on a face g bordering P's ('parts'): P's distance to
        their edge (1 less its coordinate toward g) plus the sample's past it (1 less its
        coordinate toward P's face), in texels, each cut to `parts` bits; along the edge the
        difference of the two points' own coordinates, as 'half'."""
        n, g = self.point([f32(a + b) for a, b in zip(p, d)])
        third, (es, et), (fs, ft) = cube.edge_frames(face, g)
        mine = (1 - g[1] * pn[g[0]]) / 2 * size
        theirs = (1 - face[1] * n[face[0]]) / 2 * size
        toward = gl.cut(mine, self.parts) + gl.cut(theirs, self.parts)
        along = f32((n[third] - pn[third]) / 2) * size
        return [es * toward + fs * along, et * toward + ft * along, 0.0]


class MiddleExact(gl.Model):
    """The middle component of gradients and diagonals alike kept as cut to its own 9 bits, not on
    the largest's grid (the edge sweep's 120 -> 13, but cubegrad 141 -> 151)."""

    def __init__(self, table):
        super().__init__(table, 1409 / 4096, 9, 9, (True, True), True)

    def components(self, v):
        s = sorted((abs(a) for a in v), reverse=True) + [0.0, 0.0]
        if s[0] > 0 and math.isfinite(s[0]):
            q = 2.0 ** (math.frexp(s[0])[1] - 1 - 9)
            s = [math.floor(s[0] / q) * q, s[1], math.floor(s[2] / q) * q]
        return s


def model_lod(q, placement, model):
    size, levels = SIZES[q['obj']]
    g = placement.gradients(q, size)
    if g is None:
        return 0
    (x, y), crosses = g
    lod = model.lod(x, y, not crosses, True)
    return int(max(0, min(256 * (levels - 1), lod)))


def misses_cubegrad(cubes, placement, model):
    """The cubegrad section's lines (texture_cube_grad_lod.py's lod ranges) the model misses."""
    bad = 0
    for q in cubes:
        size, levels = cube.OBJECTS[q['obj']]
        g = placement.gradients(q, size)
        if g is None:
            lod = -math.inf
        else:
            (x, y), crosses = g
            lod = model.lod(x, y, not crosses, True) / 256
        top = levels * 256 + 512
        j = -512 if math.isnan(lod) or lod < -2 else top if lod > levels + 2 else round(256 * lod)
        j = max(-512, min(top, j))
        bad += not q['range'][0] <= j <= q['range'][1]
    return bad


def misses(lines, placement, model):
    by = collections.Counter()
    for q in lines:
        by[q['obj'] + ' ' + q['sweep']] += model_lod(q, placement, model) != q['lod']
    return by


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    chip_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        root, 'tests/recorded/texture/texture_forms.chip.txt.xz')
    lines = section_lines(chip_path)
    if not lines:
        sys.exit(f'no cubegradlod lines in {chip_path}')
    table = chip_table()
    tex13 = gl.Model(table, 1409 / 4096, 9, 9, (True, True), True, True)
    tex17 = gl.Model(table, 1409 / 4096, 9, 9, (True, True), True, True, gl.SHARES)
    warpsim = (Placement('rcp', grad='parts'), tex17)
    if len(sys.argv) > 2:
        sim = section_lines(sys.argv[2])
        assert [(q['dir'], q['dx'], q['dy']) for q in sim] == \
            [(q['dir'], q['dx'], q['dy']) for q in lines]
        bad = sum(model_lod(q, *warpsim) != s['lod'] for q, s in zip(lines, sim))
        print(f'(warpsim) row against the simulator\'s output: {bad} of {len(sim)} differ')
    rows = [
        ('cube diagonals truncated (tex12)',
         (Placement(), gl.Model(table, 1409 / 4096, 9, 9, (True, False)))),
        ('cube diagonals rounded as a 2-d texture\'s (the whole length)',
         (Placement(), gl.Model(table, 1409 / 4096, 9, 9, (True, True)))),
        ('11/16 of the largest component rounded, the shares added',
         (Placement(), gl.Model(table, 1409 / 4096, 9, 9, (True, True), True))),
        ('... and every middle component at its own bits, diagonals\' too (not adopted)',
         (Placement(), MiddleExact(table))),
        ('... a gradient\'s middle component at its own bits (tex13)', (Placement(), tex13)),
        ('... samples\' components over the major axis, the quotient rounded to f32',
         (Placement('f32'), tex13)),
        ('... times the f32 reciprocal of the major axis, rounded to f32 (tex14)',
         (Placement('rcp'), tex13)),
        ('... the middle\'s shares rounded on its own grid, a diagonal\'s cut to 11/16 of the '
         'largest\'s (tex17)', (Placement('rcp'), tex17)),
        ('(warpsim) ... toward a neighbouring face the two distances to the edge, each cut to 9 '
         'bits (tex18)', warpsim),
    ]
    keys = sorted({q['obj'] + ' ' + q['sweep'] for q in lines},
                  key=lambda k: (-SIZES[k.split()[0]][0], k))
    print('misses per object and sweep (lines: ' +
          ', '.join(f'{k} {sum(q["obj"] + " " + q["sweep"] == k for q in lines)}'
                    for k in keys) + ')')
    warpsim_bin = os.path.join(root, 'build/bin/warpsim')
    cubes = None
    if shutil.which('nvcc') and os.path.exists(warpsim_bin):
        cubes = cube.chip_lines()
        cube.solve(cubes, warpsim_bin)
    print(' '.join(f'{k.replace(" ", ":"):>11}' for k in keys) + '  total cubegrad  model')
    for name, (placement, model) in rows:
        by = misses(lines, placement, model)
        c = misses_cubegrad(cubes, placement, model) if cubes else '-'
        print(' '.join(f'{by[k]:11d}' for k in keys) + f'  {sum(by.values()):5d} {c:>8}  {name}')


if __name__ == '__main__':
    main()
