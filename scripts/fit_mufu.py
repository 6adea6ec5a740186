#!/usr/bin/env python3
"""Derives the H200's MUFU interpolation tables from the chip's dense binades.

The method (found on tests/recorded/fastmath/*.d2.xz; docs/FIDELITY.md "The f32 MUFU functions"):
the input's fraction splits into a segment index (its top bits) and an offset j (the rest, nj
bits); the result's 24-bit significand Y (2^23 <= Y <= 2^24, the value scaled to [1, 2] times
the binade's scale) is

    Y = (C0 + C1 * j + C2 * S(j)) >> G        (integers; C0 holds the rounding constant)

where S(j) is j^2 from an array squarer that drops every partial-product bit of a column below
U (the carries those bits would have made are lost too), shifted right by U. Per segment this
is a linear model in (1, j, S): a linear program (maximize the margin by which every floor
clears a step; cutting planes over the 2^nj inputs) finds real coefficients, which times 2^G
round to integers; C0 is then the smallest integer inside the interval that every input
allows. Every result of the binade is checked against the tables at the end.

Usage: python3 scripts/fit_mufu.py [FUNCTION ...]   (rcp rsq sqrt ex2; default all)
Writes isa/sfu/tables/mufu_<function>.inc. Needs numpy and scipy.
"""
import os
import sys
import tempfile

