#!/usr/bin/env python3
"""The texture-filter fit of docs/FIDELITY.md ("Textures"), reproducible.

Reads the H200 recording (tests/recorded/texture/h200.txt: random textures, coordinates and the
chip's results, from scripts/device_texture.sh) and scores models of the chip's linear filter by
the lanes whose four result words they reproduce bit for bit. Each row of the table adds one
finding to the row above; the last row is what isa/insns/texture_sample.cpp implements (its
TextureReplay.RecordedOnTheH200 count must equal the last row's).

    python3 scripts/fit/texture_filter.py [RECORDING]
"""
import itertools
import math
import struct
import sys
from fractions import Fraction

import numpy as np

F = np.float32
BYTES = {'u8': 1, 's8': 1, 'u16': 2, 's16': 2, 'u32': 4, 's32': 4, 'f16': 2, 'f32': 4}


def f32(word):
    return struct.unpack('<f', struct.pack('<I', word))[0]


def bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def load(path):
    cases, cur = [], None
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == 'case':
            cur = {'id': w[1]}
            cases.append(cur)
        elif w[0] == 'texture':
            cur.update(kv.split('=') for kv in w[1:])
        elif w[0] == 'border':
            cur['border'] = [f32(int(x, 16)) for x in w[1:]]
        elif w[0] == 'texels':
            cur['texels'] = bytes.fromhex(''.join(w[1:]))
        elif w[0] == 'coords':
            cur['coords'] = [f32(int(x, 16)) for x in w[1:]]
        elif w[0] == 'results':
            cur['results'] = [int(x, 16) for x in w[1:]]
    return cases


def raw(c, idx, ch):
    n, fmt = int(c['channels']), c['format']
    b = c['texels'][(idx * n + ch) * BYTES[fmt]:(idx * n + ch + 1) * BYTES[fmt]]
    return struct.unpack('<' + {'u8': 'B', 's8': 'b', 'u16': 'H', 's16': 'h', 'u32': 'I',
                                's32': 'i', 'f16': 'e', 'f32': 'f'}[fmt], b)[0]


def as_float(c, v):
    fmt, norm = c['format'], c['read'] == 'norm'
    if fmt in ('f32', 'f16') or not norm:
        return float(v)
    return {'u8': lambda: v / 255, 's8': lambda: max(v / 127, -1), 'u16': lambda: v / 65535,
            's16': lambda: max(v / 32767, -1)}[fmt]()


def widened16(c, v, m):
    if c['format'] == 'u8':
        return v * 257
    if c['format'] == 's8' and m['s8_eighths']:
        # v / 127 in units of 1/32767, floored to eighths: three bits below the 16.
        return Fraction(math.floor(Fraction(max(v, -127) * 32767 * 8, 127)), 8)
    if c['format'] == 's8':
        m = min(abs(v), 127)
        r = (m << 8) | (m << 1) | (m >> 6)
        return -r if v < 0 else r
    return v


def address(i, n, mode):
    if mode == 'clamp':
        return min(max(i, 0), n - 1)
    if mode == 'border':
        return i if 0 <= i < n else None
    if mode == 'wrap':
        return i % n
    p = i % (2 * n)
    return p if p < n else 2 * n - 1 - p


