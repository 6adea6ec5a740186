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

The other three (fitted 2026-12-05) compute a fixed-point value with the same interpolator and
then make it a float: TANH has a table per binade of x in [2^-8, 8) whose sum is normalized
(a result one binade lower keeps one more bit); LG2 adds the exponent to log2(1.m) with 36
fraction bits, takes a negative sum's one's complement and truncates; SIN/COS read the fraction
of a turn (25 bits), its quadrant, and one table of sin over the quarter turn, truncated. Their
results need not fall on one grid, so each result bounds the sum to an interval [lo, lo + width)
of its own (the same linear program with per-input widths); several binades that read the same
table (lg2's three, sin's and cos's six) are fitted to the intersection of their intervals.

Usage: python3 scripts/fit_mufu.py [FUNCTION ...]   (rcp rsq sqrt ex2 tanh lg2 sincos; default
all: 1 min on an idle 2-core machine). Writes isa/sfu/tables/mufu_<function>.inc (and
mufu_tanh_binades.inc). Needs numpy and scipy.
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


def margin_fit(F, Y, W=None):
    """Real w maximizing t subject to Y + t <= F w <= Y + W - t (cutting planes; W = 1 unless
    given per point). Only a guide: the integer coefficients derived from it are checked
    exactly."""
    n, k = F.shape
    W = np.ones(n) if W is None else W
    sc = np.abs(F).max(0)
    G = F / sc
    w0, *_ = np.linalg.lstsq(G, Y + W / 2, rcond=None)
    Yc = Y - G @ w0
    act = set(np.random.default_rng(0).choice(n, min(4096, n), replace=False).tolist())
    for _ in range(60):
        idx = np.array(sorted(act))
        Gi, Yi = G[idx], Yc[idx]
        ones = np.ones((len(idx), 1))
        A = np.vstack([np.hstack([-Gi, ones]), np.hstack([Gi, ones])])
        b = np.concatenate([-Yi, Yi + W[idx]])
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
        viol = np.minimum(P - Yc, Yc + W - P) - t
        bad = np.where(viol < -1e-7)[0]
        if t < 0 or len(bad) == 0:
            return (w0 + dw) / sc, t
        act.update(bad[np.argsort(viol[bad])][:2000].tolist())
    return (w0 + dw) / sc, t  # near-converged: the exact integer check below decides


def outputs(dense):
    """The raw f32 results of a committed dense binade."""
    raw = tempfile.NamedTemporaryFile(suffix=".u32", delete=False).name
    unpack(os.path.join(ROOT, "tests", "recorded", "fastmath", dense + ".d2.xz"), raw)
    v = np.fromfile(raw, dtype=np.uint32).astype(np.int64)
    os.remove(raw)
    return v


def significands(v):
    e = (v >> 23) & 0xFF
    return ((1 << 23) + (v & 0x7FFFFF)) << (e - e.min())


def drop_ignored(name, v, drop):
    ignored = v.reshape(-1, 1 << drop)
    if (ignored != ignored[:, :1]).any():
        raise RuntimeError(f"{name}: the {drop} low input bits change a result")
    return v[::1 << drop]


def fit_segments(name, lo, width, shift, nj, u, special=(), measured=None):
    """Integer {C0, C1, C2} per segment of 2^nj inputs such that every sum C0 + C1 j + C2 S(j)
    lies in [lo << shift, (lo + width) << shift) (where measured, if given)."""
    j = np.arange(1 << nj, dtype=np.int64)
    S = truncated_square(j, nj, u)
    F = np.stack([j.astype(float), S.astype(float), np.ones(1 << nj)], 1)
    rows = []
    for seg in range(lo.size >> nj):
        keep = np.ones(1 << nj, bool) if measured is None else \
            measured[seg << nj:(seg + 1) << nj].copy()
        if seg == 0:
            keep[list(special)] = False
        y = lo[seg << nj:(seg + 1) << nj][keep]
        wy = width[seg << nj:(seg + 1) << nj][keep]
        w, t = margin_fit(F[keep], y.astype(float), wy.astype(float))
        if t <= 0:
            raise RuntimeError(f"{name} segment {seg}: no coefficients (margin {t})")
        best = None
        for d1 in (0, -1, 1, -2, 2):
            for d2 in (0, -1, 1, -2, 2):
                c1 = int(round(w[0] * 2**shift)) + d1
                c2 = int(round(w[1] * 2**shift)) + d2
                base = c1 * j[keep] + c2 * S[keep]
                c0 = ((y << shift) - base).max()
                if c0 < (((y + wy) << shift) - base).min():
                    best = (int(c0), c1, c2)
                    break
            if best:
                break
        if best is None:
            raise RuntimeError(f"{name} segment {seg}: no integer coefficients")
        rows.append(best)
    return rows


def interpolate(rows, fraction, nj, u, g):
    """(C0 + C1 j + C2 S(j)) >> g, as isa/sfu/mufu.cpp evaluates it (before the >> g)."""
    C = np.array(rows, dtype=np.int64)
    seg = fraction >> nj
    j = fraction & ((1 << nj) - 1)
    S = truncated_square(np.arange(1 << nj, dtype=np.int64), nj, u)
    return C[seg, 0] + C[seg, 1] * j + C[seg, 2] * S[j]


def write_table(name, rows, header):
    out = os.path.join(ROOT, "isa", "sfu", "tables", f"mufu_{name}.inc")
    with open(out, "w") as f:
        f.write(header)
        for c0, c1, c2 in rows:
            f.write(f"{{{c0}, {c1}, {c2}}},\n")
    return os.path.relpath(out, ROOT)


def fit(name):
    dense, nbits, segbits, u, g, special, drop = FUNCTIONS[name]
    Y = significands(drop_ignored(name, outputs(dense), drop))
    nj = nbits - segbits - drop
    rows = fit_segments(name, Y, np.ones_like(Y), g, nj, u, special)
    # Check every result of the binade against the tables (the C++ evaluates the same sum).
    model = interpolate(rows, np.arange(Y.size), nj, u, g) >> g
    miss = np.flatnonzero(model != Y)
    expected = set(special)
    if set(miss.tolist()) != expected:
        raise RuntimeError(f"{name}: {len(miss)} results differ: {miss[:10]}")
    out = write_table(name, rows,
                      f"// MUFU.{name.upper()}: {{C0, C1, C2}} for each of {1 << segbits} segments "
                      f"(offset bits {nj}, squarer columns from {u}, sum >> {g}).\n"
                      f"// Generated by scripts/fit_mufu.py {name} from tests/recorded/fastmath/"
                      f"{dense}.d2.xz; every result of that binade agrees.\n")
    print(f"{name}: {len(rows)} segments; {Y.size - len(expected)} of {Y.size} results agree, "
          f"{len(expected)} left to a special case; wrote {out}")


TANH_NJ, TANH_U = 17, 19
TANH_G = range(13, 20)  # per binade the smallest G that integer coefficients allow
# MUFU.TANH's binades of x in [2^-8, 8): (dense file, exponent of x, low mantissa bits the unit
# ignores). Below 2^-8 the unit returns x, from 8 on +-1 (docs/FIDELITY.md).
TANH_BINADES = [
    ("tanh_e8", -8, 6), ("tanh_e7", -7, 6), ("tanh_e6", -6, 6), ("tanh_e5", -5, 5),
    ("tanh_e4", -4, 5), ("tanh_e3", -3, 4), ("tanh_e2", -2, 4), ("tanh_h_1", -1, 4),
    ("tanh_1_2", 0, 3), ("tanh_2_4", 1, 2), ("tanh_4_8", 2, 3),
]


def tanh_model(rows, k, drop, g):
    """The f32 bits of MUFU.TANH for every positive x of binade k, as isa/sfu/mufu.cpp computes
    them: the sum >> G is the significand at the binade's top exponent min(k, -1); below 2^23
    the result is one binade lower and keeps one more bit (sum >> (G - 1))."""
    m = np.arange(1 << 23, dtype=np.int64)
    s = interpolate(rows, m >> drop, TANH_NJ, TANH_U, g)
    top = min(k, -1) + 127
    hi = s >> g
    low = hi < (1 << 23)
    y = np.where(low, s >> (g - 1), hi)
    e = np.where(low, top - 1, top)
    return (e << 23) | (y - (1 << 23))


def fit_tanh():
    rows, binades = [], []
    for dense, k, drop in TANH_BINADES:
        v = outputs(dense)
        z = drop_ignored(dense, v, drop)
        e = (z >> 23) & 0xFF
        top = min(k, -1) + 127
        if e.max() != top or e.min() < top - 1:
            raise RuntimeError(f"{dense}: results outside 2^{top - 128} .. 2^{top - 126}")
        # In units of half the top binade's ulp: a result of the top binade allows [2Y, 2Y + 2),
        # one of the binade below [Y, Y + 1).
        sig = (1 << 23) + (z & 0x7FFFFF)
        lo = np.where(e == top, 2 * sig, sig)
        width = np.where(e == top, 2, 1)
        for g in TANH_G:
            try:
                mine = fit_segments(dense, lo, width, g - 1, TANH_NJ, TANH_U)
                break
            except RuntimeError as why:
                if g == TANH_G[-1]:
                    raise why
        miss = np.count_nonzero(tanh_model(mine, k, drop, g) != v)
        if miss:
            raise RuntimeError(f"{dense}: {miss} results differ")
        binades.append((k, drop, len(mine).bit_length() - 1, g, len(rows)))
        rows += mine
        print(f"tanh 2^{k} <= x < 2^{k + 1}: {len(mine)} segments, G = {g}; every one of "
              f"{v.size} results agrees")
    src = ", ".join(d for d, _, _ in TANH_BINADES)
    out = write_table("tanh", rows,
                      f"// MUFU.TANH: {{C0, C1, C2}} for the {len(rows)} segments of the "
                      f"binades of [2^-8, 8) (offset bits {TANH_NJ},\n// squarer columns from "
                      f"{TANH_U}, sum >> G); "
                      f"mufu_tanh_binades.inc gives each binade's rows and G.\n"
                      f"// Generated by scripts/fit_mufu.py tanh from tests/recorded/fastmath/"
                      f"{{{src}}}.d2.xz;\n// every result of those binades agrees.\n")
    path = os.path.join(ROOT, "isa", "sfu", "tables", "mufu_tanh_binades.inc")
    with open(path, "w") as f:
        f.write("// MUFU.TANH's binades of x from 2^-8 to 4: {exponent, low mantissa bits ignored, "
                "segment bits, G, first row of mufu_tanh.inc}.\n"
                "// Generated by scripts/fit_mufu.py tanh.\n")
        for b in binades:
            f.write("{" + ", ".join(map(str, b)) + "},\n")
    print(f"tanh: wrote {out} and {os.path.relpath(path, ROOT)}")


LG2_NJ, LG2_U, LG2_G, LG2_FRACTION = 17, 19, 2, 36
# MUFU.LG2's committed binades: (dense file, exponent of x). All three read the same table of
# log2(1.m); they differ in how the fixed-point sum exponent + log2(1.m) becomes a float.
LG2_BINADES = [("lg2_ftz_h_1", -1), ("lg2_ftz_1_2", 0), ("lg2_ftz_2_4", 1)]


def fixed_units(v, fraction=LG2_FRACTION):
    """|v| in units of 2^-fraction and its ulp there (every committed result is a whole
    number of them), for f32 bits v."""
    e = (v >> 23) & 0xFF
    sig = np.where(e > 0, (1 << 23) | (v & 0x7FFFFF), 0)
    sh = e - 150 + fraction
    right, left = np.maximum(-sh, 0), np.maximum(sh, 0)
    if ((sig >> right << right) != sig).any():
        raise RuntimeError("a result finer than the fixed point")
    return np.where(e > 0, (sig >> right) << left, 0), np.where(e > 0, 1 << left, 1)


def lg2_model(rows, k):
    """The f32 bits of MUFU.LG2 for every x of binade k, as isa/sfu/mufu.cpp computes them:
    V = k 2^36 + (sum >> G), the fixed-point log2 (x = 1 gives 0 exactly); a negative V's
    magnitude is its one's complement (-V - 1); the magnitude truncated to 24 bits."""
    z = interpolate(rows, np.arange(1 << 23, dtype=np.int64), LG2_NJ, LG2_U, LG2_G) >> LG2_G
    fixed = (k << LG2_FRACTION) + z
    if k == 0:
        fixed[0] = 0
    return truncated_f32(np.where(fixed < 0, -fixed - 1, fixed), LG2_FRACTION) | \
        np.where(fixed < 0, 1 << 31, 0)


def truncated_f32(mag, fraction):
    """f32 bits of mag 2^-fraction (mag >= 0), its significand truncated to 24 bits."""
    bits = np.zeros_like(mag)
    nz = mag > 0
    length = np.array([int(x).bit_length() for x in mag[nz]], dtype=np.int64)
    shift = length - 24
    sig = np.where(shift >= 0, mag[nz] >> np.maximum(shift, 0), mag[nz] << np.maximum(-shift, 0))
    bits[nz] = ((length - 1 - fraction + 127) << 23) | (sig - (1 << 23))
    return bits


def fit_lg2():
    # Every binade bounds the table's fixed-point value z = log2(1.m) 2^36 to an interval: a
    # result r of [1, 2) truncates z (z in [r, r + ulp)); of [2, 4) truncates 2^36 + z; of
    # [0.5, 1) is minus the truncated one's complement 2^36 - z - 1. Their intersection is fitted
    # (x = 1, where the unit gives 0, is left out).
    one = 1 << LG2_FRACTION
    lo, hi = np.zeros(1 << 23, np.int64), np.full(1 << 23, np.iinfo(np.int64).max)
    measured = {}
    for dense, k in LG2_BINADES:
        v = outputs(dense)
        measured[k] = v
        mag, ulp = fixed_units(v)
        if k == 0:
            a, b = mag, mag + ulp
        elif k == 1:
            a, b = mag - one, mag - one + ulp
        else:
            a, b = one - mag - ulp, one - mag
        lo, hi = np.maximum(lo, a), np.minimum(hi, b)
    lo[0], hi[0] = 0, 1
    if (lo >= hi).any():
        bad = np.flatnonzero(lo >= hi)[:5]
        raise RuntimeError(f"lg2: the binades contradict each other at {bad}")
    rows = fit_segments("lg2", lo, hi - lo, LG2_G, LG2_NJ, LG2_U, [0])
    for dense, k in LG2_BINADES:
        miss = np.count_nonzero(lg2_model(rows, k) != measured[k])
        if miss:
            raise RuntimeError(f"{dense}: {miss} results differ")
        print(f"lg2 2^{k} <= x < 2^{k + 1}: every one of {1 << 23} results agrees")
    src = ", ".join(d for d, _ in LG2_BINADES)
    out = write_table("lg2", rows,
                      f"// MUFU.LG2: {{C0, C1, C2}} for each of {len(rows)} segments of the "
                      f"mantissa (offset bits {LG2_NJ}, squarer\n// columns from {LG2_U}, "
                      f"sum >> {LG2_G}: "
                      f"log2(1.m) in fixed point with {LG2_FRACTION} fraction bits).\n"
                      f"// Generated by scripts/fit_mufu.py lg2 from tests/recorded/fastmath/"
                      f"{{{src}}}.d2.xz;\n// every result of those binades agrees.\n")
    print(f"lg2: {len(rows)} segments; wrote {out}")


SINCOS_NJ, SINCOS_U, SINCOS_G, SINCOS_FRACTION = 17, 19, 0, 40
SINCOS_DENSE = [(f"{f}_ftz_{b}", f, x0) for f in ("sin", "cos")
                for b, x0 in (("h_1", 0x3F000000), ("1_2", 0x3F800000), ("2_4", 0x40000000))]


def turns(x0):
    """ptxas's FMUL.RZ x * (1 / 2 pi) in f32 for the 2^23 inputs from x0 (positive normal x),
    as the 25-bit fixed-point fraction of a turn that MUFU.SIN/COS read (truncated)."""
    x = np.arange(x0, x0 + (1 << 23), dtype=np.uint32).view(np.float32).astype(np.float64)
    p = (x * np.float64(np.float32(0.15915494))).view(np.uint64)  # exact in f64
    e = ((p >> 52) & 0x7FF).astype(np.int64) - 1023
    sig = ((p >> 29) & 0x7FFFFF).astype(np.int64) | (1 << 23)  # toward zero to 24 bits
    return np.where(e + 2 >= 0, sig << np.maximum(e + 2, 0), sig >> np.maximum(-e - 2, 0)) & \
        ((1 << 25) - 1)


def sincos_quadrant(t25, function):
    """The table's argument u (23 bits) and the result's sign for a fraction t25 of a turn:
    quadrant q = the top 2 bits (cos: q + 1), u = the rest, its one's complement in odd
    quadrants, negative in quadrants 2 and 3."""
    q = ((t25 >> 23) + (function == "cos")) & 3
    r = t25 & ((1 << 23) - 1)
    return np.where(q & 1, (1 << 23) - 1 - r, r), q >= 2


def sincos_model(rows, t25, function):
    """The f32 bits of MUFU.SIN/COS at fractions t25, as isa/sfu/mufu.cpp computes them: the
    table's fixed-point sin(pi/2 u 2^-23) truncated to 24 bits, with the quadrant's sign."""
    u, neg = sincos_quadrant(t25, function)
    z = interpolate(rows, u, SINCOS_NJ, SINCOS_U, SINCOS_G) >> SINCOS_G
    return truncated_f32(z, SINCOS_FRACTION) | np.where(neg, 1 << 31, 0)


def fit_sincos():
    # One table of sin(pi/2 u 2^-23) serves both functions and all four quadrants: every result
    # r bounds the table's fixed-point value at its u to [|r|, |r| + ulp) (truncation).
    lo = np.full(1 << 23, np.iinfo(np.int64).min)
    hi = np.full(1 << 23, np.iinfo(np.int64).max)
    measured = []
    for dense, function, x0 in SINCOS_DENSE:
        v, t25 = outputs(dense), turns(x0)
        u, neg = sincos_quadrant(t25, function)
        zero = (v & 0x7FFFFFFF) == 0
        if ((v >> 31 == 1) != neg).any():
            raise RuntimeError(f"{dense}: a sign the quadrants do not give")
        mag, ulp = fixed_units(v & 0x7FFFFFFF, SINCOS_FRACTION)
        ulp = np.where(zero, 1, ulp)
        np.maximum.at(lo, u, mag)
        np.minimum.at(hi, u, mag + ulp)
        measured.append((dense, function, t25, v))
    have = lo > np.iinfo(np.int64).min
    if (lo[have] >= hi[have]).any():
        raise RuntimeError("sin/cos: the results contradict each other")
    rows = fit_segments("sin/cos", np.where(have, lo, 0), np.where(have, hi - lo, 1), SINCOS_G,
                        SINCOS_NJ, SINCOS_U, measured=have)
    for dense, function, t25, v in measured:
        miss = np.count_nonzero(sincos_model(rows, t25, function) != v)
        if miss:
            raise RuntimeError(f"{dense}: {miss} results differ")
        print(f"{dense}: every one of {v.size} results agrees")
    print(f"sin/cos: {np.count_nonzero(have)} of {1 << 23} table arguments measured")
    src = ", ".join(d for d, _, _ in SINCOS_DENSE)
    out = write_table("sincos", rows,
                      f"// MUFU.SIN/COS: {{C0, C1, C2}} for each of {len(rows)} segments of the "
                      f"quarter turn u (offset bits {SINCOS_NJ},\n// squarer columns from "
                      f"{SINCOS_U}, sum >> {SINCOS_G}: sin(pi/2 u 2^-23) in fixed point with "
                      f"{SINCOS_FRACTION} fraction bits).\n// Generated by scripts/fit_mufu.py "
                      f"sincos from tests/recorded/fastmath/{{{src}}}.d2.xz;\n// every result of "
                      f"those binades agrees.\n")
    print(f"sin/cos: {len(rows)} segments; wrote {out}")


SPECIAL_FITS = {"tanh": fit_tanh, "lg2": fit_lg2, "sincos": fit_sincos}


def main():
    for name in sys.argv[1:] or list(FUNCTIONS) + list(SPECIAL_FITS):
        SPECIAL_FITS[name]() if name in SPECIAL_FITS else fit(name)


if __name__ == "__main__":
    main()
