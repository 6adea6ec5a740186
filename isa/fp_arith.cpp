// add / sub / mul / fma / div / sqrt on raw encodings of any binary format, exact in every
// rounding mode: each builds the exact result (or a truncation of it with a sticky bit) in a
// 128-bit integer and rounds it once through roundPack(). Also the out-of-line slow paths of the
// f32 / f64 operations of isa/fp.h (directed rounding, .ftz), which are these same functions.
//
// Special values follow IEEE 754-2019 6.2 / 6.3 / 7.2: NaN in -> NaN out, inf - inf, 0 * inf,
// 0 / 0, inf / inf and sqrt(negative) are invalid (NaN); x / 0 is an infinity; an exact zero
// sum is +0 except in RM where it is -0 (6.3); sqrt(-0) = -0 (5.4.1).
#include <utility>

#include "isa/fp.h"

namespace warpsim::fp {
namespace {

int msb(u128 v) {  // v != 0
  uint64_t hi = uint64_t(v >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(uint64_t(v));
}

// An f64 engine result as the typed operations return it (invalid -> the H200's default NaN).
double f64Result(uint64_t d) { return isNaNBits(kF64, d) ? f64(kInvalidNaN64) : f64(d); }

uint64_t signedZero(Format f, bool sign) { return sign ? f.signBit() : 0; }
uint64_t signedInf(Format f, bool sign) { return signedZero(f, sign) | f.infBits(); }
// The sign of an exact zero sum of operands of different signs (IEEE 754-2019 6.3).
bool zeroSumSign(Round r) { return r == Round::RM; }

// The sum of two nonzero finite values (-1)^sa * ma * 2^ea + (-1)^sb * mb * 2^eb, with
// ma, mb < 2^126, rounded once. The larger operand is placed with its leading bit at bit 125;
// the smaller is aligned to it, and any bits shifted out are jammed into bit 0. That is exact
// for rounding: bits are lost only when the smaller operand lies at least 72 places lower, so
// the sum keeps its leading bit at 124 or above (at most one bit cancels) and the jam bit stays
// far below the rounding bit of every format up to f64, while the jammed sum is odd, so it can
// never sit on a rounding boundary that the exact sum does not.
uint64_t addCore(Format f, bool sa, int ea, u128 ma, bool sb, int eb, u128 mb, Round r, bool ftz) {
  int pa = msb(ma), pb = msb(mb);
  if (int64_t(ea) + pa < int64_t(eb) + pb) {
    std::swap(sa, sb), std::swap(ea, eb), std::swap(ma, mb), std::swap(pa, pb);
  }
  const int sh = 125 - pa;
  const u128 xs = ma << sh;
  const int xe = ea - sh;
  const int64_t d = int64_t(eb) - xe;  // where the smaller operand's bit 0 lands
  u128 ys;
  if (d >= 0) {
    ys = mb << d;  // its leading bit lands at or below 125
  } else if (d <= -128) {
    ys = 1;  // all of it is sticky (mb != 0)
  } else {
    const int nd = int(-d);
    ys = (mb >> nd) | u128((mb & ((u128(1) << nd) - 1)) != 0);
  }
  bool sign = sa;
  u128 sum;
  if (sa == sb) {
    sum = xs + ys;
  } else if (xs >= ys) {
    sum = xs - ys;
  } else {
    sum = ys - xs, sign = sb;
  }
  if (sum == 0) return signedZero(f, zeroSumSign(r));
  return roundPack(f, sign, xe, sum, false, r, ftz);
}

// isqrt by the digit-by-digit method: returns floor(sqrt(n)) and sets `exact`.
uint64_t isqrt(u128 n, bool& exact) {
  u128 rem = 0, root = 0;
  for (int i = 0; i < 64; ++i) {
    rem = (rem << 2) | (n >> 126);
    n <<= 2;
    root <<= 1;
    const u128 trial = (root << 1) | 1;
    if (rem >= trial) rem -= trial, root |= 1;
  }
  exact = rem == 0;
  return uint64_t(root);
}

}  // namespace

uint64_t addBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz) {
  if (ftz) a = flushBits(f, a), b = flushBits(f, b);
  const Unpacked x = unpack(f, a), y = unpack(f, b);
  if (x.cls == Class::NaN || y.cls == Class::NaN) return f.canonicalNaN();
  if (x.cls == Class::Inf) {
    if (y.cls == Class::Inf && x.sign != y.sign) return f.canonicalNaN();  // inf - inf
    return a;
  }
  if (y.cls == Class::Inf) return b;
  if (x.cls == Class::Zero && y.cls == Class::Zero) {
    return signedZero(f, x.sign == y.sign ? x.sign : zeroSumSign(r));
  }
  if (x.cls == Class::Zero) return b;  // exact, and b is already flushed when ftz
  if (y.cls == Class::Zero) return a;
  return addCore(f, x.sign, x.exp, x.sig, y.sign, y.exp, y.sig, r, ftz);
}

uint64_t subBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz) {
  if (isNaNBits(f, b)) return f.canonicalNaN();
  return addBits(f, a, b ^ f.signBit(), r, ftz);
}