def axis(x, n, c, m):
    """[(index or None, weight in 1/256)] of one axis."""
    mode, x = c['address'], F(x)
    if c['norm'] == '1' and m.get('coord_bits'):
        # The chip holds the normalized coordinate in fixed point, truncated to coord_bits
        # fractional bits; wrap and mirror fold it there, and the scaling by N is exact.
        one = 1 << m['coord_bits']
        q = math.floor(float(x) * one)
        if mode == 'wrap':
            q %= one
        elif mode == 'mirror':
            q = q % one if (q // one) % 2 == 0 else one - q % one
        u = q * n / one
    elif c['norm'] == '1':
        if mode == 'wrap':
            x = F(x - F(np.floor(x)))
        elif mode == 'mirror':
            fl = np.floor(x)
            fr = F(x - F(fl))
            x = fr if int(fl) % 2 == 0 else F(F(1) - fr)
        u = F(x * F(n))
    else:
        u = x
        mode = 'clamp' if mode in ('wrap', 'mirror') else mode
    if c['filter'] == 'point':
        return [(address(int(np.floor(u)), n, mode), 256)]
    xb = float(u) - 0.5
    i = math.floor(xb)
    a = math.floor((xb - i) * 256 + 0.5) if m['half_up'] else round((xb - i) * 256)
    return [(address(i, n, mode), 256 - a), (address(i + 1, n, mode), a)]


def round_half_away(x, digits, emin):
    """The rational x rounded to a float of `digits` significant bits (exponents down to emin,
    subnormal below), ties away from zero."""
    if x == 0:
        return x
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    step = Fraction(2) ** (max(e, emin) - digits + 1)
    q = math.floor(a / step + Fraction(1, 2))
    return (q * step) if x > 0 else -(q * step)


def rhu(p):
    return (p + 128) // 256


def weights(axes, m):
    if len(axes) == 1 or len(axes[0]) == 1 or not m['rounded_products']:
        out = []
        for combo in itertools.product(*axes):
            w = 1
            for _, wi in combo:
                w *= wi
            out.append(w / 256 ** (len(combo) - 1))
        return out
    if len(axes) == 2:
        a, b = axes[0][1][1], axes[1][1][1]
        w11 = rhu(a * b)
        return [256 - a - b + w11, b - w11, a - w11, w11]  # (i,j) (i,j+1) (i+1,j) (i+1,j+1)
    a, b, cz = axes[0][1][1], axes[1][1][1], axes[2][1][1]
    ws = {}
    for ix, wx in ((0, 256 - a), (1, a)):
        if m['mirrored3'] and ix == 1:
            # The second x texel's half is split as the first's mirror image: its z split
            # rounds the first texel's share, its y split the second's.
            z0 = rhu(wx * (256 - cz))
            z1 = wx - z0
        else:
            z1 = rhu(wx * cz)
        for iz, wz in ((0, wx - z1), (1, z1)):
            if m['mirrored3'] and ix == 1:
                y1 = rhu(wz * b)
                y0 = wz - y1
            else:
                y0 = rhu(wz * (256 - b))
            ws[(ix, 0, iz)], ws[(ix, 1, iz)] = y0, wz - y0
    return [ws[k] for k in itertools.product((0, 1), repeat=3)]


def sample(c, lane, m):
    d = int(c['dims'])
    sizes = [int(c['width']), int(c['height']), int(c['depth'])]
    co = c['coords'][lane * 3:lane * 3 + 3]
    axes = [axis(co[k], sizes[k], c, m) for k in range(d)]
    if d == 1 and c['filter'] == 'linear' and m['y0_for_1d']:
        axes.append(axis(0.0, 1, c, m))
        sizes = [sizes[0], 1, 1]
    taps = []
    for combo in itertools.product(*axes):
        idx, mul = 0, 1
        for k, (i, _) in enumerate(combo):
            if i is None:
                idx = None
                break
            idx += i * mul
            mul *= sizes[k]
        taps.append(idx)
    ws = weights(axes, m)
    out = []
    for ch in range(4):
        if ch >= int(c['channels']):
            out.append(0)
            continue
        if len(taps) == 1:
            v = c['border'][ch] if taps[0] is None else as_float(c, raw(c, taps[0], ch))
            out.append(bits(float(F(v))) if c['format'] in ('f32', 'f16') or c['read'] == 'norm'
                       else int(v) & 0xffffffff)
            continue
        fixed = m['fixed16'] and c['format'] in ('u8', 's8', 'u16', 's16')
        if fixed:
            den = 32767 if c['format'][0] == 's' else 65535
            s = sum(w * (round(c['border'][ch] * den) if t is None
                         else widened16(c, raw(c, t, ch), m)) for t, w in zip(taps, ws))
            r = math.floor(s / 256 + Fraction(1, 2)) / den
            v = max(r, -1.0) if den == 32767 else r
        else:
            v = sum(w * (c['border'][ch] if t is None else as_float(c, raw(c, t, ch)))
                    for t, w in zip(taps, ws)) / 256
            if m['half_away']:
                exact = sum(Fraction(w) * Fraction(c['border'][ch] if t is None
                                                   else as_float(c, raw(c, t, ch)))
                            for t, w in zip(taps, ws)) / 256
                f16 = c['format'] == 'f16' and m['f16_sum']
                v = float(round_half_away(exact, 11 if f16 else 24, -14 if f16 else -126))
            elif c['format'] == 'f16' and m['f16_sum']:
                v = float(np.float16(v))
        out.append(bits(float(F(v))))
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else 'tests/recorded/texture/h200.txt'
    cases = load(path)
    steps = [('the guide: exact products, round-to-nearest-even weights', {}),
             ('+ weights round half up', {'half_up': 1}),
             ('+ a 1-d texture is 2-d at y = 0', {'y0_for_1d': 1}),
             ('+ weight products rounded to 8 bits, axis sums kept', {'rounded_products': 1}),
             ('+ normalized 8/16-bit formats in 16-bit fixed point', {'fixed16': 1}),
             ('+ f16 sums rounded to f16', {'f16_sum': 1}),
             ('+ normalized coordinates truncated to 20 fraction bits', {'coord_bits': 20}),
             ('+ float sums rounded once, ties away from zero', {'half_away': 1}),
             ('+ s8 widened to eighths of the 16-bit unit, floored', {'s8_eighths': 1}),
             ('+ 3-d: the second x texel splits z and y mirrored', {'mirrored3': 1})]
    m = {k: 0 for _, s in steps for k in s}
    print('%-58s %8s %8s' % ('model', 'lanes', 'cases'))
    for name, change in steps:
        m.update(change)
        lanes = ok_cases = 0
        for c in cases:
            good = sum(sample(c, l, m) == c['results'][l * 4:l * 4 + 4] for l in range(32))
            lanes += good
            ok_cases += good == 32
        print('%-58s %8d %8d' % (name, lanes, ok_cases))
    print('of %d lanes in %d cases' % (32 * len(cases), len(cases)))


if __name__ == '__main__':
    main()
