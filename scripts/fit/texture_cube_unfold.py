#!/usr/bin/env python3
"""How a cube gradient is carried onto a neighbouring face (docs/FIDELITY.md "tex.grad on cube
maps: the distances to the edge", tex18), reproducible.

After tex17, 107 of cubegrad's 113 differing lines were samples on a face bordering P's, every
one 1/256 high under warpsim. warpsim unfolds such a sample to 2 - u past the edge of P's face
(u its coordinate toward P's face on its own) and takes the difference with P's coordinate in
one piece. The rule that reads them all (texture_cubegradlod.Placement's 'parts', what
isa/insns/texture_mipmap.cpp crossingGradient implements): toward the neighbour, P's distance to
the edge (1 less its coordinate toward it) and the sample's past it (1 - u), each in texels cut
to 9 bits of its significand, then added (the footprint cuts the sum again).

Each row changes one thing and is scored on every set: gradlod (2,113 lines), the mipmap
probes' 2-d and 3-d gradient lines (3,321), cubegradlod (10,755; its rot and edge sweeps apart),
cubegrad's lod ranges (11,088, when nvcc and build/bin/warpsim are there) and cuberot's rotm and
midm (2,313 each); the last column is cubegrad's lines whose winning gradient crosses (of the
3,940 with a crossing sample). 40 s.

    python3 scripts/fit/texture_cube_unfold.py [build/bin/warpsim]
"""
import collections
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import texture_cube_grad_lod as cube  # noqa: E402
import texture_cube_residuals as res  # noqa: E402
import texture_cubegradlod as cgl  # noqa: E402
import texture_gradlod as gl  # noqa: E402

f32 = cube.f32


def rounded(v, bits):
    """v rounded to nearest (ties up) at `bits` fractional bits of its significand."""
    if v == 0 or not math.isfinite(v):
        return v
    m, e = math.frexp(abs(v))
    return math.copysign(math.floor(m * 2 ** (bits + 1) + 0.5) / 2 ** (bits + 1) * 2 ** e, v)


class Crossing(cgl.Placement):
    """The 'parts' placement with one change: `mine` and `theirs` how P's and the sample's
    distance to the edge (texels) are held; `past(x)` the sample's distance past the edge for x =
    1 - u, `along(v, x)` its coordinate along the edge (geometry); `derivative`: the crossing
    gradient as the derivative of P's projection instead (the quotient rule in f32 with the f32
    reciprocal of P's major axis, the samples' face still deciding whether the diagonals count);
    `div` the placement's division ('rcp', 'exact', 'f32')."""

    def __init__(self, mine=None, theirs=None, past=None, along=None, derivative=False,
                 div='rcp'):
        super().__init__(div, grad='parts')
        cut9 = (lambda v: gl.cut(v, 9))
        self.mine, self.theirs = mine or cut9, theirs or cut9
        self.past, self.along, self.derivative = past, along, derivative

    def crossing(self, face, pn, d, p, size):
        if self.derivative:
            ma = face[1] * p[face[0]]
            r = f32(1 / ma)
            sc, tc = cube.frame(face, p)
            ds, dt = cube.frame(face, d)
            dma = face[1] * d[face[0]]
            return [f32(f32(f32(ds * ma) - f32(sc * dma)) * f32(r * r) / 2) * size,
                    f32(f32(f32(dt * ma) - f32(tc * dma)) * f32(r * r) / 2) * size, 0.0]
        n, g = self.point([f32(a + b) for a, b in zip(p, d)])
        third, (es, et), (fs, ft) = cube.edge_frames(face, g)
        x = 1 - face[1] * n[face[0]]
        other = n[third] if self.along is None else self.along(n[third], x)
        toward = (self.mine((1 - g[1] * pn[g[0]]) / 2 * size) +
                  self.theirs((x if self.past is None else self.past(x)) / 2 * size))
        along = f32((other - pn[third]) / 2) * size
        return [es * toward + fs * along, et * toward + ft * along, 0.0]


def rows():
    exact = (lambda v: v)
    cut = (lambda k: lambda v: gl.cut(v, k))
    fixed = (lambda k: lambda v: math.floor(v * 2 ** k) / 2 ** k)
    out = [
        ('tex17: the unfolded difference in one piece (2 - u less P\'s coordinate)',
         cgl.Placement('rcp')),
        ('tex18 (warpsim): the two distances to the edge each cut to 9 bits, then added',
         cgl.Placement('rcp', grad='parts')),
        ('  the two distances exact (tex17\'s sum, its last bits aside)',
         Crossing(exact, exact)),
        ('  only the sample\'s distance cut', Crossing(exact, None)),
        ('  only P\'s distance cut', Crossing(None, exact)),
        ('  each cut to 8 bits', Crossing(cut(8), cut(8))),
        ('  each cut to 10 bits', Crossing(cut(10), cut(10))),
        ('  each rounded to nearest at 9 bits', Crossing(*[lambda v: rounded(v, 9)] * 2)),
        ('  each in f32 (exact here)', Crossing(f32, f32)),
    ]
    for k in (8, 9, 10, 12):
        out.append((f'  each on a fixed-point grid of 2^-{k} texels, cut',
                    Crossing(fixed(k), fixed(k))))
    for k in (-1 / 64, -1 / 256, 1 / 256, 1 / 64):
        out.append((f'  past the edge (1 - u)(1 + {k:g} (1 - u)) (geometry)',
                    Crossing(past=lambda x, k=k: x * (1 + k * x))))
    for k in (-1 / 64, -1 / 256, 1 / 256, 1 / 64):
        out.append((f'  along the edge v (1 + {k:g} (1 - u)) (geometry)',
                    Crossing(along=lambda v, x, k=k: v * (1 + k * x))))
    out += [
        ('  the along-edge coordinate projected on P\'s plane, v / u',
         Crossing(along=lambda v, x: v / (1 - x) if x < 1 else v)),
        ('  crossing gradients as the derivative of P\'s projection (f32, quotient rule)',
         Crossing(derivative=True)),
        ('  samples placed by exact quotients (tex13)', Crossing(div='exact')),
        ('  samples placed by quotients rounded to f32', Crossing(div='f32')),
    ]
    return out


def crossing_misses(cubes, placement, model):
    """cubegrad's lines with a sample on another face that the model misses."""
    bad = 0
    for q in cubes:
        size, _ = cube.OBJECTS[q['obj']]
        g = placement.gradients(q, size)
        if g is not None and g[1]:
            bad += cgl.misses_cubegrad([q], placement, model)
    return bad


def main():
    warpsim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(res.ROOT, 'build/bin/warpsim')
    sets = res.Sets(warpsim)
    rot = cgl.section_lines(os.path.join(res.ROOT, cube.CHIP), 'cuberot')
    model = gl.Model(sets.table, 1409 / 4096, 9, 9, (True, True), True, True, gl.SHARES)
    print('gradl    2d  cube  rot edge  cubeg  rotm  midm  cross  candidate')
    for name, placement in rows():
        by = collections.Counter()
        for q in rot:
            by[q['sweep']] += cgl.model_lod(q, placement, model) != q['lod']
        c = crossing_misses(sets.cubes, placement, model) if sets.cubes else '-'
        print(f'{sets.row(model, placement)} {by["rotm"]:5d} {by["midm"]:5d} {c:>6}  {name}',
              flush=True)


if __name__ == '__main__':
    main()