import numpy as np
from scipy.optimize import linprog

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from device_fastmath_pack import unpack  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (dense file, input bits of the binade, segment bits, U, G, inputs left to a special case,
#        low input bits the unit ignores)
FUNCTIONS = {
    # [1, 2): 2^23 inputs, 128 segments of 2^16.
    "rcp": ("rcp_ftz_1_2", 23, 7, 17, 15, [], 0),
    # [1, 4): the exponent's parity and the 23 mantissa bits; 64 segments per binade of 2^17.
    # x = 1 gives exactly 1 (a power of four's root): handled by the code, not the table.
    "rsq": ("rsqrt_ftz_1_4", 24, 7, 19, 16, [0], 0),
    "sqrt": ("sqrt_ftz_1_4", 24, 7, 19, 17, [], 0),
    # [1, 2): the fraction's 23 bits; 64 segments of 2^17.
    "ex2": ("ex2_ftz_1_2", 23, 6, 19, 16, [], 0),
    # [1, 2) only (the one tanh binade committed): MUFU.TANH ignores the 3 low mantissa bits;
    # 8 segments of 2^17 of the remaining 20.
    "tanh": ("tanh_1_2", 23, 3, 19, 13, [], 3),
}


def truncated_square(j, nj, u):
    """j^2 summed from the partial products b_i b_k 2^(i+k) of columns >= u only."""
    b = [(j >> i) & 1 for i in range(nj)]
    s = np.zeros_like(j)
    for i in range(nj):
        if 2 * i >= u:
            s += b[i] << (2 * i)
        for k in range(i + 1, nj):
            if i + k + 1 >= u:
                s += (b[i] & b[k]) << (i + k + 1)
    return s >> u


def margin_fit(F, Y):
    """Real w maximizing t subject to Y + t <= F w <= Y + 1 - t (cutting planes). Only a guide:
    the integer coefficients derived from it are checked exactly."""
    n, k = F.shape
    sc = np.abs(F).max(0)
    G = F / sc
    w0, *_ = np.linalg.lstsq(G, Y + 0.5, rcond=None)
    Yc = Y - G @ w0
    act = set(np.random.default_rng(0).choice(n, min(4096, n), replace=False).tolist())
    for _ in range(60):
        idx = np.array(sorted(act))
        Gi, Yi = G[idx], Yc[idx]
        ones = np.ones((len(idx), 1))
        A = np.vstack([np.hstack([-Gi, ones]), np.hstack([Gi, ones])])
        b = np.concatenate([-Yi, Yi + 1])
        c = np.zeros(k + 1)
        c[-1] = -1
        for method in ("highs-ds", "highs-ipm"):
            r = linprog(c, A_ub=A, b_ub=b, bounds=[(None, None)] * k + [(None, 1)], method=method)
            if r.status == 0:
                break
        if r.status != 0:
            raise RuntimeError(r.message)
        dw, t = r.x[:k], r.x[-1]
        P = G @ dw
        viol = np.minimum(P - Yc, Yc + 1 - P) - t
        bad = np.where(viol < -1e-7)[0]
        if t < 0 or len(bad) == 0:
            return (w0 + dw) / sc, t
        act.update(bad[np.argsort(viol[bad])][:2000].tolist())
    return (w0 + dw) / sc, t  # near-converged: the exact integer check below decides


def significands(path):
    raw = tempfile.NamedTemporaryFile(suffix=".u32", delete=False).name
    unpack(path, raw)
    v = np.fromfile(raw, dtype=np.uint32).astype(np.int64)
    os.remove(raw)
    e = (v >> 23) & 0xFF
    return ((1 << 23) + (v & 0x7FFFFF)) << (e - e.min())


def fit(name):
    dense, nbits, segbits, u, g, special, drop = FUNCTIONS[name]
    every = significands(os.path.join(ROOT, "tests", "recorded", "fastmath", dense + ".d2.xz"))
    ignored = every.reshape(-1, 1 << drop)
    if (ignored != ignored[:, :1]).any():
        raise RuntimeError(f"{name}: the {drop} low input bits change a result")
    Y = every[::1 << drop]
    nj = nbits - segbits - drop
    j = np.arange(1 << nj, dtype=np.int64)
    S = truncated_square(j, nj, u)
    F = np.stack([j.astype(float), S.astype(float), np.ones(1 << nj)], 1)
    rows = []
    for seg in range(1 << segbits):
        keep = np.ones(1 << nj, bool)
        if seg == 0:
            keep[special] = False
        y = Y[seg << nj:(seg + 1) << nj]
        w, t = margin_fit(F[keep], y[keep].astype(float))
        if t <= 0:
            raise RuntimeError(f"{name} segment {seg}: no coefficients (margin {t})")
        best = None
        for d1 in (0, -1, 1, -2, 2):
            for d2 in (0, -1, 1, -2, 2):
                c1 = int(round(w[0] * 2**g)) + d1
                c2 = int(round(w[1] * 2**g)) + d2
                base = c1 * j[keep] + c2 * S[keep]
                lo = ((y[keep] << g) - base).max()
                hi = (((y[keep] + 1) << g) - base).min()
                if lo < hi:
                    best = (int(lo), c1, c2)
                    break
            if best:
                break
        if best is None:
            raise RuntimeError(f"{name} segment {seg}: no integer coefficients")
        rows.append(best)
    # Check every result of the binade against the tables (the C++ evaluates the same sum).
    C = np.array(rows, dtype=np.int64)
    seg = np.arange(Y.size) >> nj
    jj = np.arange(Y.size) & ((1 << nj) - 1)
    model = (C[seg, 0] + C[seg, 1] * jj + C[seg, 2] * S[jj]) >> g
    miss = np.flatnonzero(model != Y)
    expected = set(special)
    if set(miss.tolist()) != expected:
        raise RuntimeError(f"{name}: {len(miss)} results differ: {miss[:10]}")
    out = os.path.join(ROOT, "isa", "sfu", "tables", f"mufu_{name}.inc")
    with open(out, "w") as f:
        f.write(f"// MUFU.{name.upper()}: {{C0, C1, C2}} for each of {1 << segbits} segments "
                f"(offset bits {nj}, squarer columns from {u}, sum >> {g}).\n")
        f.write(f"// Generated by scripts/fit_mufu.py {name} from tests/recorded/fastmath/"
                f"{dense}.d2.xz; every result of that binade agrees.\n")
        for c0, c1, c2 in rows:
            f.write(f"{{{c0}, {c1}, {c2}}},\n")
    print(f"{name}: {len(rows)} segments; {Y.size - len(expected)} of {Y.size} results agree, "
          f"{len(expected)} left to a special case; wrote {os.path.relpath(out, ROOT)}")


def main():
    for name in sys.argv[1:] or list(FUNCTIONS):
        fit(name)


if __name__ == "__main__":
    main()
