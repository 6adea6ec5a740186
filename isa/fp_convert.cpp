// Conversions (PTX ISA 9.7.9.21, cvt): between floating formats (one rounding: the engine, or
// its exact fast paths in isa/fp.h), from floats to integers (integer rounding, clamped to the
// destination range, the PTX NaN rule), from integers to floats, and rounding to an integral value
// in the same format.
#include "isa/fp.h"

namespace warpsim::fp {
namespace {

int msb64(uint64_t v) { return 63 - __builtin_clzll(v); }  // v != 0

// The integer nearest (per `r`) to (-1)^sign * sig * 2^exp, for exp < 0, as a magnitude.
uint64_t roundToInteger(bool sign, int exp, uint64_t sig, Round r) {
  const int k = -exp;  // fraction bits
  uint64_t q;
  bool half, below;
  if (k > 64) {
    q = 0, half = false, below = sig != 0;
  } else if (k == 64) {
    q = 0, half = (sig >> 63) != 0, below = (sig & ~(uint64_t{1} << 63)) != 0;
  } else {
    q = sig >> k;
    half = ((sig >> (k - 1)) & 1) != 0;
    below = (sig & ((uint64_t{1} << (k - 1)) - 1)) != 0;
  }
  return q + roundsUp(r, sign, (q & 1) != 0, half, below);
}

// cvt.rni/rzi/rmi/rpi with a float destination: an integral value in the same format.
uint64_t roundIntegralBits(Format f, uint64_t a, Round r) {
  const Unpacked x = unpack(f, a);
  if (x.cls == Class::NaN) return f.canonicalNaN();  // callers with NaN rules of their own
  if (x.cls == Class::Inf || x.cls == Class::Zero || x.exp >= 0) return a;
  const uint64_t n = roundToInteger(x.sign, x.exp, x.sig, r);
  // n <= 2^(manBits+1), so it is exact in the format; a zero keeps the operand's sign.
  return roundPack(f, x.sign, 0, n, false, Round::RN);
}

// The PTX float-to-integer conversion (see floatToInt in isa/fp.h).
uint64_t floatToIntBits(Format f, uint64_t a, Round r, unsigned w, bool isSigned, bool srcF64) {
  const uint64_t one = 1;
  const uint64_t maxMag =
      isSigned ? (one << (w - 1)) - 1 : (w == 64 ? ~uint64_t{0} : (one << w) - 1);
  // The minimum, as the two's-complement of its magnitude, sign-extended to 64 bits.
  const uint64_t minVal = isSigned ? uint64_t(0) - (one << (w - 1)) : 0;
  const Unpacked x = unpack(f, a);
  if (x.cls == Class::NaN) {
    // PTX ISA 9.7.9.21, Integer Notes: "Zero if source is not .f64 and destination is not
    // .s64, .u64. Otherwise 1 << (BitWidth(dst) - 1)" (MININT for signed types).
    if (!srcF64 && w != 64) return 0;
    return isSigned ? minVal : (one << (w - 1));
  }
  if (x.cls == Class::Zero) return 0;
  if (x.cls == Class::Inf) return x.sign ? minVal : maxMag;
  // Magnitudes of 2^64 and above saturate whatever the rounding.
  if (x.exp + msb64(x.sig) >= 64) return x.sign ? minVal : maxMag;
  const uint64_t mag = x.exp >= 0 ? x.sig << x.exp : roundToInteger(x.sign, x.exp, x.sig, r);
  if (!x.sign) return mag > maxMag ? maxMag : mag;
  if (mag == 0) return 0;
  if (!isSigned) return 0;  // negative values clamp to 0
  return mag > (one << (w - 1)) ? minVal : uint64_t(0) - mag;
}

uint64_t intToBits(Format to, uint64_t v, bool isSigned, Round r) {
  const bool neg = isSigned && int64_t(v) < 0;
  const uint64_t mag = neg ? uint64_t(0) - v : v;
  if (mag == 0) return 0;  // +0
  return roundPack(to, neg, 0, mag, false, r);
}

}  // namespace

// ---- between floating formats --------------------------------------------------------------
namespace {

// NaN conversions as the H200 does them (see isa/fp.h): quiet, keep the sign, and move the
// payload to the top of the target's fraction (truncating when narrowing).
uint64_t convertNaN(Format from, Format to, uint64_t a) {
  const uint64_t sign = (a & from.signBit()) ? to.signBit() : 0;
  const uint64_t frac = (a & from.fracMask()) | from.quietBit();
  const uint64_t moved = from.manBits >= to.manBits ? frac >> (from.manBits - to.manBits)
                                                    : frac << (to.manBits - from.manBits);
  return sign | to.infBits() | moved;
}
}  // namespace

namespace detail {
// The inline conversions of isa/fp.h hand over here outside the target's normal range.
uint16_t f32ToF16Slow(float x, Round r) { return uint16_t(convertBits(kF32, kF16, bits(x), r)); }
uint16_t f32ToBF16Slow(float x, Round r) { return uint16_t(convertBits(kF32, kBF16, bits(x), r)); }
float f16ToF32Special(uint16_t h) { return f32(uint32_t(convertBits(kF16, kF32, h, Round::RN))); }
}  // namespace detail

namespace {
// A finite or infinite double narrowed by the engine's fast path; NaN with its payload.
template <int E, int M>
uint64_t narrowF64(double x, Round r, bool ftz) {
  constexpr Format f{E, M};
  if (isNaN(x)) return convertNaN(kF64, f, bits(x));
  if (isInfinite(x)) return (bits(x) >> 63 ? f.signBit() : 0) | f.infBits();
  return detail::roundDouble<E, M>(x, r, ftz);
}
}  // namespace

uint16_t f64ToF16(double x, Round r) { return uint16_t(narrowF64<5, 10>(x, r, false)); }
double f16ToF64(uint16_t h) {
  return isNaN16(h) ? f64(convertNaN(kF16, kF64, h)) : double(f16ToF32(h));
}
uint16_t f64ToBF16(double x, Round r) { return uint16_t(narrowF64<8, 7>(x, r, false)); }
double bf16ToF64(uint16_t h) {
  return isNaNBF16(h) ? f64(convertNaN(kBF16, kF64, h)) : double(bf16ToF32(h));
}
float f64ToF32(double x, Round r) {
  if (r == Round::RN && !isNaN(x)) {
    return float(x);  // cvtsd2ss: IEEE round to nearest even, subnormals included
  }
  return f32(uint32_t(narrowF64<8, 23>(x, r, false)));
}
float f64ToF32(double x, Round r, bool ftz) { return f32(uint32_t(narrowF64<8, 23>(x, r, ftz))); }
double f32ToF64(float x) { return isNaN(x) ? f64(convertNaN(kF32, kF64, bits(x))) : double(x); }

float f32ToTF32(float x, Round r) {
  if (isNaN(x)) {
    return f32(r == Round::RNA ? bits(x) & ~0x1FFFu : kCanonicalNaN32 & ~0x1FFFu);
  }
  // tf32 is the f32 encoding with only the top 10 fraction bits: for results up to the
  // largest tf32, round the encoding itself (subnormals included); otherwise round in the
  // 19-bit format (8 exponent bits, 10 fraction bits) and shift the encoding back into place.
  const uint32_t b = bits(x), mag = b & 0x7FFFFFFFu;
  if (mag <= 0x7F7FE000u) {
    const bool neg = (b >> 31) != 0;
    return f32((b & 0x80000000u) | ((mag + detail::roundBias(r, neg, mag, 13)) & ~0x1FFFu));
  }
  const uint64_t t = convertBits(kF32, kTF32, b, r);
  const uint32_t sign = (t & kTF32.signBit()) ? 0x80000000u : 0;
  return f32(sign | uint32_t((t & ~kTF32.signBit()) << 13));
}

// ---- integral rounding -------------------------------------------------------------------
float roundIntegral(float x, Round r) { return f32(uint32_t(roundIntegralBits(kF32, bits(x), r))); }
float roundIntegral(float x, Round r, bool ftz) {
  return roundIntegral(ftz ? flushSubnormal(x) : x, r);
}
double roundIntegral(double x, Round r) {
  if (isNaN(x)) return nanResult64(x, x);  // cvt.rni.f64.f64 keeps the payload (measured)
  return f64(roundIntegralBits(kF64, bits(x), r));
}

// ---- float -> integer ------------------------------------------------------------------
namespace {

// The integer nearest to x by `r`, for |x| < 2^52: the truncating conversion and the
// subtraction are exact there (Sterbenz), so this is exact integer rounding on host values.
int64_t roundSmall(double x, Round r) {
  const int64_t t = int64_t(x);     // toward zero
  const double fr = x - double(t);  // exact; |fr| < 1 with the sign of x
  const int64_t away = fr > 0 ? 1 : -1;
  switch (r) {
    case Round::RZ:
      return t;
    case Round::RM:
      return t - (fr < 0);
    case Round::RP:
      return t + (fr > 0);
    case Round::RN: {
      const double h = fr < 0 ? -fr : fr;
      return (h > 0.5 || (h == 0.5 && (t & 1))) ? t + away : t;
    }
    case Round::RNA:
      return (fr >= 0.5 || fr <= -0.5) ? t + away : t;
  }
  return t;
}

// A value |n| < 2^52 clamped to the destination range, as floatToInt returns it.
uint64_t clampSmall(int64_t n, unsigned w, bool isSigned) {
  if (w == 64) return isSigned || n >= 0 ? uint64_t(n) : 0;
  if (isSigned) {
    const int64_t hi = (int64_t{1} << (w - 1)) - 1, lo = -hi - 1;
    return uint64_t(n < lo ? lo : n > hi ? hi : n);
  }
  const int64_t hi = (int64_t{1} << w) - 1;
  return uint64_t(n < 0 ? 0 : n > hi ? hi : n);
}

}  // namespace

uint64_t floatToInt(double x, Round r, unsigned bitsWide, bool isSigned) {
  if (x < 0x1p52 && x > -0x1p52) return clampSmall(roundSmall(x, r), bitsWide, isSigned);
  return floatToIntBits(kF64, bits(x), r, bitsWide, isSigned, true);  // NaN, huge
}
uint64_t floatToInt(float x, Round r, unsigned bitsWide, bool isSigned) {
  if (x < 0x1p52f && x > -0x1p52f) return clampSmall(roundSmall(x, r), bitsWide, isSigned);
  return floatToIntBits(kF32, bits(x), r, bitsWide, isSigned, false);  // NaN, huge
}
uint64_t floatToInt(float x, Round r, unsigned bitsWide, bool isSigned, bool ftz) {
  return floatToInt(ftz ? flushSubnormal(x) : x, r, bitsWide, isSigned);
}

// ---- integer -> float ------------------------------------------------------------------
namespace {

// Whether the integer is exact in a double (|v| < 2^53), and that double.
bool smallInt(uint64_t v, bool isSigned, double& d) {
  if (isSigned) {
    const int64_t s = int64_t(v);
    if (s >= (int64_t{1} << 53) || s <= -(int64_t{1} << 53)) return false;
    d = double(s);
    return true;
  }
  if (v >= (uint64_t{1} << 53)) return false;
  d = double(int64_t(v));
  return true;
}

}  // namespace

float intToF32General(uint64_t v, bool isSigned, Round r) {
  double d;
  if (smallInt(v, isSigned, d)) return f32(uint32_t(detail::roundDouble<8, 23>(d, r, false)));
  return f32(uint32_t(intToBits(kF32, v, isSigned, r)));
}
double intToF64General(uint64_t v, bool isSigned, Round r) {
  double d;
  if (smallInt(v, isSigned, d)) return d;
  return f64(intToBits(kF64, v, isSigned, r));
}
uint16_t intToF16(uint64_t v, bool isSigned, Round r) {
  double d;
  if (smallInt(v, isSigned, d)) return uint16_t(detail::roundDouble<5, 10>(d, r, false));
  return uint16_t(intToBits(kF16, v, isSigned, r));
}
uint16_t intToBF16(uint64_t v, bool isSigned, Round r) {
  double d;
  if (smallInt(v, isSigned, d)) return uint16_t(detail::roundDouble<8, 7>(d, r, false));
  return uint16_t(intToBits(kBF16, v, isSigned, r));
}

}  // namespace warpsim::fp
