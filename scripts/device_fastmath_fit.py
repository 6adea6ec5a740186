#!/usr/bin/env python3
"""Tests a hypothesis about how the SFU builds an f32 MUFU result, on one committed dense binade.

For each segment (the top 7 mantissa bits; j = the low 16 bits) it asks a linear program whether
some real weights w make the chip's result exactly floor(F(j) . w) on all 65,536 inputs of the
segment, where the columns of F are the model's terms. It maximizes the margin (how far every
floor stays from a step); a negative margin proves the model CANNOT reproduce the chip, however
its coefficients are chosen. Prints the margin and the mismatches of the best fit.

Models (the columns besides the constant):
  lin        j, j^2                       (a plain quadratic: the published interpolator)
  bits       each bit of j, j^2           (a truncated multiplier for C1*j: per-bit weights)
  pairs      each radix-4 digit value, j^2
  booth      each Booth radix-4 digit value, j^2
  sqtruncU   each bit of j, floor(j^2 / 2^U)  (the squarer's output truncated)
  sqinK      each bit of j, (j >> K)^2        (the squarer's input truncated)
  pairsq     each bit of j and each product of two bits (any quadratic form in the bits)

Usage:
  python3 scripts/device_fastmath_pack.py --unpack tests/recorded/fastmath/rcp_ftz_1_2.d2.xz /tmp/rcp.u32
  python3 scripts/device_fastmath_fit.py /tmp/rcp.u32 bits 0 64 127
"""
import sys
import numpy as np
from scipy.optimize import linprog

N = 1 << 16


def columns(model, j):
    bits = [((j >> i) & 1).astype(float) for i in range(16)]
    sq = (j.astype(float) / N) ** 2
    if model == "lin":
        return [j.astype(float), sq]
    if model == "bits":
        return bits + [sq]
    if model in ("pairs", "booth"):
        cols = []
        if model == "pairs":
            for k in range(8):
                p = (j >> (2 * k)) & 3
                cols += [(p == v).astype(float) for v in (1, 2, 3)]
        else:
            jj = j << 1
            for k in range(9):
                d = np.array([0, 1, 1, 2, -2, -1, -1, 0])[(jj >> (2 * k)) & 7]
                cols += [(d == v).astype(float) for v in (-2, -1, 1, 2)]
        return cols + [sq]
    if model.startswith("sqtrunc"):
        u = int(model[7:])
        return bits + [((j * j) >> u).astype(float) * 2.0**u / N**2]
    if model.startswith("sqin"):
        k = int(model[4:])
        return bits + [((j >> k).astype(float) * 2**k / N) ** 2]
    if model == "pairsq":
        return bits + [bits[a] * bits[b] for a in range(16) for b in range(a + 1, 16)]
    sys.exit(f"unknown model {model!r}")


def fit(o, F):
    """Max-margin weights w with o + d <= F w <= o + 1 - d, by constraint generation."""
    k = F.shape[1]
    idx = np.union1d(np.arange(0, len(o), 64), [len(o) - 1])
    while True:
        Fi, oi = F[idx], o[idx]
        one = np.ones((len(idx), 1))
        A = np.vstack([np.hstack([-Fi, one]), np.hstack([Fi, one])])
        b = np.concatenate([-oi, oi + 1])
        c = np.zeros(k + 1)
        c[-1] = -1
        r = linprog(c, A_ub=A, b_ub=b, bounds=[(None, None)] * k + [(None, 1)], method="highs")
        w, d = r.x[:k], r.x[-1]
        p = F @ w
        err = np.maximum(o + d - p, p - (o + 1 - d))
        viol = np.nonzero(err > 1e-9)[0]
        if viol.size == 0:
            return d, np.count_nonzero(np.floor(p) != o)
        idx = np.union1d(idx, viol[np.argsort(err[viol])[::-1][:500]])


def main():
    path, model, segs = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]
    out = np.fromfile(path, dtype=np.uint32).astype(np.int64)
    # The result's significand in units of its binade's last place, continued across a binade
    # step (rcp(1) = 1 is one binade above the rest of [1,2)).
    e = (out >> 23) & 0xFF
    sig = ((out & 0x7FFFFF) | 0x800000) << (e - e.min())
    j = np.arange(N)
    F = np.stack([np.ones(N)] + columns(model, j), 1)
    for s in segs:
        o = sig[s * N:(s + 1) * N].astype(float)
        d, mism = fit(o - o[0], F)
        print(f"{model} segment {s}: margin {d:+.5f} ulp, best fit misses {mism} of {N}", flush=True)


if __name__ == "__main__":
    main()
