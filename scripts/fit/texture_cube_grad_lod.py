#!/usr/bin/env python3
"""tex.grad's level of detail on cube maps (docs/FIDELITY.md "Texture and surface forms"),
reproducible.

Reads the chip's cubegrad section of tests/recorded/texture/texture_forms.chip.txt.xz. Every line
of it is a texCubemapGrad (texCubemapLayeredGrad) fetch; the level of detail the chip used follows
from its four result words: a copy of scripts/probes/texture/texture_forms_probe.cu whose kernel
fetches the same direction with tex.level at every lod j/256 (texCubemapLod; whole-level cube
fetches agree with the chip) and keeps the range of j whose words equal the chip's is built with
nvcc and run once under `warpsim exec` (about 40 s). Each row then scores one model by the lines
whose lod (rounded to 1/256) lies in that range: those with finite gradients, all of them, and all
within 2/256; the last row is the placement isa/insns/texture_mipmap.cpp (lodFromCubeGradients)
implements with the footprint arithmetic before the gradlod fit (the rows before it read level 0
for a NaN gradient and the last level for an infinite one); texture_gradlod.py scores the
current arithmetic on these lines (it imports this script's solve).

    python3 scripts/fit/texture_cube_grad_lod.py [build/bin/warpsim]
"""
import math
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
PROBE = os.path.join(ROOT, 'scripts/probes/texture/texture_forms_probe.cu')
CHIP = os.path.join(ROOT, 'tests/recorded/texture/texture_forms.chip.txt.xz')
# name: (face size, levels) as the probe's cubeSuite makes them
OBJECTS = {'GCp': (16, 5), 'GCl': (16, 5), 'GCs': (16, 5), 'GCb': (16, 5), 'GCAl': (8, 4),
           'GCAs': (8, 4)}

SOLVE = r'''
__global__ void cubeSolve(cudaTextureObject_t t, bool layered, const CubeSample* s, int n,
                          const float4* chip, int jlo, int jhi, int2* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const CubeSample q = s[i];
  const float4 c = chip[i];
  int first = 1 << 30, last = -(1 << 30);
  for (int j = jlo; j <= jhi; ++j) {
    const float lod = j / 256.0f;
    const float4 r = layered ? texCubemapLayeredLod<float4>(t, q.c[0], q.c[1], q.c[2], q.layer, lod)
                             : texCubemapLod<float4>(t, q.c[0], q.c[1], q.c[2], lod);
    if (__float_as_uint(r.x) == __float_as_uint(c.x) && __float_as_uint(r.y) == __float_as_uint(c.y) &&
        __float_as_uint(r.z) == __float_as_uint(c.z) && __float_as_uint(r.w) == __float_as_uint(c.w)) {
      first = min(first, j);
      last = max(last, j);
    }
  }
  out[i] = make_int2(first, last);
}
'''
LAUNCH = '''    cubeGrad<<<(n + 127) / 128, 128>>>(t, layered, ds, n, dout);
    if (!sync(o.name)) std::exit(1);
    std::vector<float4> out(n);
    CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost));
    printCube(o.name, layered, in, out);'''
SOLVE_LAUNCH = r'''    std::vector<float4> chip(n);
    FILE* f = std::fopen((std::string(std::getenv("CHIP_DIR")) + "/" + o.name).c_str(), "r");
    for (int k = 0; k < n; ++k) {
      unsigned w[4];
      if (std::fscanf(f, "%x %x %x %x", &w[0], &w[1], &w[2], &w[3]) != 4) std::exit(3);
      std::memcpy(&chip[k], w, 16);
    }
    std::fclose(f);
    float4* dchip;
    int2* dsol;
    CHECK(cudaMalloc(&dchip, n * sizeof(float4)));
    CHECK(cudaMalloc(&dsol, n * sizeof(int2)));
    CHECK(cudaMemcpy(dchip, chip.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    cubeSolve<<<(n + 127) / 128, 128>>>(t, layered, ds, n, dchip, -512, int(levels) * 256 + 512,
                                        dsol);
    if (!sync(o.name)) std::exit(1);
    std::vector<int2> sol(n);
    CHECK(cudaMemcpy(sol.data(), dsol, n * sizeof(int2), cudaMemcpyDeviceToHost));
    for (int k = 0; k < n; ++k) std::printf("solved %s %d %d %d\n", o.name, k, sol[k].x, sol[k].y);'''


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0] if math.isfinite(v) and abs(v) < 3e38 else v


def chip_lines():
    text = subprocess.run(['xz', '-dc', CHIP], capture_output=True, check=True, text=True).stdout
    section, out = None, []
    for line in text.splitlines():
        if line.startswith('== '):
            section = line[3:]
            continue
        p = line.split()
        if section != 'cubegrad' or len(p) < 3 or p[1] != 'cubegrad' or '=' not in p:
            continue
        i, j, eq = p.index('ddx'), p.index('ddy'), p.index('=')
        out.append({'obj': p[0], 'dir': [float.fromhex(x) for x in p[2:5]],
                    'dx': [float.fromhex(x) for x in p[i + 1:j]],
                    'dy': [float.fromhex(x) for x in p[j + 1:eq]], 'words': p[eq + 1:]})
    return out


