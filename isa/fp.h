// Floating point with explicit state: every rounding mode, .ftz and .sat are arguments.
// Never the host's floating-point environment (fesetround / MXCSR are global-ish, thread-
// unsafe and invisible). Results are bit-exact IEEE 754 for the IEEE operations in every mode;
// the host's own arithmetic is used only where it is provably the same (round-to-nearest f32/f64
// add/sub/mul/div/sqrt/fma on x86-64 SSE, and double arithmetic that is exact or rounded to odd
// before one final rounding of ours), everything else is exact integer arithmetic. Where PTX
// leaves a result open (NaN payloads, .ftz details, .sat of -0), the H200's measured behaviour
// is what these functions do; each such place says so.
//
// Half types (f16, bf16) travel as their raw uint16_t bits; tf32 as a float whose low 13
// significand bits are zero.
//
// Layout of the implementation (one engine, typed fast paths checked against it):
//   fp_round.cpp    the exact rounding engine: roundPack() rounds (sign, exp, wide significand,
//                   sticky) to any binary format in any mode, with subnormals, overflow, .ftz
//   fp_bits.cpp     unpack(), the format-generic helpers
//   fp_arith.cpp    add/mul/fma/div/sqrt on raw bits of any format (the definition), the f32
//                   and f64 slow paths, the f64 NaN rules
//   fp_half.cpp     f16 / bf16 arithmetic
//   fp_convert.cpp  float <-> float, float <-> int, integral rounding
//   fp_minmax.cpp   f64 min / max, .sat
//
// The host fast paths below assume the process's default MXCSR (round to nearest, no FTZ/DAZ),
// which nothing in warpsim changes, and IEEE evaluation (no -ffast-math, FLT_EVAL_METHOD 0).
#pragma once

#include <bit>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__FAST_MATH__)
#error "isa/fp.h needs IEEE arithmetic: do not compile warpsim with -ffast-math"
#endif
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0
#error "isa/fp.h needs FLT_EVAL_METHOD 0 (SSE arithmetic, not x87)"
#endif

