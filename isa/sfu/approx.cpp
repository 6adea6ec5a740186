// The models of the hardware approximations, PTX ISA 9.0 sections 9.7.3.8-9.7.3.22
// and 9.7.4.9-9.7.4.10: ex2 lg2 sin cos tanh rsqrt (.approx), rcp.approx, sqrt.approx, div.approx,
// div.full, and the f16/bf16 forms of ex2 and tanh.
//
// These results are hardware-specific (the SFU's tables and interpolation): PTX only bounds
// their error. What the chip does (nvdisasm of ptxas 13 for sm_90): every form is one MUFU
// instruction, with FMUL/FADD fix-ups around it for the non-.ftz subnormal range
// (docs/FIDELITY.md lists the sequences); the 16-bit forms are MUFU.EX2/TANH.F16/.BF16, which
// give the f32 MUFU result rounded toward zero.
//
// Exact, proved on every input (`warpsim fastmath-verify`): every f32 form (rcp, rsqrt, sqrt,
// ex2, lg2, sin, cos with and without .ftz, tanh), div.approx, div.full and the .ftz.f64 forms,
// built on the H200's MUFU.RCP / RSQ / SQRT / EX2 / LG2 / SIN / COS / TANH (isa/sfu/mufu.h,
// tables fitted to the chip's dense binades) and ptxas's FMUL/FADD around them; the four 16-bit
// forms (and their x2 forms); rsqrt.approx.f64 (ptxas's sequence, on the committed samples).
#include "isa/sfu/approx.h"

#include <cmath>

#include "isa/fp.h"
#include "isa/sfu/mufu.h"

