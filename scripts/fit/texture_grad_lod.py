#!/usr/bin/env python3
"""tex.grad's level-of-detail fit of docs/FIDELITY.md ("Mipmaps": tex.grad), reproducible.

Reads the chip's output of the two mipmap probes (tests/recorded/texture/mipmap_probe.h200.txt.xz
and mip_layered_probe.chip.txt.xz). For every gradient line of an f32 object with linear
filtering and linear mipmap filtering, no bias and no clamp (l1, l2, np2, l3, Ml1, Ml2), the
level of detail the chip used follows from its result: the line is a blend of the same object's
fetches at the whole levels of detail L and L + 1 at the same coordinates (the probe's tex.level
sweep), and the blend weight (the lod's fraction, truncated to 1/256) is where the result lies
between them. Each row scores one model by the lines whose lod it gives exactly; the last row is
what isa/insns/texture_mipmap.cpp (lodFromGradients) implemented before the gradlod fit
(texture_gradlod.py scores the current arithmetic on these lines too: all but np2's 36 and two
NaN lines of l3).

    python3 scripts/fit/texture_grad_lod.py
"""
import collections
import math
import os
import struct
import subprocess

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
FILES = ['tests/recorded/texture/mipmap_probe.h200.txt.xz',
         'tests/recorded/texture/mip_layered_probe.chip.txt.xz']
# name: (sizes, levels); all of them: bias 0, clamps [0, levels - 1]
OBJECTS = {'l1': ((64,), 7), 'l2': ((32, 16), 6), 'np2': ((20, 12), 5), 'l3': ((16, 8, 4), 5),
           'Ml1': ((64,), 7), 'Ml2': ((32, 16), 6)}


def word(s):
    return struct.unpack('<f', struct.pack('<I', int(s, 16)))[0]


def lines():
    for f in FILES:
        text = subprocess.run(['xz', '-dc', os.path.join(ROOT, f)], capture_output=True,
                              check=True, text=True).stdout
        yield from (l.split() for l in text.splitlines())


def load():
    """[(sizes, levels, ddx, ddy, implied lod in 1/256)] over every usable gradient line."""
    whole, grads = collections.defaultdict(dict), []
    for p in lines():
        if len(p) < 3 or p[0] not in OBJECTS:
            continue
        eq = p.index('=')
        res = [word(x) for x in p[eq + 1:]]
        layer = p[p.index('layer') + 1] if 'layer' in p else None
        end = p.index('layer') if 'layer' in p else None
        if 'lod' in p[2:]:
            i = p.index('lod', 2)
            lod = float.fromhex(p[i + 1])
            if math.isfinite(lod) and lod == int(lod) and lod >= 0:
                whole[(p[0], tuple(p[2:end or i]), layer)][int(lod)] = res
        elif 'ddx' in p:
            i, j = p.index('ddx'), p.index('ddy')
            grads.append((p[0], tuple(p[2:end or i]), layer,
                          [float.fromhex(x) for x in p[i + 1:j]],
                          [float.fromhex(x) for x in p[j + 1:eq]], res))
    out = []
    for name, coord, layer, dx, dy, res in grads:
        sizes, levels = OBJECTS[name]
        at = whole[(name, coord, layer)]
        best = None
        for lv in range(levels - 1):
            a, b = at.get(lv), at.get(lv + 1)
            if not a or not b or any(a[c] == b[c] for c in range(4)):
                continue
            w = [(res[c] - a[c]) / (b[c] - a[c]) * 256 for c in range(4)]
            m = sum(w) / 4
            if -0.3 <= m <= 256.3 and max(w) - min(w) < 1:
                e = abs(m - round(m))
                if best is None or e < best[1]:
                    best = (lv * 256 + round(m), e)
        if best is not None:
            out.append((sizes, levels, dx, dy, best[0]))
    return out


def exact_length(v):
    return math.sqrt(sum(a * a for a in v))


def estimated(mid, low):
    """A length estimated from the components: the largest, `mid` of the middle, `low` of the
    smallest."""
    def length(v):
        s = sorted((abs(a) for a in v), reverse=True) + [0, 0]
        return s[0] + mid * s[1] + low * s[2]
    return length


def exact_log2(r):
    return math.log2(r)


def chip_log2(r, entry2=None):
    """The significand cut to 8 fractional bits, its log2 rounded up to 1/256 (entry 2 of the
    table replaced by entry2/256 if given)."""
    m, e = math.frexp(r)
    i = math.floor((2 * m - 1) * 256)
    if i == 2 and entry2 is not None:
        return e - 1 + entry2 / 256
    return e - 1 + math.ceil(256 * math.log2(1 + i / 256) - 1e-9) / 256


def model(length, log2, diagonal):
    def lod(x, y):
        terms = [length(x), length(y)]
        if diagonal:
            terms += [diagonal * length([a + b for a, b in zip(x, y)]),
                      diagonal * length([a - b for a, b in zip(x, y)])]
        r = max(terms)
        if not r > 0:
            return -math.inf
        return math.inf if math.isinf(r) else log2(r)
    return lod


def score(data, lod):
    good = 0
    for sizes, levels, dx, dy, want in data:
        x = [a * s for a, s in zip(dx, sizes)]
        y = [a * s for a, s in zip(dy, sizes)]
        l = min(max(lod(x, y), 0), levels - 1)
        good += math.floor(l * 256) == want
    return good


def main():
    data = load()
    rows = [
        ('log2 of the longer gradient, exact (the guide; the model before)',
         model(exact_length, exact_log2, 0)),
        ('... the chip\'s log2 (significand cut to 8 bits, log2 rounded up to 1/256)',
         model(exact_length, chip_log2, 0)),
        ('... and the diagonals (sum, difference) at 11/16', model(exact_length, chip_log2, 11 / 16)),
        ('... the diagonals at 1/sqrt(2)', model(exact_length, chip_log2, 2 ** -0.5)),
        ('... lengths estimated: max + 11/32 mid + 1/4 min',
         model(estimated(11 / 32, 1 / 4), chip_log2, 11 / 16)),
        ('... max + 87/256 mid + 1/4 min',
         model(estimated(87 / 256, 1 / 4), chip_log2, 11 / 16)),
        ('... the log2 table\'s entry 2 (1 + 2/256) reading 4/256, not 3 (lodFromGradients)',
         model(estimated(87 / 256, 1 / 4), lambda r: chip_log2(r, 4), 11 / 16)),
    ]
    print(f'{len(data)} gradient lines with an implied level of detail')
    for what, lod in rows:
        print(f'{score(data, lod):5d}  {what}')


if __name__ == '__main__':
    main()