namespace warpsim::fp {

enum class Round : uint8_t {
  RN,   // to nearest, ties to even (.rn, the default)
  RZ,   // toward zero (.rz)
  RM,   // toward -inf (.rm)
  RP,   // toward +inf (.rp)
  RNA,  // to nearest, ties away from zero (.rna; cvt to tf32 only in PTX)
};

// ---- bit views -------------------------------------------------------------------------
inline uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t bits(double d) { return std::bit_cast<uint64_t>(d); }
inline float f32(uint32_t b) { return std::bit_cast<float>(b); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }

// The NaN a PTX arithmetic operation returns (NVIDIA's canonical NaN, sign clear,
// all significand bits set: f32 0x7FFFFFFF, f64 0x7FFFFFFFFFFFFFFF, f16 0x7FFF, bf16 0x7FFF).
// f32: CUDA C++ Programming Guide, "Floating-Point Standard": "the result of single-precision
// floating-point operation involving one or more input NaNs is the quiet NaN of bit pattern
// 0x7fffffff". f16/bf16: PTX ISA 9.7.4 says "unspecified NaN"; the H200 gives 0x7FFF (measured
// by the differential probe, add/sub/mul/fma/min/max .f16/.bf16). f64 is different: PTX ISA
// 9.7.3 says "NaN payloads are supported for double-precision instructions", and the H200
// propagates them (see nanResult64 below); kCanonicalNaN64 is only the format-generic engine's
// f64 NaN (addBits(kF64, ...) and friends): the typed f64 functions never return it.
inline constexpr uint32_t kCanonicalNaN32 = 0x7FFFFFFFu;
inline constexpr uint64_t kCanonicalNaN64 = 0x7FFFFFFFFFFFFFFFull;
inline constexpr uint16_t kCanonicalNaN16 = 0x7FFF;
inline constexpr uint16_t kCanonicalNaNBF16 = 0x7FFF;
// The NaN of an invalid f64 operation (inf - inf, 0 * inf, 0 / 0, sqrt(-1)) on the H200:
// sign set, quiet bit only (measured: div.rn.f64 0/0, sqrt.rn.f64 of negatives, fma.f64).
inline constexpr uint64_t kInvalidNaN64 = 0xFFF8000000000000ull;

inline bool isNaN16(uint16_t h) { return (h & 0x7FFF) > 0x7C00; }
inline bool isNaNBF16(uint16_t h) { return (h & 0x7FFF) > 0x7F80; }

// ---- classification (testp.{finite,infinite,number,notanumber,normal,subnormal}) -----------
// PTX ISA 9.7.3.1 testp: "As a special case, positive and negative zero are considered normal
// numbers", so isNormal(+-0) is true; isSubnormal is the IEEE one (nonzero, exponent field 0).
inline bool isNaN(float x) { return (bits(x) & 0x7FFFFFFFu) > 0x7F800000u; }
inline bool isNaN(double x) { return (bits(x) & ~(uint64_t{1} << 63)) > 0x7FF0000000000000ull; }
inline bool isInfinite(float x) { return (bits(x) & 0x7FFFFFFFu) == 0x7F800000u; }
inline bool isInfinite(double x) {
  return (bits(x) & ~(uint64_t{1} << 63)) == 0x7FF0000000000000ull;
}
inline bool isFinite(float x) { return (bits(x) & 0x7F800000u) != 0x7F800000u; }
inline bool isFinite(double x) {
  return (bits(x) & 0x7FF0000000000000ull) != 0x7FF0000000000000ull;
}
inline bool isNumber(float x) { return !isNaN(x); }
inline bool isNumber(double x) { return !isNaN(x); }
inline bool isNotANumber(float x) { return isNaN(x); }
inline bool isNotANumber(double x) { return isNaN(x); }
inline bool isSubnormal(float x) {
  uint32_t m = bits(x) & 0x7FFFFFFFu;
  return m != 0 && m < 0x00800000u;
}
inline bool isSubnormal(double x) {
  uint64_t m = bits(x) & ~(uint64_t{1} << 63);
  return m != 0 && m < 0x0010000000000000ull;
}
inline bool isNormal(float x) { return isFinite(x) && !isSubnormal(x); }   // zero included
inline bool isNormal(double x) { return isFinite(x) && !isSubnormal(x); }  // zero included
inline bool isSubnormal16(uint16_t h) { return (h & 0x7FFF) != 0 && (h & 0x7C00) == 0; }
inline bool isSubnormalBF16(uint16_t h) { return (h & 0x7FFF) != 0 && (h & 0x7F80) == 0; }

// .ftz: a subnormal becomes a zero of the same sign.
inline float flushSubnormal(float x) { return isSubnormal(x) ? f32(bits(x) & 0x80000000u) : x; }
inline double flushSubnormal(double x) {
  return isSubnormal(x) ? f64(bits(x) & (uint64_t{1} << 63)) : x;
}
inline uint16_t flushSubnormal16(uint16_t h) {  // f16
  return isSubnormal16(h) ? uint16_t(h & 0x8000) : h;
}

// ---- the exact rounding engine (any binary interchange-like format) ----------------------
// Every operation of this library, in every mode, is defined by this engine; the host fast
// paths are checked against it by tests/isa/fp_property_test.cpp. It is public so that other
// formats (e.g. the fp8 cvt targets) can be built on it.
using u128 = unsigned __int128;

struct Format {
  int expBits;  // exponent field width
  int manBits;  // stored significand (fraction) bits
  constexpr int bias() const { return (1 << (expBits - 1)) - 1; }
  constexpr int emin() const { return 1 - bias(); }               // exponent of the smallest normal
  constexpr int maxBiased() const { return (1 << expBits) - 1; }  // the inf/NaN exponent field
  constexpr uint64_t signBit() const { return uint64_t{1} << (expBits + manBits); }
  constexpr uint64_t fracMask() const { return (uint64_t{1} << manBits) - 1; }
  constexpr uint64_t infBits() const { return uint64_t(maxBiased()) << manBits; }
  constexpr uint64_t maxFinite() const { return infBits() - 1; }
  constexpr uint64_t canonicalNaN() const { return infBits() | fracMask(); }
  constexpr uint64_t quietBit() const { return uint64_t{1} << (manBits - 1); }
};
inline constexpr Format kF16{5, 10};
inline constexpr Format kBF16{8, 7};
inline constexpr Format kTF32{8, 10};  // as its own 19-bit encoding (see f32ToTF32)
inline constexpr Format kF32{8, 23};
inline constexpr Format kF64{11, 52};

// Rounds the value (-1)^sign * (sig + s) * 2^exp, where s = 0 if !sticky and 0 < s < 1
// otherwise, to format `f` with mode `r`, and returns its encoding. Handles subnormal results,
// overflow (RN/RNA -> inf; RZ -> max finite; RP/RM -> inf on the side they round toward,
// max finite on the other; IEEE 754-2019 7.4) and signed zero (sig == 0 gives a zero of
// `sign`). When `sticky` is set, sig must have more than f.manBits + 1 significant bits (so the
// sticky part lies below the rounding bit); a caller may instead OR a "jam" bit into sig's LSB
// when sig has at least f.manBits + 3 significant bits.
// `ftz` (.ftz): a tiny result -- below the smallest normal after rounding to manBits + 1 bits
// with an unbounded exponent (IEEE 754-2019 7.5 "after rounding"), as the H200 does --
// becomes a zero of `sign`.
uint64_t roundPack(Format f, bool sign, int exp, u128 sig, bool sticky, Round r, bool ftz = false);

// The rounding decision itself: given the sign, whether the truncated result is odd, the bit
// just below its last place (`half`) and whether anything lies below that (`below`), does `r`
// round the magnitude up? Shared by roundPack and the integer roundings.
inline bool roundsUp(Round r, bool sign, bool odd, bool half, bool below) {
  switch (r) {
    case Round::RN:
      return half && (below || odd);
    case Round::RNA:
      return half;
    case Round::RZ:
      return false;
    case Round::RP:
      return !sign && (half || below);
    case Round::RM:
      return sign && (half || below);
  }
  return false;
}

enum class Class : uint8_t { Zero, Subnormal, Normal, Inf, NaN };
struct Unpacked {
  bool sign;
  Class cls;
  int exp;       // finite: value = (-1)^sign * sig * 2^exp
  uint64_t sig;  // the integer significand, implicit bit included for normals
};
Unpacked unpack(Format f, uint64_t bits);
inline bool isNaNBits(Format f, uint64_t b) { return (b & ~f.signBit()) > f.infBits(); }
inline bool isSubnormalBits(Format f, uint64_t b) {
  uint64_t m = b & ~f.signBit();
  return m != 0 && m <= f.fracMask();
}
inline uint64_t flushBits(Format f, uint64_t b) {
  return isSubnormalBits(f, b) ? (b & f.signBit()) : b;
}

// Correctly rounded arithmetic on raw encodings of `f`. NaN results are f.canonicalNaN();
// `ftz` flushes subnormal inputs to signed zero, and tiny results (see roundPack) too.
uint64_t addBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t subBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t mulBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t fmaBits(Format f, uint64_t a, uint64_t b, uint64_t c, Round r, bool ftz);
uint64_t divBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t sqrtBits(Format f, uint64_t a, Round r, bool ftz);
// Conversion between formats (one rounding); NaN -> to.canonicalNaN(); `ftz` as roundPack.
uint64_t convertBits(Format from, Format to, uint64_t a, Round r, bool ftz = false);

// ---- exact fast paths built on the engine -------------------------------------------------
namespace detail {
// The general case of roundDouble (results outside the format's normal range).
uint64_t roundDoubleSlow(Format f, double x, Round r, bool ftz);

// Rounds a finite double to the format {E, M} in mode r: what roundPack does with the double's
// value, inline for results in the format's normal range (the rest goes to the engine). Used
// on exact doubles, and on doubles rounded to odd from an exact value (53 >= M + 2 bits, so
// rounding the odd value once more in any mode is the correct rounding of the exact value:
// Boldo & Melquiond, "Emulation of FMA and correctly rounded sums", IEEE TC 2008).
template <int E, int M>
inline uint64_t roundDouble(double x, Round r, bool ftz) {
  static_assert(M < 52 && E <= 11, "roundDouble narrows from double");
  constexpr Format f{E, M};
  constexpr int kShift = 52 - M;
  constexpr uint64_t kRebias = uint64_t(1023 - f.bias()) << 52;
  constexpr uint64_t kLo = uint64_t(1023 + f.emin()) << 52;            // 2^emin
  constexpr uint64_t kHi = (uint64_t(1023 + f.bias() + 1) << 52) - 1;  // below 2^(emax + 1)
  const uint64_t b = bits(x), mag = b & ~(uint64_t{1} << 63);
  if (mag - kLo <= kHi - kLo) [[likely]] {
    // A value in the format's normal binades: rebias the exponent and round the encoding (a
    // carry out of the fraction increments the exponent by itself).
    const bool neg = (b >> 63) != 0;
    const uint64_t t = mag - kRebias;
    const uint64_t ones = (uint64_t{1} << kShift) - 1;
    uint64_t bias;
    switch (r) {
      case Round::RN:
        bias = (ones >> 1) + ((t >> kShift) & 1);
        break;
      case Round::RNA:
        bias = (ones >> 1) + 1;
        break;
      case Round::RZ:
        bias = 0;
        break;
      case Round::RP:
        bias = neg ? 0 : ones;
        break;
      default:  // RM
        bias = neg ? ones : 0;
        break;
    }
    const uint64_t out = (t + bias) >> kShift;
    if (out < f.infBits()) return (neg ? f.signBit() : 0) | out;
  }
  return roundDoubleSlow(f, x, r, ftz);
}

// p + c rounded to odd (to the double of the pair around p + c whose last bit is 1, unless
// p + c is a double): TwoSum gives the exact error of the rounded sum (Knuth, TAOCP 4.2.2).
// p, c and the sum must be finite.
inline double sumToOdd(double p, double c) {
  const double s = p + c;
  const double bb = s - p;
  const double e = (p - (s - bb)) + (c - bb);  // s + e == p + c exactly
  if (e == 0.0) return s;
  uint64_t sb = bits(s);
  if ((sb & 1) == 0) sb += ((e > 0) == (s > 0)) ? 1 : uint64_t(-1);  // s != 0 when e != 0
  return f64(sb);
}

// x + y rounded once to the format {E, M} in mode r, as an encoding: x and y are exact
// doubles (not NaN; inf - inf gives the canonical NaN), and `exact` says that their double sum
// cannot have rounded (otherwise it is made exact-or-odd with sumToOdd first). Exact zero sums
// take their sign per IEEE 754-2019 6.3. Used by the f16/bf16 operations and by the f32 ones in
// the directed modes.
template <int E, int M>
inline uint64_t roundSumDouble(double x, double y, Round r, bool ftz, bool exact) {
  constexpr Format f{E, M};
  const double s = x + y;
  if (s != s) return f.canonicalNaN();                                       // inf - inf
  if (s - s != 0.0) return (bits(s) >> 63 ? f.signBit() : 0) | f.infBits();  // inf
  if (s == 0.0) {
    // The common sign of the operands, else +0 except in RM; the host's round-to-nearest sum
    // has the right sign in every mode but RM.
    const bool bothPlusZero = bits(x) == 0 && bits(y) == 0;
    const bool neg = r == Round::RM ? !bothPlusZero : (bits(s) >> 63) != 0;
    return neg ? f.signBit() : 0;
  }
  return roundDouble<E, M>(exact ? s : sumToOdd(x, y), r, ftz);
}
// An exact double product p (of two values of the format) rounded once, as an encoding.
template <int E, int M>
inline uint64_t roundProductDouble(double p, Round r, bool ftz) {
  constexpr Format f{E, M};
  if (p != p) return f.canonicalNaN();                                       // 0 * inf
  if (p - p != 0.0) return (bits(p) >> 63 ? f.signBit() : 0) | f.infBits();  // inf
  return roundDouble<E, M>(p, r, ftz);  // zeros carry the xor of the signs already
}

// The integer to add to a magnitude before dropping its low k bits, to round it by `r` (the
// encoding-level form of roundsUp: a carry into the exponent field is the right result).
inline uint32_t roundBias(Round r, bool neg, uint32_t mag, int k) {
  const uint32_t ones = (uint32_t{1} << k) - 1;
  switch (r) {
    case Round::RN:
      return (ones >> 1) + ((mag >> k) & 1);
    case Round::RNA:
      return (ones >> 1) + 1;
    case Round::RZ:
      return 0;
    case Round::RP:
      return neg ? 0 : ones;
    case Round::RM:
      return neg ? ones : 0;
  }
  return 0;
}
}  // namespace detail

// ---- f64 NaN results -----------------------------------------------------------------------
// PTX ISA 9.7.3: "NaN payloads are supported for double-precision instructions". Measured on
// the H200 (the ISA campaign, 10,000 random programs, every first divergence traced): a NaN
// operand is returned with its quiet bit set, its sign and payload kept. When several operands
// are NaN, add/sub/mul/min/max and div return the FIRST (a), fma/mad a, then c, then b; sub
// does not flip the sign of a NaN b. An invalid operation with no NaN operand (inf - inf,
// 0 * inf, 0 / 0, sqrt(-1)) gives kInvalidNaN64. A unary operation (sqrt, rcp, cvt.rni.f64)
// passes its operand twice. (An earlier probe of isolated instructions had seen b for
// add/sub/mul: the order ptxas gives commuted operands is not the PTX order; in generated
// programs it is, 1,400 of 1,400 two-NaN cases.)
double nanResult64(double a, double b);               // add, sub, mul, sqrt, min, max: a, b
double nanResultDiv64(double a, double b);            // div, rcp: a, then b
double nanResultFma64(double a, double b, double c);  // fma: a, then c, then b

// ---- f32 / f64 arithmetic ------------------------------------------------------------------
// f32 NaN results are canonical (see above); f64 NaN results follow nanResult64. ftz flushes
// subnormal inputs and results (f32 only in PTX; the f64 functions have no ftz).
// PTX ISA 9.7.3.3-9.7.3.8: .ftz "flushes subnormal inputs and results to sign-preserving zero".
// Tininess is detected after rounding (see roundPack): the fast paths below hand results of
// magnitude <= FLT_MIN, the only ones that can be tiny, to the engine, which decides.
namespace detail {
float addSlow(float a, float b, Round r, bool ftz);
float mulSlow(float a, float b, Round r, bool ftz);
float fmaSlow(float a, float b, float c, Round r, bool ftz);
float divSlow(float a, float b, Round r, bool ftz);
float sqrtSlow(float a, Round r, bool ftz);
double addSlow(double a, double b, Round r);
double mulSlow(double a, double b, Round r);
double fmaSlow(double a, double b, double c, Round r);
double divSlow(double a, double b, Round r);
double sqrtSlow(double a, Round r);
inline float canonical32(float d) { return d != d ? f32(kCanonicalNaN32) : d; }
// The IEEE square root instruction (sqrtss / sqrtsd), without the errno path of sqrtf.
inline float hostSqrt(float x) {
#if defined(__SSE__)
  return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x)));
