#!/usr/bin/env python3
"""Random inputs through ptxas's m8n8k4 f16 routines (the SASS expressions that m8n8k4_sass.py
derives, evaluated with exact f32 arithmetic rounding to nearest; NaN results canonical, as the
chip's FFMA/FADD/F2FP give them) against `warpsim run` of the same PTX: every D word of the 12
forms, over TRIALS launches each (random words, narrow exponents, a large C in turn).

Usage: python3 scripts/probes/mma/m8n8k4_values.py WARPSIM [SEED [TRIALS [NVDISASM]]]
Prints the differing words per form; exits 1 when any differs.
"""
import os
import random
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import m8n8k4_sass as S  # noqa: E402

WS = sys.argv[1]
NVD = sys.argv[4] if len(sys.argv) > 4 else 'nvdisasm'
NAN = ('nan',)
def f16val(h):
    s = -1 if h & 0x8000 else 1; e = (h >> 10) & 31; m = h & 1023
    if e == 31: return NAN if m else ('inf', s)
    if e == 0: v = F(m, 1 << 24)
    else: v = F(1024 + m) * F(2) ** (e - 25)
    return (s * v, s < 0)
def f32val(b):
    s = -1 if b >> 31 else 1; e = (b >> 23) & 255; m = b & 0x7FFFFF
    if e == 255: return NAN if m else ('inf', s)
    if e == 0: v = F(m) * F(2) ** -149
    else: v = F(0x800000 + m) * F(2) ** (e - 150)
    return (s * v, s < 0)
def rnd(v, negzero, man, emin, emax):
    # v Fraction; returns value tuple rounded to format with `man` fraction bits
    if v == 0: return (F(0), negzero)
    s = -1 if v < 0 else 1; a = abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if F(2) ** e > a: e -= 1
    e = max(e, emin)
    q = F(2) ** (e - man)
    n = a / q; fl = n.numerator // n.denominator; r = n - fl
    if r > F(1, 2) or (r == F(1, 2) and fl % 2 == 1): fl += 1
    res = fl * q
    if res >= F(2) ** (emax + 1): return ('inf', s)
    if res == 0: return (F(0), s < 0)
    return (s * res, s < 0)
def r32(v, nz): return rnd(v, nz, 23, -126, 127)
def add(x, y):
    if x == NAN or y == NAN: return NAN
    if x[0] == 'inf' or y[0] == 'inf':
        if x[0] == 'inf' and y[0] == 'inf' and x[1] != y[1]: return NAN
        return x if x[0] == 'inf' else y
    v = x[0] + y[0]
    return r32(v, x[1] and y[1] if v == 0 and x[0] == 0 and y[0] == 0 else False)
def mul(x, y):
    if x == NAN or y == NAN: return NAN
    sx = (x[1] if x[0] != 'inf' else x[1] < 0); sy = (y[1] if y[0] != 'inf' else y[1] < 0)
    if x[0] == 'inf' or y[0] == 'inf':
        z = (x[0] != 'inf' and x[0] == 0) or (y[0] != 'inf' and y[0] == 0)
        if z: return NAN
        return ('inf', -1 if sx != sy else 1)
    v = x[0] * y[0]
    return r32(v, sx != sy)
def fma(a, b, c):
    if a == NAN or b == NAN or c == NAN: return NAN
    p_inf = a[0] == 'inf' or b[0] == 'inf'
    if p_inf:
        p = mul(a, b)
        if p == NAN: return NAN
        return add(p, c)
    sp = a[1] != b[1]; pv = a[0] * b[0]
    if c[0] == 'inf': return c
    v = pv + c[0]
    nz = (sp and c[1]) if v == 0 and pv == 0 and c[0] == 0 else False
    return r32(v, nz)
def bits32(x):
    if x == NAN: return 0x7FFFFFFF
    if x[0] == 'inf': return 0xFF800000 if x[1] < 0 else 0x7F800000
    v, neg = x
    return struct.unpack('<I', struct.pack('<f', float(v)))[0] | (0x80000000 if neg else 0)
def bits16(x):
    if x == NAN: return 0x7FFF
    if x[0] == 'inf': return 0xFC00 if x[1] < 0 else 0x7C00
    r = rnd(x[0], x[1], 10, -14, 15)
    if r[0] == 'inf': return 0xFC00 if r[1] < 0 else 0x7C00
    v, neg = r
    return struct.unpack('<H', struct.pack('<e', float(v)))[0] | (0x8000 if neg else 0)