def solve(lines, warpsim):
    """Each line's range [first, last] of lod j/256 whose tex.level fetch is the chip's."""
    src = open(PROBE).read()
    anchor = '// f32 x 4 texels of cube face (or layer) k'
    assert anchor in src and LAUNCH in src, 'the probe changed: update this script'
    src = src.replace(anchor, SOLVE + '\n' + anchor, 1).replace(LAUNCH, SOLVE_LAUNCH)
    with tempfile.TemporaryDirectory() as tmp:
        for name in OBJECTS:
            with open(os.path.join(tmp, name), 'w') as f:
                f.writelines(' '.join(q['words']) + '\n' for q in lines if q['obj'] == name)
        cu, exe = os.path.join(tmp, 'solve.cu'), os.path.join(tmp, 'solve')
        open(cu, 'w').write(src)
        subprocess.run(['nvcc', '-arch=sm_90', '-DONLY_SECTION=1', '-lcuda', '-o', exe, cu],
                       check=True, capture_output=True)
        run = subprocess.run([warpsim, 'exec', exe, 'cubegrad', '1'], check=True,
                             capture_output=True, text=True, env=dict(os.environ, CHIP_DIR=tmp))
    index = {}
    for name in OBJECTS:
        index[name] = [q for q in lines if q['obj'] == name]
    for line in run.stdout.splitlines():
        p = line.split()
        if p and p[0] == 'solved':
            index[p[1]][int(p[2])]['range'] = (int(p[3]), int(p[4]))


# ---- the 2-d footprint (isa/insns/texture_mipmap.cpp) ----------------------------------------

def chip_log2(rho):
    """chipLog2: the significand cut to 8 bits, a table of its log2 rounded up to 1/256, but
    entry 2 reading 4/256 (texture_grad_lod.py's last row)."""
    m, e = math.frexp(rho)
    i = int((2 * m - 1) * 256)
    return (e - 1) + (4 if i == 2 else math.ceil(256 * math.log2(1 + i / 256.0) - 1e-9)) / 256


def length(v):
    s = sorted([abs(a) for a in v] + [0] * (3 - len(v)), reverse=True)
    return s[0] + 87 / 256 * s[1] + 0.25 * s[2]


def footprint_lod(x, y, diagonals=True, rule=False):
    if not rule and any(math.isnan(a) for a in x + y):
        return -math.inf
    if not rule and any(math.isinf(a) for a in x + y):
        return math.inf
    terms = [length(x), length(y)]
    if diagonals:
        terms += [11 / 16 * length([a + b for a, b in zip(x, y)]),
                  11 / 16 * length([a - b for a, b in zip(x, y)])]
    rho = max(terms)
    return -math.inf if not rho > 0 else math.inf if math.isinf(rho) else chip_log2(rho)


# ---- cube faces ------------------------------------------------------------------------------

def face_of(d):
    ax, ay, az = map(abs, d)
    axis = 2 if az >= ax and az >= ay else 1 if ay >= ax else 0
    return axis, (1 if d[axis] >= 0 else -1)


def frame(face, d):
    """(sc, tc) of vector d in face's frame (cubeCoords' signed picks)."""
    axis, sign = face
    if axis == 2:
        return (d[0] if sign > 0 else -d[0]), -d[1]
    if axis == 1:
        return d[0], (d[2] if sign > 0 else -d[2])
    return (-d[2] if sign > 0 else d[2]), -d[1]


def plane(face, q):
    """q projected onto the plane of face (sc / ma, tc / ma with face's own axis)."""
    ma = face[1] * q[face[0]]
    sc, tc = frame(face, q)
    return (sc / ma, tc / ma) if ma > 0 else (math.nan, math.nan)


def edge_frames(face, g):
    """Unfolding face g's plane into face's: the axis along the shared edge, and face's frame of
    the direction toward g and of that axis."""
    third = 3 - face[0] - g[0]
    toward = [0, 0, 0]
    toward[g[0]] = g[1]
    along = [0, 0, 0]
    along[third] = 1
    return third, frame(face, toward), frame(face, along)


def unfolded(face, q):
    """q on its own face, unfolded across the edge into face's plane (lodFromCubeGradients)."""
    g = face_of(q)
    ma = abs(q[g[0]])
    if g[0] == face[0]:
        return plane(face, q) if g[1] == face[1] else (0.0, 0.0)
    third, (es, et), (fs, ft) = edge_frames(face, g)
    past, other = 2 - face[1] * q[face[0]] / ma, q[third] / ma
    return es * past + fs * other, et * past + ft * other


def samples_lod(q, size, place, clamp=None, drop_crossing=False):
    p = q['dir']
    face = face_of(p)
    c0 = place(face, p)
    grads, crosses = [], False
    for d in (q['dx'], q['dy']):
        s = [a + b for a, b in zip(p, d)]
        crosses |= face_of(s) != face
        c1 = place(face, s)
        if clamp is not None:
            c1 = [max(-clamp, min(clamp, v)) for v in c1]
        grads.append([f32((a - b) / 2) * size for a, b in zip(c1, c0)])
    return footprint_lod(grads[0], grads[1], not (drop_crossing and crosses))