#else
  return __builtin_sqrtf(x);
#endif
}
inline double hostSqrt(double x) {
#if defined(__SSE2__)
  const __m128d v = _mm_set_sd(x);
  return _mm_cvtsd_f64(_mm_sqrt_sd(v, v));
#else
  return __builtin_sqrt(x);
#endif
}
// Fused a*b+c for f32 in round-to-nearest without the host's fma: a*b is exact in double, the
// sum is rounded to odd (sumToOdd; 53 >= 24 + 2 bits), and the final conversion to float rounds
// once, correctly.
inline float fmaRN32(float a, float b, float c) {
#ifdef __FMA__
  return __builtin_fmaf(a, b, c);  // the host's fused multiply-add: one rounding, the same bits
#endif
  const double p = double(a) * double(b);
  const double s = p + double(c);
  if (s - s != 0.0) return float(s);  // inf or NaN: nothing to correct
  return float(sumToOdd(p, double(c)));
}

// Whether a round-to-nearest host result under .ftz needs the engine: a subnormal or +-FLT_MIN
// result may come from a tiny exact value (flushed), every other result is final.
inline bool ftzBorderline(float d) { return (bits(d) & 0x7FFFFFFFu) - 1u < 0x00800000u; }
}  // namespace detail

// The .rn .ftz fast path of add, sub, mul, div and fma below: d, the host's result of the
// flushed operands (ftzAddFast ...), is the answer unless it lies at the subnormal border,
// where the exact engine decides (for lane loops that take the fast path for a whole warp
// first: isa/insns/lanes.h's forLanesTwoPass).
inline bool ftzFastHolds(float d) { return !detail::ftzBorderline(d); }
inline float ftzAddFast(float a, float b) { return flushSubnormal(a) + flushSubnormal(b); }
inline float ftzMulFast(float a, float b) { return flushSubnormal(a) * flushSubnormal(b); }
inline float ftzDivFast(float a, float b) { return flushSubnormal(a) / flushSubnormal(b); }
inline float ftzFmaFast(float a, float b, float c) {
  return detail::fmaRN32(flushSubnormal(a), flushSubnormal(b), flushSubnormal(c));
}

