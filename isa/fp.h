// Floating point with explicit state: every rounding mode, .ftz and .sat are arguments.
// Never the host's floating-point environment (fesetround / MXCSR are global-ish, thread-
// unsafe and invisible). Results are bit-exact IEEE 754 for the IEEE operations in every mode;
// the host's own arithmetic is used only where it is provably the same (round-to-nearest f32/f64
// add/sub/mul/div/sqrt/fma on x86-64 SSE), everything else is exact integer arithmetic.
//
// Half types (f16, bf16) travel as their raw uint16_t bits; tf32 as a float whose low 13
// significand bits are zero.
//
// Layout of the implementation (one engine, thin typed wrappers):
//   fp_round.cpp    the exact rounding engine: roundPack() rounds (sign, exp, wide significand,
//                   sticky) to any binary format in any mode, with subnormals and overflow
//   fp_bits.cpp     unpack(), the format-generic helpers
//   fp_arith.cpp    add/mul/fma/div/sqrt on raw bits of any format, and the f32/f64 slow paths
//   fp_half.cpp     f16 / bf16 arithmetic
//   fp_convert.cpp  float <-> float, float <-> int, integral rounding
//   fp_minmax.cpp   min / max / .sat
//
// The host fast paths below assume the process's default MXCSR (round to nearest, no FTZ/DAZ),
// which nothing in warpsim changes, and IEEE evaluation (no -ffast-math, FLT_EVAL_METHOD 0).
#pragma once

#include <bit>
#include <cstdint>

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
// 0x7fffffff". f16/bf16: PTX ISA 9.7.4 says "unspecified NaN"; f64: PTX ISA 9.7.3 says "NaN
// payloads are supported for double-precision instructions" -- see nanResult64() below for
// what the f64 operations return.
inline constexpr uint32_t kCanonicalNaN32 = 0x7FFFFFFFu;
inline constexpr uint64_t kCanonicalNaN64 = 0x7FFFFFFFFFFFFFFFull;
inline constexpr uint16_t kCanonicalNaN16 = 0x7FFF;
inline constexpr uint16_t kCanonicalNaNBF16 = 0x7FFF;

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
inline bool isNormal(float x) { return isFinite(x) && !isSubnormal(x); }    // zero included
inline bool isNormal(double x) { return isFinite(x) && !isSubnormal(x); }  // zero included
inline bool isSubnormal16(uint16_t h) { return (h & 0x7FFF) != 0 && (h & 0x7C00) == 0; }
inline bool isSubnormalBF16(uint16_t h) { return (h & 0x7FFF) != 0 && (h & 0x7F80) == 0; }

// .ftz: a subnormal becomes a zero of the same sign.
inline float flushSubnormal(float x) {
  return isSubnormal(x) ? f32(bits(x) & 0x80000000u) : x;
}
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
  constexpr int emin() const { return 1 - bias(); }  // exponent of the smallest normal
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
uint64_t roundPack(Format f, bool sign, int exp, u128 sig, bool sticky, Round r);

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
// `ftz` flushes subnormal inputs and (after rounding) subnormal results to signed zero.
uint64_t addBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t subBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t mulBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t fmaBits(Format f, uint64_t a, uint64_t b, uint64_t c, Round r, bool ftz);
uint64_t divBits(Format f, uint64_t a, uint64_t b, Round r, bool ftz);
uint64_t sqrtBits(Format f, uint64_t a, Round r, bool ftz);
// Conversion between formats (one rounding); NaN -> to.canonicalNaN().
uint64_t convertBits(Format from, Format to, uint64_t a, Round r);

// ---- f64 NaN results -----------------------------------------------------------------------
// PTX ISA 9.7.3: "NaN payloads are supported for double-precision instructions". The f64
// operations below return: the first NaN operand (in operand order a, b, c) with its quiet bit
// set, else (an invalid operation such as inf - inf, 0 * inf, sqrt(-1)) kCanonicalNaN64.
// H200 behaviour to be confirmed by the differential tests (see docs/FIDELITY.md when written).
double nanResult64(double a, double b, double c);