namespace warpsim::isa::sfu {
namespace {
using fp::Round;

constexpr uint32_t kSign32 = 0x80000000u;

float F(uint32_t b) { return fp::f32(b); }
constexpr float kTwo24 = 16777216.0f, kTwo12 = 4096.0f, kTwoM12 = 1.0f / 4096.0f;
bool belowNormal(uint32_t a) { return (a & ~kSign32) < 0x00800000u; }  // |x| < 2^-126
bool above2to126(uint32_t a) { return (a & ~kSign32) > 0x7E800000u; }  // |x| > 2^126
uint32_t fmul(uint32_t a, float s, bool ftz) { return fp::bits(fp::mul(F(a), s, Round::RN, ftz)); }
}  // namespace

// The MUFU-based forms below are the H200's exactly (isa/sfu/mufu.h): MUFU with the FMUL
// scaling ptxas wraps around it for the non-.ftz variants (nvdisasm of ptxas 13, sm_90;
// docs/FIDELITY.md lists the sequences). Each FMUL rounds to nearest; the .ftz variants' FMULs
// flush.

// ---- f32 approximations ------------------------------------------------------------------
// ex2.approx{.ftz}.f32 (9.7.3.21): -inf -> +0, +-0 -> +1, +inf -> +inf. .ftz is one MUFU.EX2;
// without it an x below -126 is halved first and the result squared (an FMUL that keeps the
// subnormal result).
uint32_t ex2ApproxF32(uint32_t a, bool ftz) {
  if (ftz || !(F(a) < -126.0f)) return mufuEx2(a);
  const uint32_t r = mufuEx2(fmul(a, 0.5f, false));
  return fmul(r, F(r), false);
}

// lg2.approx{.ftz}.f32 (9.7.3.20): -inf, negative -> NaN; +-0 -> -inf; +inf -> +inf. .ftz is
// one MUFU.LG2 (which flushes a subnormal operand: -inf); without it a |x| below 2^-126 is
// scaled by 2^24 first and 24 subtracted after (an FADD, rounded to nearest): a negative
// subnormal stays negative (NaN).
uint32_t lg2ApproxF32(uint32_t a, bool ftz) {
  if (ftz || !belowNormal(a)) return mufuLg2(a);
  return fp::bits(fp::add(F(mufuLg2(fmul(a, kTwo24, false))), -24.0f, Round::RN, false));
}

// sin/cos.approx{.ftz}.f32 (9.7.3.18-19): +-inf -> NaN, sin(+-0) = +-0, cos(+-0) = +1; absolute
// error 2^-20.5 in [-2pi, 2pi], "best effort" beyond 100 pi. ptxas 13 (sm_90) emits FMUL.RZ
// x * 0.15915494 (1 / 2pi in f32) and MUFU.SIN / MUFU.COS of that (isa/sfu/mufu.h), for .ftz
// or not: MUFU flushes a subnormal t, so sin(FLT_MIN) = +0, and a huge x, whose t is an integer,
// gives sin = +-0 and cos = 1.
namespace {
constexpr float kInvTwoPi = 0.159154936671257019f;  // 0x3E22F983
uint32_t turns(uint32_t a) { return fp::bits(fp::mul(F(a), kInvTwoPi, Round::RZ, false)); }
}  // namespace
uint32_t sinApproxF32(uint32_t a, bool) { return mufuSin(turns(a)); }
uint32_t cosApproxF32(uint32_t a, bool) { return mufuCos(turns(a)); }

// tanh.approx.f32 (9.7.3.22): +-inf -> +-1, +-0 -> +-0, subnormals pass through ("the value of
// tanh(x) for small values of x is approximately the same as x"); there is no .ftz. One
// MUFU.TANH (isa/sfu/mufu.h: x itself below 2^-8, +-1 from 8, the chip's table per binade
// between, fitted to every input of [2^-8, 8)).
uint32_t tanhApproxF32(uint32_t a, bool) { return mufuTanh(a); }

// rcp.approx{.ftz}.f32 (9.7.3.13): -inf -> -0, -0 -> -inf, +0 -> +inf, +inf -> +0. .ftz is one
// MUFU.RCP; without it the operand is scaled into MUFU's range first (s = 2^24 below 2^-126,
// 1/4 above 2^126) and the result by s after, so subnormal operands and results survive.
uint32_t rcpApproxF32(uint32_t a, bool ftz) {
  if (ftz) return mufuRcp(a);
  const float s = belowNormal(a) ? kTwo24 : above2to126(a) ? 0.25f : 1.0f;
  return fmul(mufuRcp(fmul(a, s, false)), s, false);
}

// rsqrt.approx{.ftz}.f32 (9.7.3.16): -inf, negative -> NaN; -0 -> -inf; +0 -> +inf; +inf -> +0.
// Without .ftz a subnormal x is scaled by 2^24 and the result by 2^12.
uint32_t rsqrtApproxF32(uint32_t a, bool ftz) {
  if (ftz || !belowNormal(a)) return mufuRsq(a);
  return fmul(mufuRsq(fmul(a, kTwo24, false)), kTwo12, false);
}

// sqrt.approx{.ftz}.f32 (9.7.3.15): -inf, negative -> NaN; +-0 -> +-0; +inf -> +inf. Without
// .ftz a subnormal x is scaled by 2^24 and the result by 2^-12.
uint32_t sqrtApproxF32(uint32_t a, bool ftz) {
  if (ftz || !belowNormal(a)) return mufuSqrt(a);
  return fmul(mufuSqrt(fmul(a, kTwo24, false)), kTwoM12, false);
}

// The operands of a quotient as ptxas scales them before MUFU.RCP of the divisor: div.full by
// 1/4 when |b| > 2^126 (so that 1/b stays normal), both forms without .ftz by 2^24 when b is
// subnormal. The quotient is then one FMUL of the reciprocal and the scaled dividend, or, where
// an add/sub consumes it, one FFMA (divFmaF32).
struct ScaledDivision {
  uint32_t a, b;
};
ScaledDivision scaleDivision(uint32_t a, uint32_t b, bool full, bool ftz) {
  const float s = full && above2to126(b) ? 0.25f : (!ftz && belowNormal(b)) ? kTwo24 : 1.0f;
  if (s != 1.0f) a = fmul(a, s, ftz), b = fmul(b, s, ftz);
  return {a, b};
}

// div.approx{.ftz}.f32 (9.7.3.8): "d = a * (1/b)": MUFU.RCP of b, then one FMUL. "For 2^126 <
// |b| < 2^128, if a is infinity, div.approx.f32 returns NaN, otherwise it returns a
// sign-preserving zero": MUFU flushes that reciprocal (div.approx does not scale such a b).
uint32_t divApproxF32(uint32_t a, uint32_t b, bool ftz) {
  const ScaledDivision d = scaleDivision(a, b, false, ftz);
  return fmul(d.a, F(mufuRcp(d.b)), ftz);
}

// div.full{.ftz}.f32 (9.7.3.8): "a relatively fast, full-range approximation that scales
// operands to achieve better accuracy ... The maximum ulp error is 2".
uint32_t divFullF32(uint32_t a, uint32_t b, bool ftz) {
  const ScaledDivision d = scaleDivision(a, b, true, ftz);
  return fmul(d.a, F(mufuRcp(d.b)), ftz);
}

// The contracted form (ptxas 13, sm_90: `FFMA{.FTZ} d, MUFU.RCP(b'), +-a', +-c`).
uint32_t divFmaF32(uint32_t a, uint32_t b, uint32_t c, bool full, bool ftz, bool negProduct,
                   bool negAddend) {
  const ScaledDivision d = scaleDivision(a, b, full, ftz);
  const uint32_t dividend = negProduct ? d.a ^ kSign32 : d.a;
  if (negAddend) c ^= kSign32;
  return fp::bits(fp::fma(F(mufuRcp(d.b)), F(dividend), F(c), Round::RN, ftz));
}

// ---- f64 approximations ------------------------------------------------------------------
// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64 (9.7.3.14, 9.7.3.17): "tmp = a[63:32]" in 1.11.20
// format, the result's upper word computed from it, "d[31:0] = 0" (one SASS instruction each,
// MUFU.RCP64H / MUFU.RSQ64H). The H200 computes them with the f32 MUFU.RCP / RSQ tables: the
// significand of the f32 function of the same 20 leading mantissa bits, truncated to 20 bits
// (every upper word of [1, 2) and [1, 4) agrees, FIDELITY), with the f64 exponent range.
// Subnormal inputs and results flush to signed zero, and a NaN gives the format's canonical
// NaN, 0x7fffffff00000000 as the manual specifies. A NaN whose payload lies only in the low
// word reads as infinity, per the semantics (only a[63:32] is looked at).
namespace {
constexpr uint64_t kNaNHi = 0x7FFFFFFFull << 32, kInfHi = 0x7FF00000ull << 32;
// sign | y's top 20 fraction bits at biased exponent e (2^23 <= y <= 2^24).
uint64_t packHi(uint64_t sign, int e, uint32_t y) {
  if (y >= (2u << 23)) y >>= 1, ++e;
  if (e <= 0) return sign;
  if (e >= 2047) return sign | kInfHi;
  return sign | uint64_t(e) << 52 | uint64_t((y - (1u << 23)) >> 3) << 32;
}
}  // namespace

uint64_t rcpApproxFtzF64(uint64_t a) {
  const uint64_t sign = a & (uint64_t{1} << 63);
  const int e = int((a >> 52) & 0x7FF);
  const uint32_t m20 = uint32_t(a >> 32) & 0xFFFFF;
  if (e == 0x7FF) return m20 ? kNaNHi : sign;
  if (e == 0) return sign | kInfHi;
  return packHi(sign, 2045 - e, mufuRcpSignificand(m20 << 3));
}

uint64_t rsqrtApproxFtzF64(uint64_t a) {
  const uint64_t sign = a & (uint64_t{1} << 63);
  const int e = int((a >> 52) & 0x7FF);
  const uint32_t m20 = uint32_t(a >> 32) & 0xFFFFF;
  if (e == 0x7FF && m20) return kNaNHi;
  if (e == 0) return sign | kInfHi;  // +-0 -> +-inf
  if (sign) return kNaNHi;
  if (e == 0x7FF) return 0;
  const int k = e - 1023, parity = k & 1, t = (k - parity) / 2;
  return packHi(0, 1022 - t, mufuRsqSignificand(uint32_t(parity) << 23 | m20 << 3));
}

// rsqrt.approx.f64 (9.7.3.16; "emulated in software"): what ptxas 13 emits for sm_90 (nvdisasm):
// y = MUFU.RSQ64H (the .ftz.f64 form above), one Newton step of the third order in DMUL/DFMA
// (e = 1 - x y^2; y + (3/8 e + 1/2) (y e)), all rounded to nearest. Outside the positive
// normal range, its slow path: +-0 -> +-inf, NaN -> x + x (payload kept, quieted), negative ->
// the H200's invalid-operation NaN (fp::kInvalidNaN64), +inf -> +0, and a subnormal x is
// scaled by 2^54 first and the result by 2^27.
namespace {
double rsqrtNewtonF64(double x) {
  const double y = fp::f64(rsqrtApproxFtzF64(fp::bits(x)));
  const double e = fp::fma(x, -(y * y), 1.0, Round::RN);
  const double c = fp::fma(e, 0.375, 0.5, Round::RN);
  return fp::fma(c, y * e, y, Round::RN);
}
}  // namespace

uint64_t rsqrtApproxF64(uint64_t a) {
  const double x = fp::f64(a);
  if (uint32_t(a >> 32) - 0x100000u < 0x7FE00000u) return fp::bits(rsqrtNewtonF64(x));
  if (x == 0) return (a & (uint64_t{1} << 63)) | 0x7FF0000000000000ull;
  if (fp::isNaN(x)) return fp::bits(fp::nanResult64(x, x));
  if (x < 0) return fp::kInvalidNaN64;
  if (std::isinf(x)) return 0;
  return fp::bits(rsqrtNewtonF64(x * 0x1p54) * 0x1p27);
}

// ---- f16 / bf16 approximations (9.7.4.9-9.7.4.10) ----------------------------------------
// The *Computed functions: the f32 MUFU result rounded toward zero to the 16-bit format, as
// MUFU.*.F16/BF16 do: the exact MUFU.EX2 and MUFU.TANH, so every input agrees with the H200 and
// the exception lists of half_tables.cpp are empty. An f16 overflow still gives +inf
// (ex2.approx.f16 of 16.0 is 0x7C00). ex2.approx.f16 keeps subnormals (they widen to normal f32
// operands); ex2.approx.ftz.bf16 flushes subnormal inputs (2^+-0 = +1) and results; tanh keeps
// subnormals ("The subnormal numbers are supported").
namespace {
uint16_t toF16Rz(float f) {
  if (std::fabs(f) >= 65520.0f) return std::signbit(f) ? 0xFC00 : 0x7C00;
  return fp::f32ToF16(f, Round::RZ);
}
}  // namespace

uint16_t ex2ApproxF16Computed(uint16_t h) {
  if (fp::isNaN16(h)) return fp::kCanonicalNaN16;
  return toF16Rz(F(mufuEx2(fp::bits(fp::f16ToF32(h)))));
}
uint16_t ex2ApproxFtzBF16Computed(uint16_t h) {
  h = uint16_t(fp::flushBits(fp::kBF16, h));
  if (fp::isNaNBF16(h)) return fp::kCanonicalNaNBF16;
  const uint16_t r = uint16_t(mufuEx2(uint32_t{h} << 16) >> 16);  // toward zero
  return uint16_t(fp::flushBits(fp::kBF16, r));
}
uint16_t tanhApproxF16Computed(uint16_t h) {
  if (fp::isNaN16(h)) return fp::kCanonicalNaN16;
  return toF16Rz(F(tanhApproxF32(fp::bits(fp::f16ToF32(h)), false)));
}
uint16_t tanhApproxBF16Computed(uint16_t h) {
  if (fp::isNaNBF16(h)) return fp::kCanonicalNaNBF16;
  return fp::f32ToBF16(F(tanhApproxF32(fp::bits(fp::bf16ToF32(h)), false)), Round::RZ);
}

}  // namespace warpsim::isa::sfu