inline float add(float a, float b, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    if (!ftz) return detail::canonical32(a + b);
    const float d = ftzAddFast(a, b);
    if (!detail::ftzBorderline(d)) return detail::canonical32(d);
  }
  return detail::addSlow(a, b, r, ftz);
}
inline float sub(float a, float b, Round r, bool ftz = false) {
  return add(a, f32(bits(b) ^ 0x80000000u), r, ftz);  // a NaN stays a NaN: canonical anyway
}
inline float mul(float a, float b, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    if (!ftz) return detail::canonical32(a * b);
    const float d = ftzMulFast(a, b);
    if (!detail::ftzBorderline(d)) return detail::canonical32(d);
  }
  return detail::mulSlow(a, b, r, ftz);
}
inline float fma(float a, float b, float c, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    if (!ftz) return detail::canonical32(detail::fmaRN32(a, b, c));
    const float d = ftzFmaFast(a, b, c);
    if (!detail::ftzBorderline(d)) return detail::canonical32(d);
  }
  return detail::fmaSlow(a, b, c, r, ftz);
}
// IEEE division (div.rn/rz/rm/rp)
inline float div(float a, float b, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    if (!ftz) return detail::canonical32(a / b);
    const float d = ftzDivFast(a, b);
    if (!detail::ftzBorderline(d)) return detail::canonical32(d);
  }
  return detail::divSlow(a, b, r, ftz);
}
inline float sqrt(float a, Round r, bool ftz = false) {
  // The root of a normal number is normal: only the input needs flushing.
  if (r == Round::RN) [[likely]]
    return detail::canonical32(detail::hostSqrt(ftz ? flushSubnormal(a) : a));
  return detail::sqrtSlow(a, r, ftz);
}
// rcp.rn etc.: 1/a correctly rounded
inline float rcp(float a, Round r, bool ftz = false) { return div(1.0f, a, r, ftz); }