// ---- f32 / f64 arithmetic ------------------------------------------------------------------
// NaN results are canonical (see above); ftz flushes subnormal inputs and results (f32 only in
// PTX, but accepted for f64 too as a no-op-free helper).
// PTX ISA 9.7.3.3-9.7.3.8: .ftz flushes subnormal inputs and results to sign-preserving zero;
// the result is flushed after rounding (a value that rounds up to the smallest normal is kept).
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
inline float ftzIn(float x, bool ftz) { return ftz ? flushSubnormal(x) : x; }
inline float ftzOut(float x, bool ftz) { return ftz ? flushSubnormal(x) : x; }
// Fused a*b+c for f32 in round-to-nearest without the host's fma: a*b is exact in double, the
// sum is made round-to-odd with TwoSum (53 >= 24 + 2 bits, Boldo & Melquiond 2008), and the
// final conversion to float rounds once, correctly.
inline float fmaRN32(float a, float b, float c) {
  double p = double(a) * double(b);
  double dc = c;
  double s = p + dc;
  if (s - s != 0.0) return float(s);  // inf or NaN: nothing to correct
  double bb = s - p;
  double e = (p - (s - bb)) + (dc - bb);  // TwoSum: s + e == p + c exactly
  if (e != 0.0) {
    uint64_t sb = bits(s);
    if ((sb & 1) == 0) sb += ((e > 0) == (s > 0)) ? 1 : uint64_t(-1);  // s != 0 here
    s = f64(sb);
  }
  return float(s);
}
}  // namespace detail

inline float add(float a, float b, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    a = detail::ftzIn(a, ftz), b = detail::ftzIn(b, ftz);
    return detail::ftzOut(detail::canonical32(a + b), ftz);
  }
  return detail::addSlow(a, b, r, ftz);
}
inline float sub(float a, float b, Round r, bool ftz = false) {
  return add(a, f32(bits(b) ^ 0x80000000u), r, ftz);  // a NaN stays a NaN: canonical anyway
}
inline float mul(float a, float b, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    a = detail::ftzIn(a, ftz), b = detail::ftzIn(b, ftz);
    return detail::ftzOut(detail::canonical32(a * b), ftz);
  }
  return detail::mulSlow(a, b, r, ftz);
}
inline float fma(float a, float b, float c, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    a = detail::ftzIn(a, ftz), b = detail::ftzIn(b, ftz), c = detail::ftzIn(c, ftz);
    return detail::ftzOut(detail::canonical32(detail::fmaRN32(a, b, c)), ftz);
  }
  return detail::fmaSlow(a, b, c, r, ftz);
}
// IEEE division (div.rn/rz/rm/rp)
inline float div(float a, float b, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    a = detail::ftzIn(a, ftz), b = detail::ftzIn(b, ftz);
    return detail::ftzOut(detail::canonical32(a / b), ftz);
  }
  return detail::divSlow(a, b, r, ftz);
}
inline float sqrt(float a, Round r, bool ftz = false) {
  if (r == Round::RN) [[likely]] {
    a = detail::ftzIn(a, ftz);
    return detail::ftzOut(detail::canonical32(__builtin_sqrtf(a)), ftz);
  }
  return detail::sqrtSlow(a, r, ftz);
}
// rcp.rn etc.: 1/a correctly rounded
inline float rcp(float a, Round r, bool ftz = false) { return div(1.0f, a, r, ftz); }