uint64_t mulBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz) {
  if (ftz) a = flushBits(f, a), b = flushBits(f, b);
  const Unpacked x = unpack(f, a), y = unpack(f, b);
  if (x.cls == Class::NaN || y.cls == Class::NaN) return f.canonicalNaN();
  const bool sign = x.sign != y.sign;
  if (x.cls == Class::Inf || y.cls == Class::Inf) {
    if (x.cls == Class::Zero || y.cls == Class::Zero) return f.canonicalNaN();  // 0 * inf
    return signedInf(f, sign);
  }
  if (x.cls == Class::Zero || y.cls == Class::Zero) return signedZero(f, sign);
  return roundPack(f, sign, x.exp + y.exp, u128(x.sig) * y.sig, false, r, ftz);
}

uint64_t fmaBits(Format f, uint64_t a, uint64_t b, uint64_t c, Round r, bool ftz) {
  if (ftz) a = flushBits(f, a), b = flushBits(f, b), c = flushBits(f, c);
  const Unpacked x = unpack(f, a), y = unpack(f, b), z = unpack(f, c);
  if (x.cls == Class::NaN || y.cls == Class::NaN || z.cls == Class::NaN) {
    return f.canonicalNaN();
  }
  const bool ps = x.sign != y.sign;  // the product's sign
  if (x.cls == Class::Inf || y.cls == Class::Inf) {
    if (x.cls == Class::Zero || y.cls == Class::Zero) return f.canonicalNaN();  // 0 * inf
    if (z.cls == Class::Inf && z.sign != ps) return f.canonicalNaN();           // inf - inf
    return signedInf(f, ps);
  }
  if (z.cls == Class::Inf) return c;
  if (x.cls == Class::Zero || y.cls == Class::Zero) {
    if (z.cls == Class::Zero) return signedZero(f, ps == z.sign ? ps : zeroSumSign(r));
    return c;  // 0 + c == c exactly
  }
  const u128 prod = u128(x.sig) * y.sig;  // exact: at most 106 bits
  const int pexp = x.exp + y.exp;
  if (z.cls == Class::Zero) return roundPack(f, ps, pexp, prod, false, r, ftz);
  return addCore(f, ps, pexp, prod, z.sign, z.exp, z.sig, r, ftz);
}

uint64_t divBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz) {
  if (ftz) a = flushBits(f, a), b = flushBits(f, b);
  const Unpacked x = unpack(f, a), y = unpack(f, b);
  if (x.cls == Class::NaN || y.cls == Class::NaN) return f.canonicalNaN();
  const bool sign = x.sign != y.sign;
  if (x.cls == Class::Inf) return y.cls == Class::Inf ? f.canonicalNaN() : signedInf(f, sign);
  if (y.cls == Class::Inf) return signedZero(f, sign);
  if (y.cls == Class::Zero) return x.cls == Class::Zero ? f.canonicalNaN() : signedInf(f, sign);
  if (x.cls == Class::Zero) return signedZero(f, sign);
  // Both significands normalized to [2^63, 2^64): the quotient (2^64 * na) / nb lies in
  // (2^63, 2^65), at least 64 significant bits, and the remainder is the sticky part.
  const int sa = 63 - msb(x.sig), sb = 63 - msb(y.sig);
  const uint64_t na = x.sig << sa, nb = y.sig << sb;
  const u128 num = u128(na) << 64;
  const u128 q = num / nb;
  const bool sticky = (num % nb) != 0;
  const int exp = (x.exp - sa) - 64 - (y.exp - sb);
  return roundPack(f, sign, exp, q, sticky, r, ftz);
}

uint64_t sqrtBits(Format f, uint64_t a, Round r, bool ftz) {
  if (ftz) a = flushBits(f, a);
  const Unpacked x = unpack(f, a);
  if (x.cls == Class::NaN) return f.canonicalNaN();
  if (x.cls == Class::Zero) return a;  // sqrt(-0) = -0
  if (x.sign) return f.canonicalNaN();
  if (x.cls == Class::Inf) return a;
  // value = n * 2^e with n in [2^63, 2^64); scale n by 2^63 or 2^64 so the exponent is even:
  // the root of N in [2^126, 2^128) has 64 bits, and a nonzero remainder is the sticky part.
  const int sn = 63 - msb(x.sig);
  const uint64_t n = x.sig << sn;
  const int e = x.exp - sn;
  const int s = ((e - 63) % 2 == 0) ? 63 : 64;
  bool exact;
  const uint64_t root = isqrt(u128(n) << s, exact);
  return roundPack(f, false, (e - s) / 2, root, !exact, r, ftz);
}