inline double add(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a + b;
    return d != d ? nanResult64(a, b) : d;
  }
  return detail::addSlow(a, b, r);
}
inline double sub(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a - b;
    return d != d ? nanResult64(a, b) : d;
  }
  if (isNaN(b) || isNaN(a)) return nanResult64(a, b);
  return detail::addSlow(a, f64(bits(b) ^ (uint64_t{1} << 63)), r);
}
inline double mul(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a * b;
    return d != d ? nanResult64(a, b) : d;
  }
  return detail::mulSlow(a, b, r);
}
inline double fma(double a, double b, double c, Round r) {
  // The host's fused multiply-add (glibc fma, or the FMA instruction) is exact; the engine
  // is used for the directed modes.
  if (r == Round::RN) [[likely]] {
    double d = __builtin_fma(a, b, c);
    return d != d ? nanResultFma64(a, b, c) : d;
  }
  return detail::fmaSlow(a, b, c, r);
}
inline double div(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a / b;
    return d != d ? nanResultDiv64(a, b) : d;
  }
  return detail::divSlow(a, b, r);
}
inline double sqrt(double a, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = detail::hostSqrt(a);
    return d != d ? nanResult64(a, a) : d;
  }
  return detail::sqrtSlow(a, r);
}
inline double rcp(double a, Round r) { return div(1.0, a, r); }