inline double add(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a + b;
    return d != d ? nanResult64(a, b, 0.0) : d;
  }
  return detail::addSlow(a, b, r);
}
inline double sub(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a - b;
    return d != d ? nanResult64(a, b, 0.0) : d;
  }
  if (isNaN(b) || isNaN(a)) return nanResult64(a, b, 0.0);
  return detail::addSlow(a, f64(bits(b) ^ (uint64_t{1} << 63)), r);
}
inline double mul(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a * b;
    return d != d ? nanResult64(a, b, 0.0) : d;
  }
  return detail::mulSlow(a, b, r);
}
inline double fma(double a, double b, double c, Round r) {
  // The host's fused multiply-add (glibc fma, or the FMA instruction) is exact; the engine
  // is used for the directed modes.
  if (r == Round::RN) [[likely]] {
    double d = __builtin_fma(a, b, c);
    return d != d ? nanResult64(a, b, c) : d;
  }
  return detail::fmaSlow(a, b, c, r);
}
inline double div(double a, double b, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = a / b;
    return d != d ? nanResult64(a, b, 0.0) : d;
  }
  return detail::divSlow(a, b, r);
}
inline double sqrt(double a, Round r) {
  if (r == Round::RN) [[likely]] {
    double d = __builtin_sqrt(a);
    return d != d ? nanResult64(a, 0.0, 0.0) : d;
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
uint16_t saturateF16(uint16_t h);  // clamp to [0, 1], NaN -> +0
uint16_t saturateBF16(uint16_t h);  // clamp to [0, 1], NaN -> +0

// ---- conversions between floating formats ------------------------------------------------
// Narrowing conversions round with `r`; NaN inputs give the canonical NaN of the target format
// (PTX: "cvt ... NaN inputs produce canonical NaN"); widening ones are exact (NaN -> canonical).
// .ftz on cvt applies to f32 inputs and results only (PTX ISA 9.7.9.21): the caller flushes
// the f32 operand / result with flushSubnormal(), which is the same as flushing after rounding.
uint16_t f32ToF16(float x, Round r);
uint16_t f64ToF16(double x, Round r);
float f16ToF32(uint16_t h);
double f16ToF64(uint16_t h);
uint16_t f32ToBF16(float x, Round r);
uint16_t f64ToBF16(double x, Round r);
float bf16ToF32(uint16_t h);
double bf16ToF64(uint16_t h);
float f64ToF32(double x, Round r);
double f32ToF64(float x);
// cvt.rna/.rn/.rz.tf32.f32: a float with 10 significand bits kept (low 13 zero), rounding `r`.
float f32ToTF32(float x, Round r);

// ---- integral rounding (cvt.rni/.rzi/.rmi/.rpi.f32.f32, cvt.rni.f64.f64) -------------------
// Round to an integral value in the same format; NaN -> canonical, +-inf and +-0 kept.
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
float intToF32(uint64_t v, bool isSigned, Round r);
double intToF64(uint64_t v, bool isSigned, Round r);
uint16_t intToF16(uint64_t v, bool isSigned, Round r);
uint16_t intToBF16(uint64_t v, bool isSigned, Round r);

// ---- comparisons with NaN (setp/set/min/max helpers) ---------------------------------------
// min/max as PTX defines them: if one input is NaN the other is returned; both NaN -> canonical;
// -0 < +0. `nanPropagate` (.NaN modifier): any NaN input -> canonical NaN.
// PTX ISA 9.7.3.11/12 (min/max f32/f64) and 9.7.4.8/9 (f16/bf16): "If values of both inputs
// are 0.0, then +0.0 > -0.0". The `ftz` overloads (min.ftz.f32, min.ftz.f16) flush subnormal
// inputs first; the result is one of the (flushed) inputs, so it needs no flush of its own.
float fmin(float a, float b, bool nanPropagate = false);
float fmax(float a, float b, bool nanPropagate = false);
float fmin(float a, float b, bool nanPropagate, bool ftz);
float fmax(float a, float b, bool nanPropagate, bool ftz);
double fmin(double a, double b);
double fmax(double a, double b);
uint16_t fminF16(uint16_t a, uint16_t b, bool nanPropagate = false);
uint16_t fmaxF16(uint16_t a, uint16_t b, bool nanPropagate = false);
uint16_t fminF16(uint16_t a, uint16_t b, bool nanPropagate, bool ftz);
uint16_t fmaxF16(uint16_t a, uint16_t b, bool nanPropagate, bool ftz);
uint16_t fminBF16(uint16_t a, uint16_t b, bool nanPropagate = false);
uint16_t fmaxBF16(uint16_t a, uint16_t b, bool nanPropagate = false);

}  // namespace warpsim::fp