uint64_t convertBits(Format from, Format to, uint64_t a, Round r, bool ftz) {
  const Unpacked x = unpack(from, a);
  switch (x.cls) {
    case Class::NaN:
      return to.canonicalNaN();
    case Class::Inf:
      return signedInf(to, x.sign);
    case Class::Zero:
      return signedZero(to, x.sign);
    default:
      return roundPack(to, x.sign, x.exp, x.sig, false, r, ftz);
  }
}

double nanResult64(double a, double b) {
  const uint64_t quiet = kF64.quietBit();
  if (isNaN(a)) return f64(bits(a) | quiet);
  if (isNaN(b)) return f64(bits(b) | quiet);
  return f64(kInvalidNaN64);
}
double nanResultDiv64(double a, double b) { return nanResult64(a, b); }
double nanResultFma64(double a, double b, double c) {
  const uint64_t quiet = kF64.quietBit();
  if (isNaN(a)) return f64(bits(a) | quiet);
  if (isNaN(c)) return f64(bits(c) | quiet);
  if (isNaN(b)) return f64(bits(b) | quiet);
  return f64(kInvalidNaN64);
}

// ---- f32 slow paths (directed rounding) ---------------------------------------------------
namespace detail {

// add, mul and fma take the route of the f16/bf16 operations (isa/fp_half.cpp): exact doubles,
// a product exact in double (48 bits), sums exact-or-odd (sumToOdd, 53 >= 24 + 2), one
// rounding by roundDouble. The property tests check them against the engine (addBits, ...).
float addSlow(float a, float b, Round r, bool ftz) {
  if (ftz) a = flushSubnormal(a), b = flushSubnormal(b);
  if (isNaN(a) || isNaN(b)) return f32(kCanonicalNaN32);
  return f32(uint32_t(roundSumDouble<8, 23>(a, b, r, ftz, false)));
}
float mulSlow(float a, float b, Round r, bool ftz) {
  if (ftz) a = flushSubnormal(a), b = flushSubnormal(b);
  if (isNaN(a) || isNaN(b)) return f32(kCanonicalNaN32);
  return f32(uint32_t(roundProductDouble<8, 23>(double(a) * double(b), r, ftz)));
}
float fmaSlow(float a, float b, float c, Round r, bool ftz) {
  if (ftz) a = flushSubnormal(a), b = flushSubnormal(b), c = flushSubnormal(c);
  if (isNaN(a) || isNaN(b) || isNaN(c)) return f32(kCanonicalNaN32);
  const double p = double(a) * double(b);
  if (p != p) return f32(kCanonicalNaN32);  // 0 * inf
  return f32(uint32_t(roundSumDouble<8, 23>(p, c, r, ftz, false)));
}
float divSlow(float a, float b, Round r, bool ftz) {
  return f32(uint32_t(divBits(kF32, bits(a), bits(b), r, ftz)));
}
float sqrtSlow(float a, Round r, bool ftz) {
  return f32(uint32_t(sqrtBits(kF32, bits(a), r, ftz)));
}

// ---- f64 slow paths: NaN operands give their payload (nanResult64), invalid operations the
// H200's default NaN.
double addSlow(double a, double b, Round r) {
  if (isNaN(a) || isNaN(b)) return nanResult64(a, b);
  return f64Result(addBits(kF64, bits(a), bits(b), r, false));
}
double mulSlow(double a, double b, Round r) {
  if (isNaN(a) || isNaN(b)) return nanResult64(a, b);
  return f64Result(mulBits(kF64, bits(a), bits(b), r, false));
}
double fmaSlow(double a, double b, double c, Round r) {
  if (isNaN(a) || isNaN(b) || isNaN(c)) return nanResultFma64(a, b, c);
  return f64Result(fmaBits(kF64, bits(a), bits(b), bits(c), r, false));
}
double divSlow(double a, double b, Round r) {
  if (isNaN(a) || isNaN(b)) return nanResultDiv64(a, b);
  return f64Result(divBits(kF64, bits(a), bits(b), r, false));
}
double sqrtSlow(double a, Round r) {
  if (isNaN(a)) return nanResult64(a, a);
  return f64Result(sqrtBits(kF64, bits(a), r, false));
}

}  // namespace detail
}  // namespace warpsim::fp