// .sat for floats: clamp to [0.0, 1.0], NaN -> +0.0.
float saturate(float x);
double saturate(double x);

// ---- f16 / bf16 arithmetic (raw bits) ------------------------------------------------------
// Each result is correctly rounded from the exact value (one rounding), NaN -> canonical.
// PTX ISA 9.7.4.1-9.7.4.4 allow only .rn for these; the other modes are exact too.
uint16_t addF16(uint16_t a, uint16_t b, Round r, bool ftz = false);
uint16_t subF16(uint16_t a, uint16_t b, Round r, bool ftz = false);
uint16_t mulF16(uint16_t a, uint16_t b, Round r, bool ftz = false);
uint16_t fmaF16(uint16_t a, uint16_t b, uint16_t c, Round r, bool ftz = false);
uint16_t addBF16(uint16_t a, uint16_t b, Round r);
uint16_t subBF16(uint16_t a, uint16_t b, Round r);
uint16_t mulBF16(uint16_t a, uint16_t b, Round r);
uint16_t fmaBF16(uint16_t a, uint16_t b, uint16_t c, Round r);
uint16_t saturateF16(uint16_t h);   // clamp to [0, 1], NaN -> +0
uint16_t saturateBF16(uint16_t h);  // clamp to [0, 1], NaN -> +0