def derivative_lod(q, size, quotient=True):
    """The model before: the derivative of the projection (the quotient rule)."""
    p = q['dir']
    face = face_of(p)
    ma = abs(p[face[0]])
    sc, tc = frame(face, p)
    grads = []
    for d in (q['dx'], q['dy']):
        dma = face[1] * d[face[0]] if quotient else 0
        ds, dt = frame(face, d)
        grads.append([f32((ds * ma - sc * dma) / (2 * ma * ma)) * size,
                      f32((dt * ma - tc * dma) / (2 * ma * ma)) * size])
    return footprint_lod(grads[0], grads[1])


def cube_point(q, rcp=False):
    """q on the cube's surface as tex.grad's samples are (cubePoint): each component over the
    largest magnitude (NaN left out), inf / inf is NaN; with rcp (tex14, what cubePoint does
    now) each component times the f32 reciprocal of the largest, rounded to f32; the face by
    comparisons a NaN fails (ties z, y, x; a NaN goes to z), its sign by >= 0 (+0 positive);
    NaN components read 0."""
    mags = [abs(v) for v in q if not math.isnan(v)]
    ma = max(mags) if mags else 0.0
    if not ma > 0:
        return None
    if math.isinf(ma):
        n = [math.nan if math.isinf(v) else 0.0 for v in q]
    elif rcp:
        r = f32(1 / ma)
        n = [f32(v * r) for v in q]
    else:
        n = [v / ma for v in q]
    ax, ay, az = (abs(v) for v in n)
    axis = 0 if ax > ay and ax > az else 1 if ay > az else 2
    sign = 1 if n[axis] >= 0 else -1
    n = [0.0 if math.isnan(v) else v for v in n]
    n[axis] = float(sign)
    return n, (axis, sign)


def placed(face, q, rcp=False):
    """Cube point q in face's coordinates and a third across it (unfoldedCoords): unfolded
    from a neighbouring face, 2 across the cube from the opposite one."""
    c = cube_point(q, rcp)
    if c is None:
        return [0.0, 0.0, 0.0], False  # a zero sample reads the face's centre
    n, g = c
    if g[0] == face[0]:
        sc, tc = frame(face, n)
        return [sc, tc, 0.0 if g[1] == face[1] else 2.0], g[1] != face[1]
    third, (es, et), (fs, ft) = edge_frames(face, g)
    past, other = 2 - face[1] * n[face[0]], n[third]
    return [es * past + fs * other, et * past + ft * other, 0.0], True


def placed_lod(q, size, rcp=False):
    """What isa/insns/texture_mipmap.cpp (lodFromCubeGradients) implements (with rcp: since
    tex14)."""
    p = q['dir']
    at = cube_point(p, rcp)
    if at is None:
        return -math.inf
    face = at[1]
    c0 = placed(face, p, rcp)[0]
    grads, crosses = [], False
    for d in (q['dx'], q['dy']):
        c1, crossed = placed(face, [f32(a + b) for a, b in zip(p, d)], rcp)  # added in f32
        crosses |= crossed
        grads.append([f32((a - b) / 2) * size for a, b in zip(c1, c0)])
    return footprint_lod(grads[0], grads[1], not crosses, rule=True)


MODELS = [
    ('derivative of the projection (the model before)', derivative_lod),
    ('derivative without the quotient term', lambda q, s: derivative_lod(q, s, False)),
    ('samples in the plane of the face', lambda q, s: samples_lod(q, s, plane)),
    ('samples in the plane, clamped to the face', lambda q, s: samples_lod(q, s, plane, 1)),
    ('samples unfolded across edges', lambda q, s: samples_lod(q, s, unfolded)),
    ('unfolded, no diagonals when one crosses',
     lambda q, s: samples_lod(q, s, unfolded, None, True)),
    ('... NaN, infinite and opposite-face samples placed (tex11)', placed_lod),
]


def main():
    warpsim = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'build/bin/warpsim')
    lines = chip_lines()
    solve(lines, warpsim)
    usable = [q for q in lines if q.get('range') and q['range'][0] <= q['range'][1]]
    finite = [q for q in usable if all(math.isfinite(v) for v in q['dx'] + q['dy'])]
    print(f'{len(usable)} lines of {len(lines)} imply a lod range, {len(finite)} of them with '
          f'finite gradients; right: finite, all (and all within 2/256)')
    for name, model in MODELS:
        right = right_finite = near = 0
        for q in usable:
            size, levels = OBJECTS[q['obj']]
            lod, top = model(q, size), levels * 256 + 512
            j = -512 if math.isnan(lod) or lod < -2 else top if lod > levels + 2 else round(256 * lod)
            j = max(-512, min(top, j))
            hit = q['range'][0] <= j <= q['range'][1]
            right += hit
            right_finite += hit and all(math.isfinite(v) for v in q['dx'] + q['dy'])
            near += q['range'][0] - 2 <= j <= q['range'][1] + 2
        print(f'{right_finite:6d} {right:6d} {near:6d}  {name}')


if __name__ == '__main__':
    main()