def ev(e, words, cHalf):
    t = e[0]
    if t == 'zero': return (F(0), False)
    if t == 'cvt':
        nm, l, h = e[1]
        w = words[l][nm]
        return f16val((w >> (16 * h)) & 0xFFFF)
    if t == 'in': return f32val(words[e[2]][e[1]])
    if t == 'fma': return fma(ev(e[1], words, cHalf), ev(e[2], words, cHalf), ev(e[3], words, cHalf))
    if t == 'mul': return mul(ev(e[1], words, cHalf), ev(e[2], words, cHalf))
    if t == 'add': return add(ev(e[1], words, cHalf), ev(e[2], words, cHalf))
    raise Exception(t)
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
def rand16(mode):
    if mode == 0: return rng.getrandbits(16)
    s = rng.getrandbits(1) << 15; e = 15 + rng.randint(-2, 2); return s | (e << 10) | rng.getrandbits(10)
def rand32c(mode):
    if mode == 0: return rng.getrandbits(32)
    s = rng.getrandbits(1) << 31; e = 127 + rng.randint(-2, 14 if mode == 2 else 2); return s | (e << 23) | rng.getrandbits(23)
def rand16c(mode):
    if mode == 0: return rng.getrandbits(16)
    s = rng.getrandbits(1) << 15; e = 15 + rng.randint(-2, 12 if mode == 2 else 2); return s | (e << 10) | rng.getrandbits(10)
tot = bad = 0
with tempfile.TemporaryDirectory() as tmp:
  for al in ('row', 'col'):
    for bl in ('row', 'col'):
      for d, c in (('f16', 'f16'), ('f32', 'f16'), ('f32', 'f32')):
        ptx = os.path.join(tmp, 'k.ptx'); cub = os.path.join(tmp, 'k.cubin')
        open(ptx, 'w').write(S.kernel_ptx(al, bl, d, c))
        subprocess.run(['ptxas', '-arch=sm_90', ptx, '-o', cub], check=True)
        sass = subprocess.run([NVD, '-c', cub], check=True, capture_output=True, text=True).stdout
        cHalf = c == 'f16'
        outs = S.run(sass, cHalf)
        nc = 4 if cHalf else 8
        fb = 0
        for trial in range(int(sys.argv[3]) if len(sys.argv) > 3 else 20):
          mode = trial % 3
          words = []
          buf = [0] * (32 * 32)
          for l in range(32):
            w = {}
            for nm in ('a0', 'a1', 'b0', 'b1'): w[nm] = rand16(mode) | rand16(mode) << 16
            for i in range(nc):
              w['c%d' % i] = (rand16c(mode) | rand16c(mode) << 16) if cHalf else rand32c(mode)
            words.append(w)
            for j, nm in enumerate(('a0', 'a1', 'b0', 'b1')): buf[l * 32 + j] = w[nm]
            for i in range(nc): buf[l * 32 + 4 + i] = w['c%d' % i]
          inp = os.path.join(tmp, 'in.bin'); outp = os.path.join(tmp, 'out.bin')
          open(inp, 'wb').write(struct.pack('<1024I', *buf))
          r = subprocess.run([WS, 'run', ptx, '--kernel', 'k', '--grid', '1', '--block', '32',
                              '--arg', 'p=u32[1024]:file(%s)' % inp, '--dump', 'p:%s' % outp],
                             capture_output=True, text=True)
          if r.returncode: print(r.stdout, r.stderr); sys.exit(1)
          got = struct.unpack('<1024I', open(outp, 'rb').read())
          for (l, reg), e in outs.items():
            if cHalf and d == 'f16':
              want = bits16(ev(e[1][1], words, cHalf)) | bits16(ev(e[2][1], words, cHalf)) << 16
            else:
              want = bits32(ev(e, words, cHalf))
            g = got[l * 32 + 16 + reg]
            tot += 1
            if g != want:
              bad += 1; fb += 1
              if fb <= 3: print(al, bl, d, c, 'mode', mode, 'lane', l, 'reg', reg, hex(g), 'want', hex(want))
        print(al, bl, d, c, 'differing words', fb)
print('total words', tot, 'differing', bad)
sys.exit(1 if bad else 0)