// ---- conversions between floating formats ------------------------------------------------
// Narrowing conversions round with `r` (one rounding: f64 -> f16 never goes through f32).
// NaN inputs, as measured on the H200 (PTX ISA 9.7.9.21 leaves them unspecified):
//   f32 -> f16 / bf16, f16 -> f32:          the target's canonical NaN (0x7FFF, 0x7FFFFFFF);
//   f64 -> f32 / f16 / bf16:                sign kept, quiet bit set, payload truncated to the
//                                            target's top fraction bits;
//   f32 -> f64, f16 -> f64, bf16 -> f64:    sign kept, quiet bit set, payload shifted up;
//   bf16 -> f32:                            the bits shifted up, unchanged (not even quieted).
// .ftz on cvt applies to f32 inputs and results only (PTX ISA 9.7.9.21): flush an f32 operand
// with flushSubnormal(); an f32 result of f64ToF32 needs the `ftz` overload, since a tiny
// result is not the same as a subnormal one (see roundPack; measured on the H200).
namespace detail {
uint16_t f32ToF16Slow(float x, Round r);
uint16_t f32ToBF16Slow(float x, Round r);
float f16ToF32Special(uint16_t h);  // inf, NaN
}  // namespace detail
inline uint16_t f32ToF16(float x, Round r) {
  const uint32_t b = bits(x), mag = b & 0x7FFFFFFFu;
  if (mag - 0x38800000u <= 0x477FE000u - 0x38800000u) [[likely]] {  // 2^-14 <= |x| <= 65504
    const uint32_t t = mag - 0x38000000u;  // the exponent rebiased from 127 to 15
    const bool neg = (b >> 31) != 0;
    return uint16_t((neg ? 0x8000u : 0u) | ((t + detail::roundBias(r, neg, t, 13)) >> 13));
  }
  return detail::f32ToF16Slow(x, r);
}
uint16_t f64ToF16(double x, Round r);
inline float f16ToF32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16, mag = h & 0x7FFFu;
  if (mag - 0x0400u < 0x7C00u - 0x0400u) [[likely]]
    return f32(sign | ((mag + 0x1C000u) << 13));
  if (mag < 0x0400u) return f32(sign | bits(float(mag) * 0x1p-24f));  // zero, subnormal: exact
  return detail::f16ToF32Special(h);
}
double f16ToF64(uint16_t h);
inline uint16_t f32ToBF16(float x, Round r) {
  // bf16 is the top half of the f32 encoding, subnormals included: round the encoding.
  const uint32_t b = bits(x), mag = b & 0x7FFFFFFFu;
  if (mag <= 0x7F7F0000u) [[likely]] {  // |x| <= the largest bf16
    const bool neg = (b >> 31) != 0;
    return uint16_t((neg ? 0x8000u : 0u) | ((mag + detail::roundBias(r, neg, mag, 16)) >> 16));
  }
  return detail::f32ToBF16Slow(x, r);
}
uint16_t f64ToBF16(double x, Round r);
// PTX ISA 9.7.9.21: "For cvt.f32.bf16, NaN input yields unspecified NaN"; the H200 shifts the
// bits up unchanged, so every bf16 value, NaN or not, is the top half of its f32.
inline float bf16ToF32(uint16_t h) { return f32(uint32_t(h) << 16); }
double bf16ToF64(uint16_t h);
float f64ToF32(double x, Round r);
float f64ToF32(double x, Round r, bool ftz);
double f32ToF64(float x);
// cvt.rna/.rn/.rz.tf32.f32: a float with 10 significand bits kept (low 13 zero), rounding `r`.
// NaN (measured): .rna keeps the NaN with its low 13 bits cleared; .rn/.rz (and RM/RP, which
// PTX does not have) give 0x7FFFE000, the canonical NaN with the low 13 bits cleared.
float f32ToTF32(float x, Round r);

// ---- integral rounding (cvt.rni/.rzi/.rmi/.rpi.f32.f32, cvt.rni.f64.f64) -------------------
// Round to an integral value in the same format; +-inf and +-0 kept; NaN -> canonical for f32,
// and for f64 the operand quieted (payload kept, as nanResult64; measured on the H200).
// The sign is always kept (roundIntegral(-0.25, RN) is -0.0). `ftz` (cvt.rpi.ftz.f32.f32)
// flushes a subnormal input first, so rpi of the smallest subnormal is +0 rather than 1.
float roundIntegral(float x, Round r);
float roundIntegral(float x, Round r, bool ftz);
double roundIntegral(double x, Round r);

// ---- float <-> integer (cvt.{rni,rzi,rmi,rpi}.{s,u}{8,16,32,64}.{f16,bf16,f32,f64}) ----------
// PTX: out-of-range values saturate to the integer type's range ("for float-to-integer
// conversions, the result is clamped to the destination range by default", PTX ISA 9.7.9.21).
// NaN (same section, Integer Notes): 0 when the source is not .f64 and the destination is not
// 64-bit; otherwise 1 << (bitsWide - 1) (MININT for signed, (MAXINT >> 1) + 1 for unsigned).
// The float overload is the "not .f64" source: f16 / bf16 sources convert through f16ToF32 /
// bf16ToF32 (exact) and use it.
// `bitsWide` is 8, 16, 32 or 64; `isSigned` picks s/u. The result is the integer's value
// sign- or zero-extended to 64 bits.
uint64_t floatToInt(double x, Round r, unsigned bitsWide, bool isSigned);
uint64_t floatToInt(float x, Round r, unsigned bitsWide, bool isSigned);
uint64_t floatToInt(float x, Round r, unsigned bitsWide, bool isSigned, bool ftz);

// cvt.{rn,rz,rm,rp}.{f16,f32,f64}.{s,u}{8..64}: integer value `v` (already sign-/zero-
// extended to 64 bits by the caller per `isSigned`) rounded to the target format.
// The f32 and f64 forms inline their common case (.rn from a value below 2^63: the host's own
// conversion, under the host's default round-to-nearest), which a call cost a fifth as much as
// again; the rest (directed rounding, unsigned values from 2^63) is out of line.
float intToF32General(uint64_t v, bool isSigned, Round r);
double intToF64General(uint64_t v, bool isSigned, Round r);
inline float intToF32(uint64_t v, bool isSigned, Round r) {
  if (r == Round::RN && (isSigned || int64_t(v) >= 0)) return float(int64_t(v));  // cvtsi2ss
  return intToF32General(v, isSigned, r);
}
inline double intToF64(uint64_t v, bool isSigned, Round r) {
  if (r == Round::RN && (isSigned || int64_t(v) >= 0)) return double(int64_t(v));  // cvtsi2sd
  return intToF64General(v, isSigned, r);
}
uint16_t intToF16(uint64_t v, bool isSigned, Round r);
uint16_t intToBF16(uint64_t v, bool isSigned, Round r);

// ---- comparisons with NaN (setp/set/min/max helpers) ---------------------------------------
// min/max as PTX defines them: if one input is NaN the other is returned; both NaN -> canonical;
// -0 < +0. `nanPropagate` (.NaN modifier): any NaN input -> canonical NaN.
// f64 (min.f64 / max.f64, no .NaN in PTX): both NaN -> b with its quiet bit set, as the f64
// arithmetic (measured on the H200).
// PTX ISA 9.7.3.11/12 (min/max f32/f64) and 9.7.4.8/9 (f16/bf16): "If values of both inputs
// are 0.0, then +0.0 > -0.0". The `ftz` overloads (min.ftz.f32, min.ftz.f16) flush subnormal
// inputs first; the result is one of the (flushed) inputs, so it needs no flush of its own.
namespace detail {
// min/max on encodings, inline: the NaN rules, then the order of the values with -0 below +0
// (ka, kb map the sign-magnitude encodings to unsigned integers in the order of their values).
template <class U, U kSign, U kInf, U kNaN>
inline U minMax(U a, U b, bool wantMax, bool nanPropagate) {
  const U ma = U(a & ~kSign), mb = U(b & ~kSign);
  const bool na = ma > kInf, nb = mb > kInf;
  if (na || nb) [[unlikely]]
    return (nanPropagate || (na && nb)) ? kNaN : (na ? b : a);
  const U ka = (a & kSign) ? U(~a) : U(a | kSign), kb = (b & kSign) ? U(~b) : U(b | kSign);
  return ((ka < kb) != wantMax) ? a : b;
}
}  // namespace detail
inline float fmin(float a, float b, bool nanPropagate = false) {
  return f32(detail::minMax<uint32_t, 0x80000000u, 0x7F800000u, kCanonicalNaN32>(
      bits(a), bits(b), false, nanPropagate));
}
inline float fmax(float a, float b, bool nanPropagate = false) {
  return f32(detail::minMax<uint32_t, 0x80000000u, 0x7F800000u, kCanonicalNaN32>(
      bits(a), bits(b), true, nanPropagate));
}
inline float fmin(float a, float b, bool nanPropagate, bool ftz) {
  return ftz ? fmin(flushSubnormal(a), flushSubnormal(b), nanPropagate) : fmin(a, b, nanPropagate);
}
inline float fmax(float a, float b, bool nanPropagate, bool ftz) {
  return ftz ? fmax(flushSubnormal(a), flushSubnormal(b), nanPropagate) : fmax(a, b, nanPropagate);
}
double fmin(double a, double b);
double fmax(double a, double b);
inline uint16_t fminF16(uint16_t a, uint16_t b, bool nanPropagate = false) {
  return detail::minMax<uint16_t, 0x8000, 0x7C00, kCanonicalNaN16>(a, b, false, nanPropagate);
}
inline uint16_t fmaxF16(uint16_t a, uint16_t b, bool nanPropagate = false) {
  return detail::minMax<uint16_t, 0x8000, 0x7C00, kCanonicalNaN16>(a, b, true, nanPropagate);
}
inline uint16_t fminF16(uint16_t a, uint16_t b, bool nanPropagate, bool ftz) {
  return ftz ? fminF16(flushSubnormal16(a), flushSubnormal16(b), nanPropagate)
             : fminF16(a, b, nanPropagate);
}
inline uint16_t fmaxF16(uint16_t a, uint16_t b, bool nanPropagate, bool ftz) {
  return ftz ? fmaxF16(flushSubnormal16(a), flushSubnormal16(b), nanPropagate)
             : fmaxF16(a, b, nanPropagate);
}
inline uint16_t fminBF16(uint16_t a, uint16_t b, bool nanPropagate = false) {
  return detail::minMax<uint16_t, 0x8000, 0x7F80, kCanonicalNaNBF16>(a, b, false, nanPropagate);
}
inline uint16_t fmaxBF16(uint16_t a, uint16_t b, bool nanPropagate = false) {
  return detail::minMax<uint16_t, 0x8000, 0x7F80, kCanonicalNaNBF16>(a, b, true, nanPropagate);
}

}  // namespace warpsim::fp
