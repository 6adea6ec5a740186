// Hand-checked edge cases for isa/fp.h: every function, every rounding mode where it matters.
// Values are written as encodings so that the expectations are exact; the comment beside each
// says what it is and why that is the right answer (IEEE 754-2019 or the PTX ISA section).
#include "isa/fp.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace warpsim::fp {
namespace {

constexpr Round kRN = Round::RN, kRZ = Round::RZ, kRM = Round::RM, kRP = Round::RP,
                kRNA = Round::RNA;

// f32 encodings used throughout.
constexpr uint32_t kPosZero = 0x00000000, kNegZero = 0x80000000;
constexpr uint32_t kPosInf = 0x7F800000, kNegInf = 0xFF800000;
constexpr uint32_t kMax = 0x7F7FFFFF, kNegMax = 0xFF7FFFFF;  // FLT_MAX
constexpr uint32_t kMinNormal = 0x00800000;                  // FLT_MIN = 2^-126
constexpr uint32_t kMinSub = 0x00000001;                     // 2^-149
constexpr uint32_t kMaxSub = 0x007FFFFF;
constexpr uint32_t kOne = 0x3F800000, kNegOne = 0xBF800000, kTwo = 0x40000000;
constexpr uint32_t kHalf = 0x3F000000;
constexpr uint32_t kQNaNPayload = 0x7FC01234, kSNaN = 0x7F800001, kNegNaN = 0xFFC00000;

float F(uint32_t b) { return f32(b); }
double D(uint64_t b) { return f64(b); }

#define EXPECT_F32(expected, actual) EXPECT_EQ(uint32_t(expected), bits(actual))
#define EXPECT_F64(expected, actual) EXPECT_EQ(uint64_t(expected), bits(actual))
#define EXPECT_H(expected, actual) EXPECT_EQ(uint16_t(expected), uint16_t(actual))

// ---- bits and classification ------------------------------------------------------------
TEST(FpBits, RoundTrips) {
  EXPECT_EQ(0x3F800000u, bits(1.0f));
  EXPECT_EQ(0x3FF0000000000000ull, bits(1.0));
  EXPECT_EQ(-2.0f, f32(0xC0000000u));
  EXPECT_EQ(0.5, f64(0x3FE0000000000000ull));
}

TEST(FpBits, NaNClassification16) {
  EXPECT_TRUE(isNaN16(0x7E00));
  EXPECT_TRUE(isNaN16(0xFC01));
  EXPECT_FALSE(isNaN16(0x7C00));  // +inf
  EXPECT_FALSE(isNaN16(0x7BFF));
  EXPECT_TRUE(isNaNBF16(0x7FC0));
  EXPECT_TRUE(isNaNBF16(0xFF81));
  EXPECT_FALSE(isNaNBF16(0xFF80));  // -inf
  EXPECT_FALSE(isNaNBF16(0x7F7F));
}

TEST(FpBits, TestpClassesF32) {
  // PTX ISA 9.7.3.1: zero counts as normal.
  for (uint32_t z : {kPosZero, kNegZero}) {
    EXPECT_TRUE(isNormal(F(z)));
    EXPECT_FALSE(isSubnormal(F(z)));
    EXPECT_TRUE(isFinite(F(z)));
    EXPECT_TRUE(isNumber(F(z)));
  }
  EXPECT_TRUE(isSubnormal(F(kMinSub)));
  EXPECT_TRUE(isSubnormal(F(0x807FFFFF)));
  EXPECT_FALSE(isNormal(F(kMaxSub)));
  EXPECT_FALSE(isSubnormal(F(kMinNormal)));
  EXPECT_TRUE(isNormal(F(kMinNormal)));
  EXPECT_TRUE(isNormal(F(kMax)));
  EXPECT_TRUE(isInfinite(F(kNegInf)));
  EXPECT_FALSE(isFinite(F(kPosInf)));
  EXPECT_FALSE(isNormal(F(kPosInf)));
  EXPECT_FALSE(isSubnormal(F(kPosInf)));
  EXPECT_TRUE(isNumber(F(kPosInf)));
  EXPECT_FALSE(isNotANumber(F(kPosInf)));
  for (uint32_t n : {kQNaNPayload, kSNaN, kNegNaN}) {
    EXPECT_TRUE(isNotANumber(F(n)));
    EXPECT_FALSE(isNumber(F(n)));
    EXPECT_FALSE(isFinite(F(n)));
    EXPECT_FALSE(isInfinite(F(n)));
    EXPECT_FALSE(isNormal(F(n)));
    EXPECT_FALSE(isSubnormal(F(n)));
  }
}

TEST(FpBits, TestpClassesF64) {
  EXPECT_TRUE(isNormal(D(0x8000000000000000)));
  EXPECT_TRUE(isSubnormal(D(0x0000000000000001)));
  EXPECT_TRUE(isSubnormal(D(0x800FFFFFFFFFFFFF)));
  EXPECT_TRUE(isNormal(D(0x0010000000000000)));
  EXPECT_TRUE(isInfinite(D(0xFFF0000000000000)));
  EXPECT_TRUE(isNumber(D(0x7FF0000000000000)));
  EXPECT_TRUE(isNotANumber(D(0x7FF0000000000001)));
  EXPECT_FALSE(isFinite(D(0x7FF8000000000000)));
  EXPECT_FALSE(isNormal(D(0x7FF8000000000000)));
  EXPECT_TRUE(isFinite(D(0x7FEFFFFFFFFFFFFF)));
}

TEST(FpBits, FlushSubnormal) {
  EXPECT_F32(kPosZero, flushSubnormal(F(kMaxSub)));
  EXPECT_F32(kNegZero, flushSubnormal(F(0x80000001)));
  EXPECT_F32(kMinNormal, flushSubnormal(F(kMinNormal)));
  EXPECT_F32(kQNaNPayload, flushSubnormal(F(kQNaNPayload)));
  EXPECT_F64(0x8000000000000000, flushSubnormal(D(0x8000000000000001)));
  EXPECT_F64(0x0010000000000000, flushSubnormal(D(0x0010000000000000)));
  EXPECT_H(0x8000, flushSubnormal16(0x83FF));
  EXPECT_H(0x0000, flushSubnormal16(0x0001));
  EXPECT_H(0x0400, flushSubnormal16(0x0400));
}

// ---- the engine directly -------------------------------------------------------------------
TEST(FpEngine, RoundPackExactAndRounded) {
  // 3 * 2^0 in f16 is exact.
  EXPECT_EQ(0x4200u, roundPack(kF16, false, 0, 3, false, kRN));
  // 2049 = 2^11 + 1: a tie between 2048 and 2050 in f16 (11 significant bits).
  EXPECT_EQ(0x6800u, roundPack(kF16, false, 0, 2049, false, kRN));   // even: 2048
  EXPECT_EQ(0x6801u, roundPack(kF16, false, 0, 2049, false, kRNA));  // away: 2050
  EXPECT_EQ(0x6801u, roundPack(kF16, false, 0, 2049, false, kRP));
  EXPECT_EQ(0x6800u, roundPack(kF16, false, 0, 2049, false, kRZ));
  EXPECT_EQ(0xE801u, roundPack(kF16, true, 0, 2049, false, kRM));
  // A sticky part breaks the tie: 2049 + s rounds up in RN.
  EXPECT_EQ(0x6801u, roundPack(kF16, false, 0, 2049, true, kRN));
  // Zero significand: a signed zero.
  EXPECT_EQ(0x8000u, roundPack(kF16, true, 5, 0, false, kRN));
}

TEST(FpEngine, RoundPackSubnormalAndUnderflow) {
  // 2^-25 is half the smallest f16 subnormal (2^-24): a tie, to even (zero) in RN.
  EXPECT_EQ(0x0000u, roundPack(kF16, false, -25, 1, false, kRN));
  EXPECT_EQ(0x0001u, roundPack(kF16, false, -25, 1, false, kRNA));
  EXPECT_EQ(0x0001u, roundPack(kF16, false, -25, 1, false, kRP));
  EXPECT_EQ(0x8001u, roundPack(kF16, true, -25, 1, false, kRM));
  EXPECT_EQ(0x8000u, roundPack(kF16, true, -25, 1, false, kRP));
  // 3 * 2^-26 = 0.75 ulp: rounds to the smallest subnormal in RN.
  EXPECT_EQ(0x0001u, roundPack(kF16, false, -26, 3, false, kRN));
  // Far below everything: zero, or the smallest subnormal toward the rounding direction.
  EXPECT_EQ(0x0000u, roundPack(kF32, false, -10000, 1, false, kRN));
  EXPECT_EQ(0x0001u, roundPack(kF32, false, -10000, 1, false, kRP));
  EXPECT_EQ(0x80000000u, roundPack(kF32, true, -10000, 1, false, kRZ));
  // The largest subnormal rounding up into the smallest normal: (2^24 - 1) * 2^-150.
  EXPECT_EQ(uint64_t(kMinNormal), roundPack(kF32, false, -150, (1u << 24) - 1, false, kRN));
  EXPECT_EQ(uint64_t(kMaxSub), roundPack(kF32, false, -150, (1u << 24) - 1, false, kRZ));
}

TEST(FpEngine, RoundPackOverflowPerMode) {
  // 2^16 is beyond f16 (max 65504): IEEE 754-2019 7.4.
  EXPECT_EQ(0x7C00u, roundPack(kF16, false, 16, 1, false, kRN));
  EXPECT_EQ(0x7BFFu, roundPack(kF16, false, 16, 1, false, kRZ));
  EXPECT_EQ(0x7C00u, roundPack(kF16, false, 16, 1, false, kRP));
  EXPECT_EQ(0x7BFFu, roundPack(kF16, false, 16, 1, false, kRM));
  EXPECT_EQ(0xFC00u, roundPack(kF16, true, 16, 1, false, kRM));
  EXPECT_EQ(0xFBFFu, roundPack(kF16, true, 16, 1, false, kRP));
  EXPECT_EQ(0xFC00u, roundPack(kF16, true, 16, 1, false, kRNA));
  // A huge exponent does not wrap.
  EXPECT_EQ(0x7FF0000000000000u, roundPack(kF64, false, 100000, 1, false, kRN));
}

TEST(FpEngine, UnpackClasses) {
  Unpacked u = unpack(kF32, kOne);
  EXPECT_EQ(Class::Normal, u.cls);
  EXPECT_EQ(uint64_t{1} << 23, u.sig);
  EXPECT_EQ(-23, u.exp);
  u = unpack(kF32, 0x80000003);
  EXPECT_EQ(Class::Subnormal, u.cls);
  EXPECT_TRUE(u.sign);
  EXPECT_EQ(3u, u.sig);
  EXPECT_EQ(-149, u.exp);
  EXPECT_EQ(Class::Inf, unpack(kF16, 0xFC00).cls);
  EXPECT_EQ(Class::NaN, unpack(kBF16, 0x7F81).cls);
  EXPECT_EQ(Class::Zero, unpack(kF64, 0x8000000000000000).cls);
}

TEST(FpEngine, CanonicalNaNs) {
  EXPECT_EQ(kCanonicalNaN16, kF16.canonicalNaN());
  EXPECT_EQ(kCanonicalNaNBF16, kBF16.canonicalNaN());
  EXPECT_EQ(kCanonicalNaN32, kF32.canonicalNaN());
  EXPECT_EQ(kCanonicalNaN64, kF64.canonicalNaN());
}

// ---- f32 arithmetic --------------------------------------------------------------------------
TEST(FpF32, OverflowPerMode) {
  // add.rz.f32 FLT_MAX + FLT_MAX = FLT_MAX; .rp = +inf (IEEE 754-2019 7.4).
  EXPECT_F32(kPosInf, add(F(kMax), F(kMax), kRN));
  EXPECT_F32(kMax, add(F(kMax), F(kMax), kRZ));
  EXPECT_F32(kMax, add(F(kMax), F(kMax), kRM));
  EXPECT_F32(kPosInf, add(F(kMax), F(kMax), kRP));
  EXPECT_F32(kNegInf, add(F(kNegMax), F(kNegMax), kRN));
  EXPECT_F32(kNegMax, add(F(kNegMax), F(kNegMax), kRZ));
  EXPECT_F32(kNegInf, add(F(kNegMax), F(kNegMax), kRM));
  EXPECT_F32(kNegMax, add(F(kNegMax), F(kNegMax), kRP));
  EXPECT_F32(kMax, mul(F(kMax), F(kTwo), kRZ));
  EXPECT_F32(kNegInf, mul(F(kMax), F(0xC0000000), kRM));
  EXPECT_F32(kNegMax, fma(F(kMax), F(kNegOne), F(kNegMax), kRZ));
  EXPECT_F32(kMax, div(F(kMax), F(kHalf), kRM));
  // Just past FLT_MAX by less than half an ulp stays finite in RN.
  EXPECT_F32(kMax, add(F(kMax), F(0x72FFFFFF), kRN));  // + (2^103 - tiny): below half an ulp
}

TEST(FpF32, SignedZeroResults) {
  // x + -x is +0 in RN/RZ/RP and -0 in RM (IEEE 754-2019 6.3).
  for (uint32_t x : {kOne, kMinSub, kMax, 0x12345678u}) {
    EXPECT_F32(kPosZero, add(F(x), F(x ^ 0x80000000), kRN));
    EXPECT_F32(kPosZero, add(F(x), F(x ^ 0x80000000), kRZ));
    EXPECT_F32(kPosZero, add(F(x), F(x ^ 0x80000000), kRP));
    EXPECT_F32(kNegZero, add(F(x), F(x ^ 0x80000000), kRM));
    EXPECT_F32(kPosZero, sub(F(x), F(x), kRN));
    EXPECT_F32(kNegZero, sub(F(x), F(x), kRM));
  }
  // Zeros of the same sign keep it; of different signs follow the mode.
  EXPECT_F32(kNegZero, add(F(kNegZero), F(kNegZero), kRN));
  EXPECT_F32(kNegZero, add(F(kNegZero), F(kNegZero), kRP));
  EXPECT_F32(kPosZero, add(F(kPosZero), F(kNegZero), kRN));
  EXPECT_F32(kNegZero, add(F(kPosZero), F(kNegZero), kRM));
  EXPECT_F32(kPosZero, sub(F(kNegZero), F(kNegZero), kRZ));
  EXPECT_F32(kNegZero, sub(F(kNegZero), F(kPosZero), kRN));
  // Products and quotients of zeros carry the xor of the signs.
  EXPECT_F32(kNegZero, mul(F(kNegZero), F(kOne), kRN));
  EXPECT_F32(kPosZero, mul(F(kNegZero), F(kNegOne), kRP));
  EXPECT_F32(kNegZero, div(F(kPosZero), F(kNegOne), kRZ));
  // Underflow to zero keeps the sign.
  EXPECT_F32(kNegZero, mul(F(0x80000001), F(kHalf), kRN));  // -2^-150: tie to even, -0
  EXPECT_F32(0x80000001, mul(F(0x80000001), F(kHalf), kRM));
  // fma: an exact zero sum follows the mode; -0 + (+0 * x) ...
  EXPECT_F32(kPosZero, fma(F(kNegOne), F(kOne), F(kOne), kRN));
  EXPECT_F32(kNegZero, fma(F(kNegOne), F(kOne), F(kOne), kRM));
  EXPECT_F32(kNegZero, fma(F(kNegZero), F(kOne), F(kNegZero), kRN));
  EXPECT_F32(kPosZero, fma(F(kNegZero), F(kOne), F(kPosZero), kRP));
  EXPECT_F32(kNegZero, fma(F(kNegZero), F(kOne), F(kPosZero), kRM));
  EXPECT_F32(kOne, fma(F(kNegZero), F(kMax), F(kOne), kRM));  // 0 + c is c exactly
}

TEST(FpF32, SubnormalResultsWithAndWithoutFtz) {
  // FLT_MIN * 0.5 = 2^-127, a subnormal.
  EXPECT_F32(0x00400000, mul(F(kMinNormal), F(kHalf), kRN));
  EXPECT_F32(kPosZero, mul(F(kMinNormal), F(kHalf), kRN, true));
  EXPECT_F32(kNegZero, mul(F(0x80800000), F(kHalf), kRN, true));
  EXPECT_F32(kPosZero, mul(F(kMinNormal), F(kHalf), kRP, true));  // flushed after rounding
  // Subnormal inputs are flushed with .ftz: min subnormal + min subnormal.
  EXPECT_F32(0x00000002, add(F(kMinSub), F(kMinSub), kRN));
  EXPECT_F32(kPosZero, add(F(kMinSub), F(kMinSub), kRN, true));
  EXPECT_F32(kOne, add(F(kOne), F(kMinSub), kRZ, true));
  EXPECT_F32(0x3F800001, add(F(kOne), F(kMinSub), kRP, false));
  EXPECT_F32(kOne, add(F(kOne), F(kMinSub), kRP, true));  // the subnormal input is gone
  EXPECT_F32(kNegZero, mul(F(0x80000004), F(kOne), kRZ, true));
  // Tininess is detected after rounding with an unbounded exponent (measured on the H200):
  // (1 - 2^-24) * FLT_MIN = 2^-126 - 2^-150 is a tie between the largest subnormal and FLT_MIN;
  // RN gives FLT_MIN (even) without .ftz, but at 24 bits it is exact and below FLT_MIN: tiny,
  // so .ftz gives 0.
  EXPECT_F32(kMinNormal, mul(F(0x3F7FFFFF), F(kMinNormal), kRN));
  EXPECT_F32(kPosZero, mul(F(0x3F7FFFFF), F(kMinNormal), kRN, true));
  EXPECT_F32(kNegZero, mul(F(0xBF7FFFFF), F(kMinNormal), kRN, true));
  EXPECT_F32(kMaxSub, mul(F(0x3F7FFFFF), F(kMinNormal), kRZ));
  EXPECT_F32(kPosZero, mul(F(0x3F7FFFFF), F(kMinNormal), kRZ, true));
  EXPECT_F32(kMinNormal, mul(F(0x3F7FFFFF), F(kMinNormal), kRP));
  EXPECT_F32(kPosZero, mul(F(0x3F7FFFFF), F(kMinNormal), kRP, true));
  EXPECT_F32(kNegZero, mul(F(0xBF7FFFFF), F(kMinNormal), kRM, true));
  // But a value that rounds to FLT_MIN at 24 bits is not tiny, even if it lies below:
  // (1 + 2^-23) * 2^-125 (1 - 2^-23) - 2^-126 = 2^-126 (1 - 2^-45).
  EXPECT_F32(kMinNormal, fma(F(0x3F800001), F(0x00FFFFFE), F(0x80800000), kRN));
  EXPECT_F32(kMinNormal, fma(F(0x3F800001), F(0x00FFFFFE), F(0x80800000), kRN, true));
  EXPECT_F32(0x80800000, fma(F(0xBF800001), F(0x00FFFFFE), F(kMinNormal), kRN, true));
  EXPECT_F32(kMinNormal, fma(F(0x3F800001), F(0x00FFFFFE), F(0x80800000), kRP, true));
  EXPECT_F32(kPosZero, fma(F(0x3F800001), F(0x00FFFFFE), F(0x80800000), kRZ, true));
  // Exactly FLT_MIN is not tiny.
  EXPECT_F32(kMinNormal, mul(F(kMinNormal), F(kOne), kRN, true));
  EXPECT_F32(kMinNormal, div(F(0x01000000), F(kTwo), kRZ, true));
  // div / sqrt / fma flush too.
  EXPECT_F32(kPosZero, div(F(kMinNormal), F(kTwo), kRN, true));
  EXPECT_F32(0x00400000, div(F(kMinNormal), F(kTwo), kRN));
  EXPECT_F32(kNegZero, sqrt(F(0x80000010), kRN, true));  // -subnormal -> -0 -> sqrt(-0) = -0
  EXPECT_F32(0x20000000, sqrt(F(kMinNormal), kRN));      // sqrt(2^-126) = 2^-63 exactly
}

TEST(FpF32, Ties) {
  // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: RN goes to even (1), RP up, RZ/RM down.
  const float tiny = F(0x33800000);  // 2^-24
  EXPECT_F32(kOne, add(F(kOne), tiny, kRN));
  EXPECT_F32(0x3F800001, add(F(kOne), tiny, kRP));
  EXPECT_F32(kOne, add(F(kOne), tiny, kRZ));
  EXPECT_F32(kOne, add(F(kOne), tiny, kRM));
  // (1 + 2^-23) + 2^-24 is a tie between odd and even: RN goes up to 1 + 2^-22.
  EXPECT_F32(0x3F800002, add(F(0x3F800001), tiny, kRN));
  // RNA rounds ties away: exact via the engine (PTX has .rna only on cvt.tf32).
  EXPECT_F32(0x3F800001, add(F(kOne), tiny, kRNA));
  EXPECT_F32(0xBF800001, add(F(kNegOne), F(0xB3800000), kRNA));
}

TEST(FpF32, FmaIsFused) {
  // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; an unfused product would round to 1 first.
  const float a = F(0x3F800001), b = F(0x3F7FFFFE);
  EXPECT_F32(0xA8800000, fma(a, b, F(kNegOne), kRN));
  EXPECT_F32(0xA8800000, fma(a, b, F(kNegOne), kRZ));
  EXPECT_F32(0xA8800000, fma(a, b, F(kNegOne), kRP));
  // The directed modes see the sticky part of the exact product:
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46.
  EXPECT_F32(0x3F800002, fma(a, a, F(kPosZero), kRZ));
  EXPECT_F32(0x3F800003, fma(a, a, F(kPosZero), kRP));
  EXPECT_F32(0x3F800002, fma(a, a, F(kPosZero), kRN));
  EXPECT_F32(0x3F800002, fma(a, a, F(kNegZero), kRM));
  // One rounding, not two: 2^-24 (1 + 2^-23) * (1 - 2^-23) + (1 + 2^-23) =
  // 1 + 2^-23 + 2^-24 - 2^-70 lies just below a tie. Rounded to double first it would become
  // the tie itself and then round to even, 0x3F800002; correctly rounded it is 0x3F800001.
  EXPECT_F32(0x3F800001, fma(F(0x33800001), F(0x3F7FFFFE), F(0x3F800001), kRN));
  EXPECT_F32(0xBF800001, fma(F(0xB3800001), F(0x3F7FFFFE), F(0xBF800001), kRN));
  EXPECT_F32(0x3F800001, fma(F(0x33800001), F(0x3F7FFFFE), F(0x3F800001), kRZ));
  EXPECT_F32(0x3F800002, fma(F(0x33800001), F(0x3F7FFFFE), F(0x3F800001), kRP));
}

TEST(FpF32, NaNsAreCanonical) {
  // CUDA C++ Programming Guide: f32 NaN results are 0x7fffffff.
  for (Round r : {kRN, kRZ, kRM, kRP}) {
    EXPECT_F32(kCanonicalNaN32, add(F(kQNaNPayload), F(kOne), r));
    EXPECT_F32(kCanonicalNaN32, add(F(kOne), F(kNegNaN), r));
    EXPECT_F32(kCanonicalNaN32, sub(F(kSNaN), F(kOne), r));
    EXPECT_F32(kCanonicalNaN32, mul(F(kNegNaN), F(kOne), r, true));
    EXPECT_F32(kCanonicalNaN32, fma(F(kOne), F(kOne), F(kSNaN), r));
    EXPECT_F32(kCanonicalNaN32, div(F(kQNaNPayload), F(kOne), r));
    EXPECT_F32(kCanonicalNaN32, sqrt(F(kNegNaN), r));
    EXPECT_F32(kCanonicalNaN32, rcp(F(kSNaN), r));
    // Invalid operations.
    EXPECT_F32(kCanonicalNaN32, add(F(kPosInf), F(kNegInf), r));
    EXPECT_F32(kCanonicalNaN32, sub(F(kPosInf), F(kPosInf), r));
    EXPECT_F32(kCanonicalNaN32, mul(F(kPosZero), F(kNegInf), r));
    EXPECT_F32(kCanonicalNaN32, fma(F(kPosInf), F(kPosZero), F(kOne), r));
    EXPECT_F32(kCanonicalNaN32, fma(F(kPosInf), F(kOne), F(kNegInf), r));
    EXPECT_F32(kCanonicalNaN32, div(F(kPosZero), F(kNegZero), r));
    EXPECT_F32(kCanonicalNaN32, div(F(kPosInf), F(kNegInf), r));
    EXPECT_F32(kCanonicalNaN32, sqrt(F(kNegOne), r));
    EXPECT_F32(kCanonicalNaN32, sqrt(F(kNegInf), r));
  }
}

TEST(FpF32, DivRcpSqrtSpecials) {
  for (Round r : {kRN, kRZ, kRM, kRP}) {
    EXPECT_F32(kPosInf, rcp(F(kPosZero), r));  // 1/0 = inf
    EXPECT_F32(kNegInf, rcp(F(kNegZero), r));
    EXPECT_F32(kPosZero, rcp(F(kPosInf), r));
    EXPECT_F32(kNegZero, rcp(F(kNegInf), r));
    EXPECT_F32(kNegInf, div(F(kOne), F(kNegZero), r));
    EXPECT_F32(kPosInf, div(F(kNegInf), F(kNegOne), r));
    EXPECT_F32(kNegZero, sqrt(F(kNegZero), r));  // sqrt(-0) = -0 (IEEE 754-2019 5.4.1)
    EXPECT_F32(kPosZero, sqrt(F(kPosZero), r));
    EXPECT_F32(kPosInf, sqrt(F(kPosInf), r));
    EXPECT_F32(kTwo, sqrt(F(0x40800000), r));  // sqrt(4) = 2 exactly in every mode
    EXPECT_F32(kHalf, rcp(F(kTwo), r));
  }
  // 1/3 per mode: 0x3EAAAAAB is the nearest (above), 0x3EAAAAAA below.
  const float three = F(0x40400000);
  EXPECT_F32(0x3EAAAAAB, rcp(three, kRN));
  EXPECT_F32(0x3EAAAAAA, rcp(three, kRZ));
  EXPECT_F32(0x3EAAAAAA, rcp(three, kRM));
  EXPECT_F32(0x3EAAAAAB, rcp(three, kRP));
  EXPECT_F32(0xBEAAAAAB, div(F(kNegOne), three, kRM));
  // sqrt(2) = 1.41421356237...: between 0x3FB504F3 (1.4142135381...) and 0x3FB504F4
  // (1.4142136573...), nearer the first.
  EXPECT_F32(0x3FB504F3, sqrt(F(kTwo), kRN));
  EXPECT_F32(0x3FB504F3, sqrt(F(kTwo), kRZ));
  EXPECT_F32(0x3FB504F4, sqrt(F(kTwo), kRP));
  // rcp of the smallest subnormal (2^149) overflows; of FLT_MAX it underflows to a subnormal.
  EXPECT_F32(kPosInf, rcp(F(kMinSub), kRN));
  EXPECT_F32(kMax, rcp(F(kMinSub), kRZ));
  EXPECT_F32(0x7E800001, rcp(F(kMaxSub), kRN));  // 1 / (2^-126 (1 - 2^-23)) ~ 2^126 (1 + 2^-23)
  EXPECT_F32(0x00200000, rcp(F(kMax), kRN));     // 1 / (2^128 (1 - 2^-24)) ~ 2^-128 = 0x00200000
  EXPECT_F32(kPosZero, rcp(F(kMax), kRN, true));
}

TEST(FpF32, Saturate) {
  // PTX ISA 9.7.3.3: .sat clamps to [0.0, 1.0], NaN -> +0.0.
  EXPECT_F32(kOne, saturate(F(0x3FC00000)));
  EXPECT_F32(kHalf, saturate(F(kHalf)));
  EXPECT_F32(kPosZero, saturate(F(0xBF000000)));
  EXPECT_F32(kPosZero, saturate(F(kNegZero)));
  EXPECT_F32(kPosZero, saturate(F(kQNaNPayload)));
  EXPECT_F32(kPosZero, saturate(F(kNegNaN)));
  EXPECT_F32(kOne, saturate(F(kPosInf)));
  EXPECT_F32(kPosZero, saturate(F(kNegInf)));
  EXPECT_F32(kMinSub, saturate(F(kMinSub)));
  EXPECT_F64(0x3FF0000000000000, saturate(D(0x4000000000000000)));
  EXPECT_F64(0, saturate(D(0x7FF8000000000000)));
  EXPECT_F64(0x3FE0000000000000, saturate(D(0x3FE0000000000000)));
}

// ---- f64 arithmetic ------------------------------------------------------------------------
TEST(FpF64, OverflowAndZeros) {
  const double mx = D(0x7FEFFFFFFFFFFFFF);
  EXPECT_F64(0x7FF0000000000000, add(mx, mx, kRN));
  EXPECT_F64(0x7FEFFFFFFFFFFFFF, add(mx, mx, kRZ));
  EXPECT_F64(0x7FF0000000000000, add(mx, mx, kRP));
  EXPECT_F64(0xFFEFFFFFFFFFFFFF, mul(-mx, 2.0, kRP));
  EXPECT_F64(0xFFF0000000000000, mul(-mx, 2.0, kRM));
  EXPECT_F64(0x8000000000000000, add(1.5, -1.5, kRM));
  EXPECT_F64(0x0000000000000000, sub(1.5, 1.5, kRP));
  EXPECT_F64(0x8000000000000000, sqrt(D(0x8000000000000000), kRZ));
  EXPECT_F64(0x7FF0000000000000, rcp(0.0, kRM));
  EXPECT_F64(0x3FD5555555555555, rcp(3.0, kRN));
  EXPECT_F64(0x3FD5555555555556, rcp(3.0, kRP));
  EXPECT_F64(0x3FF6A09E667F3BCD, sqrt(2.0, kRN));  // M_SQRT2, just above the exact root
  EXPECT_F64(0x3FF6A09E667F3BCD, sqrt(2.0, kRP));
  EXPECT_F64(0x3FF6A09E667F3BCC, sqrt(2.0, kRZ));
  // fma exactness: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104.
  EXPECT_F64(0xB970000000000000, fma(D(0x3FF0000000000001), D(0x3FEFFFFFFFFFFFFE), -1.0, kRN));
  EXPECT_F64(0xB970000000000000, fma(D(0x3FF0000000000001), D(0x3FEFFFFFFFFFFFFE), -1.0, kRZ));
  // Subnormal result: DBL_MIN / 2.
  EXPECT_F64(0x0008000000000000, div(D(0x0010000000000000), 2.0, kRN));
  EXPECT_F64(0x0000000000000001, mul(D(0x0000000000000001), 0.75, kRP));
  EXPECT_F64(0x0000000000000001, mul(D(0x0000000000000001), 0.75, kRN));
  EXPECT_F64(0x0000000000000000, mul(D(0x0000000000000001), 0.75, kRZ));
}

TEST(FpF64, NaNResults) {
  // See nanResult64 (measured on the H200 over 1,400 two-NaN cases of the ISA campaign): a NaN
  // operand comes back quieted with its payload and sign; the first NaN operand in PTX order
  // wins (fma: a, c, b); sub leaves a NaN b's sign alone; an invalid operation gives
  // kInvalidNaN64.
  const double qnan = D(0x7FF8000000000123), snan = D(0xFFF0000000000456);
  const double inf = D(0x7FF0000000000000);
  for (Round r : {kRN, kRZ, kRM, kRP}) {
    EXPECT_F64(0x7FF8000000000123, add(qnan, 1.0, r));
    EXPECT_F64(0x7FF8000000000123, add(1.0, qnan, r));
    EXPECT_F64(0xFFF8000000000456, add(1.0, snan, r));
    EXPECT_F64(0xFFF8000000000456, mul(snan, qnan, r));
    EXPECT_F64(0x7FF8000000000123, mul(qnan, snan, r));
    EXPECT_F64(0x7FF8000000000123, sub(qnan, snan, r));
    EXPECT_F64(0x7FF8000000000123, sub(1.0, qnan, r));        // not negated
    EXPECT_F64(0x7FF8000000000123, fma(1.0, snan, qnan, r));  // c before b
    EXPECT_F64(0xFFF8000000000456, fma(snan, 1.0, qnan, r));  // a first
    EXPECT_F64(0xFFF8000000000456, fma(snan, 1.0, 2.0, r));
    EXPECT_F64(0x7FF8000000000123, fma(0.0, inf, qnan, r));
    EXPECT_F64(0xFFF8000000000456, div(snan, 0.0, r));
    EXPECT_F64(0xFFF8000000000456, div(snan, qnan, r));  // div: a wins
    EXPECT_F64(0x7FF8000000000123, div(qnan, snan, r));
    EXPECT_F64(0xFFF8000000000456, div(1.0, snan, r));
    EXPECT_F64(0x7FF8000000000123, sqrt(qnan, r));
    EXPECT_F64(0xFFF8000000000456, sqrt(snan, r));
    EXPECT_F64(0x7FF8000000000123, rcp(qnan, r));
    EXPECT_F64(kInvalidNaN64, add(inf, -inf, r));
    EXPECT_F64(kInvalidNaN64, sub(inf, inf, r));
    EXPECT_F64(kInvalidNaN64, mul(0.0, -inf, r));
    EXPECT_F64(kInvalidNaN64, div(0.0, 0.0, r));
    EXPECT_F64(kInvalidNaN64, div(-inf, inf, r));
    EXPECT_F64(kInvalidNaN64, sqrt(-2.0, r));
    EXPECT_F64(kInvalidNaN64, sqrt(-inf, r));
    EXPECT_F64(kInvalidNaN64, fma(inf, 1.0, -inf, r));
    EXPECT_F64(kInvalidNaN64, fma(inf, 0.0, 1.0, r));
  }
  EXPECT_F64(0x7FF8000000000001, nanResult64(D(0x7FF0000000000001), 2.0));
  EXPECT_F64(0xFFF8000000000001, nanResult64(1.0, D(0xFFF0000000000001)));
  EXPECT_F64(0xFFF8000000000001, nanResult64(D(0xFFF8000000000001), D(0x7FF0000000000002)));
  EXPECT_F64(kInvalidNaN64, nanResult64(1.0, 2.0));
  EXPECT_F64(0x7FF8000000000001, nanResultFma64(D(0x7FF8000000000001), 2.0, D(0x7FF0000000000003)));
  EXPECT_F64(0x7FF8000000000003, nanResultFma64(2.0, D(0x7FF8000000000001), D(0x7FF0000000000003)));
  EXPECT_F64(kInvalidNaN64, nanResultFma64(1.0, 2.0, 3.0));
  EXPECT_F64(0xFFF8000000000001, nanResultDiv64(D(0xFFF8000000000001), D(0x7FF0000000000002)));
  EXPECT_F64(0x7FF8000000000002, nanResultDiv64(1.0, D(0x7FF0000000000002)));
}

// ---- f16 / bf16 arithmetic --------------------------------------------------------------------
TEST(FpF16, Arithmetic) {
  EXPECT_H(0x4000, addF16(0x3C00, 0x3C00, kRN));  // 1 + 1 = 2
  EXPECT_H(0x3C00, subF16(0x4000, 0x3C00, kRN));
  EXPECT_H(0x4400, mulF16(0x4000, 0x4000, kRN));          // 2 * 2 = 4
  EXPECT_H(0x4500, fmaF16(0x4000, 0x4000, 0x3C00, kRN));  // 2 * 2 + 1 = 5
  // 1 + 2^-11 is a tie in f16: even (1) in RN, up in RP.
  EXPECT_H(0x3C00, addF16(0x3C00, 0x1000, kRN));
  EXPECT_H(0x3C01, addF16(0x3C00, 0x1000, kRP));
  EXPECT_H(0x3C00, addF16(0x3C00, 0x1000, kRZ));
  // Overflow: 65504 + 16 = 65520 rounds to inf in RN, stays 65504 in RZ.
  EXPECT_H(0x7C00, addF16(0x7BFF, 0x4C00, kRN));
  EXPECT_H(0x7BFF, addF16(0x7BFF, 0x4C00, kRZ));
  EXPECT_H(0x7BFF, addF16(0x7BFF, 0x4BFF, kRN));  // 65504 + 15.99 < 65520
  EXPECT_H(0xFC00, mulF16(0xFBFF, 0x4000, kRN));
  EXPECT_H(0xFBFF, mulF16(0xFBFF, 0x4000, kRP));
  // Signed zeros.
  EXPECT_H(0x0000, addF16(0x3C00, 0xBC00, kRN));
  EXPECT_H(0x8000, addF16(0x3C00, 0xBC00, kRM));
  EXPECT_H(0x8000, mulF16(0x8000, 0x3C00, kRN));
  // Subnormals: 2^-14 * 0.5 = 2^-15 is subnormal (0x0200); .ftz flushes it.
  EXPECT_H(0x0200, mulF16(0x0400, 0x3800, kRN));
  EXPECT_H(0x0000, mulF16(0x0400, 0x3800, kRN, true));
  EXPECT_H(0x8000, mulF16(0x8400, 0x3800, kRN, true));
  EXPECT_H(0x0002, addF16(0x0001, 0x0001, kRN));
  EXPECT_H(0x0000, addF16(0x0001, 0x0001, kRN, true));
  EXPECT_H(0x3C00, fmaF16(0x3C00, 0x3C00, 0x0001, kRP, true));  // subnormal c flushed
  // Tininess after rounding, as f32: (1 - 2^-11) * 2^-14 is a tie that rounds to the smallest
  // normal, but at 11 bits it is exact and tiny; (1 + 2^-10) * 2^-13 (1 - 2^-10) - 2^-14 =
  // 2^-14 (1 - 2^-19) rounds to 2^-14 at 11 bits: not tiny.
  EXPECT_H(0x0400, mulF16(0x3BFF, 0x0400, kRN));
  EXPECT_H(0x0000, mulF16(0x3BFF, 0x0400, kRN, true));
  EXPECT_H(0x8000, mulF16(0xBBFF, 0x0400, kRN, true));
  EXPECT_H(0x0400, fmaF16(0x3C01, 0x07FE, 0x8400, kRN));
  EXPECT_H(0x0400, fmaF16(0x3C01, 0x07FE, 0x8400, kRN, true));
  EXPECT_H(0x0000, fmaF16(0x3C01, 0x07FE, 0x8400, kRZ, true));
  EXPECT_H(0x0400, mulF16(0x0400, 0x3C00, kRN, true));  // exactly the smallest normal
  EXPECT_H(0x3C01, fmaF16(0x3C00, 0x3C00, 0x0001, kRP, false));
  // NaN results are canonical; invalid operations too.
  EXPECT_H(kCanonicalNaN16, addF16(0x7D01, 0x3C00, kRN));
  EXPECT_H(kCanonicalNaN16, mulF16(0xFE00, 0x3C00, kRN));
  EXPECT_H(kCanonicalNaN16, fmaF16(0x3C00, 0x3C00, 0x7C01, kRN));
  EXPECT_H(kCanonicalNaN16, addF16(0x7C00, 0xFC00, kRN));
  EXPECT_H(kCanonicalNaN16, mulF16(0x7C00, 0x0000, kRN));
  EXPECT_H(kCanonicalNaN16, subF16(0x3C00, 0x7E00, kRN));
  // fma rounds once: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20, a tie at f16 precision (to even,
  // 2^-9, in RN; up in RP). A rounded product (1 + 2^-9) would give exactly 2^-9 in every mode.
  EXPECT_H(0x1800, fmaF16(0x3C01, 0x3C01, 0xBC00, kRN));
  EXPECT_H(0x1801, fmaF16(0x3C01, 0x3C01, 0xBC00, kRP));
  EXPECT_H(0x1800, mulF16(0x1800, 0x3C00, kRP));
}

TEST(FpF16, Saturate) {
  EXPECT_H(0x3C00, saturateF16(0x4000));
  EXPECT_H(0x3800, saturateF16(0x3800));
  EXPECT_H(0x0000, saturateF16(0xB800));
  EXPECT_H(0x0000, saturateF16(0x8000));
  EXPECT_H(0x0000, saturateF16(0x7E00));
  EXPECT_H(0x3C00, saturateF16(0x7C00));
  EXPECT_H(0x3F80, saturateBF16(0x4000));
  EXPECT_H(0x0000, saturateBF16(0xFFC0));
  EXPECT_H(0x3F00, saturateBF16(0x3F00));
}

TEST(FpBF16, Arithmetic) {
  EXPECT_H(0x4000, addBF16(0x3F80, 0x3F80, kRN));  // 1 + 1
  EXPECT_H(0x3F80, subBF16(0x4000, 0x3F80, kRN));
  EXPECT_H(0x4080, mulBF16(0x4000, 0x4000, kRN));          // 4
  EXPECT_H(0x40A0, fmaBF16(0x4000, 0x4000, 0x3F80, kRN));  // 5
  // 1 + 2^-8 is a tie in bf16 (8 significant bits): even in RN, up in RP.
  EXPECT_H(0x3F80, addBF16(0x3F80, 0x3B80, kRN));
  EXPECT_H(0x3F81, addBF16(0x3F80, 0x3B80, kRP));
  EXPECT_H(0x3F82, addBF16(0x3F81, 0x3B80, kRN));  // odd + half ulp: to even (up)
  // Overflow and the directed modes.
  EXPECT_H(0x7F80, mulBF16(0x7F7F, 0x4000, kRN));
  EXPECT_H(0x7F7F, mulBF16(0x7F7F, 0x4000, kRZ));
  EXPECT_H(0xFF7F, mulBF16(0x7F7F, 0xC000, kRP));
  // bf16 keeps subnormals (no .ftz in PTX): 2^-126 * 2^-1.
  EXPECT_H(0x0040, mulBF16(0x0080, 0x3F00, kRN));
  EXPECT_H(0x0001, mulBF16(0x0001, 0x3F80, kRN));
  EXPECT_H(0x0000, addBF16(0x0001, 0x8001, kRN));
  EXPECT_H(0x8000, addBF16(0x0001, 0x8001, kRM));
  EXPECT_H(kCanonicalNaNBF16, addBF16(0x7FC1, 0x3F80, kRN));
  EXPECT_H(kCanonicalNaNBF16, fmaBF16(0x7F80, 0x0000, 0x3F80, kRN));
  EXPECT_H(kCanonicalNaNBF16, subBF16(0x7F80, 0x7F80, kRN));
}

// ---- conversions ---------------------------------------------------------------------------
TEST(FpConvert, F32ToF16) {
  EXPECT_H(0x3C00, f32ToF16(1.0f, kRN));
  EXPECT_H(0x7BFF, f32ToF16(65504.0f, kRN));
  // 65520 is the midpoint between 65504 and 65536 (= inf): RN rounds up to inf (IEEE 7.4).
  EXPECT_H(0x7C00, f32ToF16(65520.0f, kRN));
  EXPECT_H(0x7BFF, f32ToF16(65520.0f, kRZ));
  EXPECT_H(0x7BFF, f32ToF16(65519.0f, kRN));
  EXPECT_H(0x7C00, f32ToF16(65505.0f, kRP));
  EXPECT_H(0x7BFF, f32ToF16(1e9f, kRM));
  EXPECT_H(0xFC00, f32ToF16(-65505.0f, kRM));
  EXPECT_H(0xFBFF, f32ToF16(-70000.0f, kRZ));
  EXPECT_H(0xFC00, f32ToF16(F(kNegInf), kRZ));
  // Ties: 1 + 2^-11 to even; 1 + 3 * 2^-11 to even (up).
  EXPECT_H(0x3C00, f32ToF16(F(0x3F801000), kRN));
  EXPECT_H(0x3C02, f32ToF16(F(0x3F803000), kRN));
  EXPECT_H(0x3C01, f32ToF16(F(0x3F801000), kRNA));
  EXPECT_H(0x3C01, f32ToF16(F(0x3F801001), kRN));  // just above the tie
  // Subnormal results: 2^-24 is the smallest f16 subnormal; 2^-25 ties to zero.
  EXPECT_H(0x0001, f32ToF16(F(0x33800000), kRN));
  EXPECT_H(0x0000, f32ToF16(F(0x33000000), kRN));
  EXPECT_H(0x0001, f32ToF16(F(0x33000001), kRN));
  EXPECT_H(0x0001, f32ToF16(F(kMinSub), kRP));
  EXPECT_H(0x8000, f32ToF16(F(0x80000001), kRP));
  EXPECT_H(0x8001, f32ToF16(F(0x80000001), kRM));
  EXPECT_H(0x8000, f32ToF16(F(kNegZero), kRN));
  EXPECT_H(kCanonicalNaN16, f32ToF16(F(kQNaNPayload), kRN));
  EXPECT_H(kCanonicalNaN16, f32ToF16(F(kNegNaN), kRZ));
}

TEST(FpConvert, F64ToF16IsOneRounding) {
  // 1 + 2^-11 + 2^-37 is just above an f16 tie; via f32 it would become the tie itself
  // (1 + 2^-11) and round to even, down. Rounded once, it goes up.
  EXPECT_H(0x3C01, f64ToF16(D(0x3FF0020000008000), kRN));
  EXPECT_H(0x7C00, f64ToF16(65520.0, kRN));
  EXPECT_H(0x7BFF, f64ToF16(65520.0, kRZ));
  EXPECT_H(0x0001, f64ToF16(D(0x0000000000000001), kRP));
  EXPECT_H(0x0000, f64ToF16(D(0x0000000000000001), kRN));
  EXPECT_H(0xFE00, f64ToF16(D(0xFFF8000000000001), kRN));  // NaN: quieted, payload truncated
  EXPECT_H(0xFF00, f64ToF16(D(0xFFF4000000000001), kRN));
  EXPECT_H(0x7E00, f64ToF16(D(0x7FF0000000000001), kRZ));
}

TEST(FpConvert, HalfToWide) {
  EXPECT_F32(0x3F800000, f16ToF32(0x3C00));
  EXPECT_F32(0x33800000, f16ToF32(0x0001));  // subnormal f16 -> normal f32
  EXPECT_F32(0xC77FE000, f16ToF32(0xFBFF));  // -65504
  EXPECT_F32(kNegInf, f16ToF32(0xFC00));
  EXPECT_F32(kNegZero, f16ToF32(0x8000));
  EXPECT_F64(0x3E70000000000000, f16ToF64(0x0001));
  EXPECT_F64(0xC0EFFC0000000000, f16ToF64(0xFBFF));
  EXPECT_F32(0x3F800000, bf16ToF32(0x3F80));
  EXPECT_F32(0x00010000, bf16ToF32(0x0001));
  EXPECT_F32(kNegInf, bf16ToF32(0xFF80));
  EXPECT_F64(0x3FF0000000000000, bf16ToF64(0x3F80));
  EXPECT_F64(0x3810000000000000, bf16ToF64(0x0080));  // 2^-126
  EXPECT_F64(0x37A0000000000000, bf16ToF64(0x0001));  // 2^-133
  // NaNs (measured on the H200): f16 -> f32 gives the canonical NaN; f16 / bf16 -> f64 quiet
  // the NaN and shift its payload up; bf16 -> f32 shifts the bits, unquieted.
  EXPECT_F32(kCanonicalNaN32, f16ToF32(0x7C01));
  EXPECT_F32(kCanonicalNaN32, f16ToF32(0xFE00));
  EXPECT_F64(0x7FF8040000000000, f16ToF64(0x7C01));
  EXPECT_F64(0xFFF8000000000000, f16ToF64(0xFE00));
  EXPECT_F32(0x7F810000, bf16ToF32(0x7F81));
  EXPECT_F32(0xFFC10000, bf16ToF32(0xFFC1));
  EXPECT_F64(0x7FF8200000000000, bf16ToF64(0x7F81));
  EXPECT_F64(0xFFF8200000000000, bf16ToF64(0xFFC1));
}

TEST(FpConvert, ToBF16) {
  EXPECT_H(0x3F80, f32ToBF16(1.0f, kRN));
  EXPECT_H(0x3F80, f32ToBF16(F(0x3F808000), kRN));  // tie, to even
  EXPECT_H(0x3F82, f32ToBF16(F(0x3F818000), kRN));  // tie, to even (up)
  EXPECT_H(0x3F81, f32ToBF16(F(0x3F808001), kRN));
  EXPECT_H(0x3F80, f32ToBF16(F(0x3F80FFFF), kRZ));
  EXPECT_H(0x3F81, f32ToBF16(F(0x3F800001), kRP));
  EXPECT_H(0xBF81, f32ToBF16(F(0xBF800001), kRM));
  EXPECT_H(0xBF80, f32ToBF16(F(0xBF800001), kRP));
  EXPECT_H(0x7F80, f32ToBF16(F(kMax), kRN));  // FLT_MAX is past bf16 max + half ulp
  EXPECT_H(0x7F7F, f32ToBF16(F(kMax), kRZ));
  EXPECT_H(0x0001, f32ToBF16(F(kMinSub), kRP));
  EXPECT_H(0x0000, f32ToBF16(F(kMinSub), kRN));
  EXPECT_H(kCanonicalNaNBF16, f32ToBF16(F(kSNaN), kRN));
  EXPECT_H(0x3F81, f64ToBF16(D(0x3FF0100000000001), kRN));  // above the tie, one rounding
  EXPECT_H(0x3F80, f64ToBF16(D(0x3FF0100000000000), kRN));
  EXPECT_H(0x7F80, f64ToBF16(1e300, kRN));
  EXPECT_H(0x7F7F, f64ToBF16(1e300, kRZ));
  EXPECT_H(0x7FC0, f64ToBF16(D(0x7FF0000000000001), kRZ));  // NaN: as f64 -> f32
  EXPECT_H(0xFFE0, f64ToBF16(D(0xFFF4000000000001), kRN));
}

TEST(FpConvert, F64ToF32PerMode) {
  // 1 + 2^-24: a tie in f32.
  const double tie = D(0x3FF0000010000000);
  EXPECT_F32(kOne, f64ToF32(tie, kRN));
  EXPECT_F32(kOne, f64ToF32(tie, kRZ));
  EXPECT_F32(kOne, f64ToF32(tie, kRM));
  EXPECT_F32(0x3F800001, f64ToF32(tie, kRP));
  EXPECT_F32(0xBF800001, f64ToF32(-tie, kRM));
  EXPECT_F32(0x3F800001, f64ToF32(D(0x3FF0000010000001), kRN));
  const double huge = D(0x7FEFFFFFFFFFFFFF);
  EXPECT_F32(kPosInf, f64ToF32(huge, kRN));
  EXPECT_F32(kMax, f64ToF32(huge, kRZ));
  EXPECT_F32(kMax, f64ToF32(huge, kRM));
  EXPECT_F32(kPosInf, f64ToF32(huge, kRP));
  EXPECT_F32(kNegMax, f64ToF32(-huge, kRP));
  EXPECT_F32(kPosZero, f64ToF32(1e-300, kRN));
  EXPECT_F32(kMinSub, f64ToF32(1e-300, kRP));
  EXPECT_F32(0x80000001, f64ToF32(-1e-300, kRM));
  EXPECT_F32(kNegZero, f64ToF32(-1e-300, kRZ));
  EXPECT_F32(kMinSub, f64ToF32(D(0x3690000000000001), kRN));   // just above 2^-150 (a tie)
  EXPECT_F32(kPosZero, f64ToF32(D(0x3690000000000000), kRN));  // 2^-150 itself: to even, 0
  // NaN (measured on the H200): quieted, sign kept, payload truncated to the top bits.
  EXPECT_F32(0x7FC00000, f64ToF32(D(0x7FF8000000000123), kRN));
  EXPECT_F32(0xFFC00000, f64ToF32(D(0xFFF0000000000001), kRM));
  EXPECT_F32(0xFFE00000, f64ToF32(D(0xFFF4000000000001), kRZ));
  EXPECT_F32(0x7FC12345, f64ToF32(D(0x7FF82468A0000000), kRN));
  EXPECT_F64(0x3FF0000000000000, f32ToF64(1.0f));
  EXPECT_F64(0x36A0000000000000, f32ToF64(F(kMinSub)));
  EXPECT_F64(0xFFF8000000000000, f32ToF64(F(kNegNaN)));
  EXPECT_F64(0x7FF8002460000000, f32ToF64(F(0x7FC00123)));
  EXPECT_F64(0x7FFE523100000000, f32ToF64(F(0x7FB29188)));  // a signalling NaN is quieted
  // cvt.ftz.f32.f64: tininess after rounding, as the arithmetic (measured). 2^-126 (1 - 2^-25)
  // rounds to FLT_MIN at 24 bits: kept; 2^-126 (1 - 2^-24) is exact at 24 bits: tiny.
  EXPECT_F32(kMinNormal, f64ToF32(D(0x380FFFFFF0000000), kRN));
  EXPECT_F32(kMinNormal, f64ToF32(D(0x380FFFFFF0000000), kRN, true));
  EXPECT_F32(kPosZero, f64ToF32(D(0x380FFFFFF0000000), kRZ, true));
  EXPECT_F32(kPosZero, f64ToF32(D(0x380FFFFFE0000000), kRN, true));
  EXPECT_F32(kNegZero, f64ToF32(D(0xB80FFFFFE0000000), kRM, true));
  EXPECT_F32(kMinNormal, f64ToF32(D(0x3810000000000000), kRN, true));
  EXPECT_F32(kOne, f64ToF32(1.0, kRZ, true));
  EXPECT_F32(0x7FC00000, f64ToF32(D(0x7FF8000000000000), kRN, true));
}

TEST(FpConvert, ToTF32) {
  // 1 + 2^-11 is a tie at 10 fraction bits: RN to even, RNA away, RZ down.
  const float tie = F(0x3F801000);
  EXPECT_F32(0x3F800000, f32ToTF32(tie, kRN));
  EXPECT_F32(0x3F802000, f32ToTF32(tie, kRNA));
  EXPECT_F32(0x3F800000, f32ToTF32(tie, kRZ));
  EXPECT_F32(0xBF802000, f32ToTF32(F(0xBF801000), kRNA));
  EXPECT_F32(0x3F804000, f32ToTF32(F(0x3F803000), kRN));  // odd + tie: up to even
  EXPECT_F32(0x3F802000, f32ToTF32(F(0x3F801001), kRN));
  EXPECT_F32(0x3F800000, f32ToTF32(F(0x3F801FFF), kRZ));
  EXPECT_F32(kPosInf, f32ToTF32(F(kMax), kRN));
  EXPECT_F32(0x7F7FE000, f32ToTF32(F(kMax), kRZ));
  EXPECT_F32(kPosZero, f32ToTF32(F(0x00000FFF), kRN));  // below half of 2^-136
  EXPECT_F32(0x00002000, f32ToTF32(F(0x00001000), kRNA));
  EXPECT_F32(kNegInf, f32ToTF32(F(kNegInf), kRNA));
  // NaN (measured): .rna clears the low 13 bits of the NaN; .rn/.rz give 0x7FFFE000.
  EXPECT_F32(0x7FC00000, f32ToTF32(F(0x7FC00123), kRNA));
  EXPECT_F32(0x7FB28000, f32ToTF32(F(0x7FB29188), kRNA));
  EXPECT_F32(0x7FFFE000, f32ToTF32(F(0x7FC00123), kRN));
  EXPECT_F32(0x7FFFE000, f32ToTF32(F(0x7FB29188), kRZ));
}

TEST(FpConvert, RoundIntegral) {
  // cvt.rni: ties to even; the sign survives (IEEE 754-2019 5.9).
  EXPECT_F32(kPosZero, roundIntegral(0.5f, kRN));
  EXPECT_F32(0x40000000, roundIntegral(1.5f, kRN));
  EXPECT_F32(0x40000000, roundIntegral(2.5f, kRN));
  EXPECT_F32(0x40400000, roundIntegral(2.5f, kRNA));
  EXPECT_F32(kNegZero, roundIntegral(-0.5f, kRN));
  EXPECT_F32(kNegZero, roundIntegral(-0.25f, kRN));
  EXPECT_F32(0xC0000000, roundIntegral(-2.5f, kRN));
  EXPECT_F32(0xBF800000, roundIntegral(-1.7f, kRZ));
  EXPECT_F32(0xBF800000, roundIntegral(-0.2f, kRM));
  EXPECT_F32(kNegZero, roundIntegral(-0.2f, kRP));
  EXPECT_F32(kOne, roundIntegral(0.2f, kRP));
  EXPECT_F32(kPosZero, roundIntegral(0.7f, kRZ));
  EXPECT_F32(0x4B000001, roundIntegral(F(0x4B000001), kRN));  // 2^23 + 1 is integral
  EXPECT_F32(kOne, roundIntegral(F(kMinSub), kRP));
  EXPECT_F32(kPosZero, roundIntegral(F(kMinSub), kRP, true));  // .ftz flushes the input
  EXPECT_F32(0xBF800000, roundIntegral(F(0x80000001), kRM));
  EXPECT_F32(kNegZero, roundIntegral(F(0x80000001), kRM, true));
  EXPECT_F32(kPosInf, roundIntegral(F(kPosInf), kRZ));
  EXPECT_F32(kCanonicalNaN32, roundIntegral(F(kQNaNPayload), kRN));
  EXPECT_F64(0x4000000000000000, roundIntegral(2.5, kRN));
  EXPECT_F64(0x4008000000000000, roundIntegral(2.5, kRP));
  EXPECT_F64(0x8000000000000000, roundIntegral(-0.5, kRN));
  EXPECT_F64(0xBFF0000000000000, roundIntegral(D(0x8000000000000001), kRM));
  EXPECT_F64(0x4330000000000001, roundIntegral(D(0x4330000000000001), kRZ));  // 2^52 + 1
  EXPECT_F64(0x7FF8000000000001, roundIntegral(D(0x7FF0000000000001), kRN));  // payload kept
  EXPECT_F64(0xFFF8000000000123, roundIntegral(D(0xFFF8000000000123), kRM));
}

TEST(FpConvert, FloatToIntSaturatesAndNaN) {
  const uint64_t intMin32 = 0xFFFFFFFF80000000ull;  // INT32_MIN sign-extended
  // Clamped to the destination range by default (PTX ISA 9.7.9.21).
  EXPECT_EQ(0x7FFFFFFFull, floatToInt(3e9f, kRZ, 32, true));
  EXPECT_EQ(intMin32, floatToInt(-3e9f, kRZ, 32, true));
  EXPECT_EQ(0xFFFFFFFFull, floatToInt(5e9f, kRN, 32, false));
  EXPECT_EQ(0u, floatToInt(-1.5f, kRZ, 32, false));
  EXPECT_EQ(0u, floatToInt(-0.4f, kRN, 32, false));
  EXPECT_EQ(0u, floatToInt(-0.6f, kRN, 32, false));  // -1 clamps to 0
  EXPECT_EQ(0x7FFFFFFFull, floatToInt(F(kPosInf), kRN, 32, true));
  EXPECT_EQ(intMin32, floatToInt(F(kNegInf), kRN, 32, true));
  EXPECT_EQ(0u, floatToInt(F(kNegInf), kRN, 64, false));
  EXPECT_EQ(0xFFFFFFFFFFFFFFFFull, floatToInt(F(kPosInf), kRN, 64, false));
  EXPECT_EQ(0x7FFFFFFFFFFFFFFFull, floatToInt(1e19f, kRN, 64, true));
  EXPECT_EQ(0x8000000000000000ull, floatToInt(-1e19f, kRN, 64, true));
  EXPECT_EQ(0x8000000000000000ull, floatToInt(F(0xDF000000), kRN, 64, true));  // -2^63 fits
  EXPECT_EQ(0x7FFFFFFFFFFFFFFFull, floatToInt(F(0x5F000000), kRN, 64, true));  // 2^63 doesn't
  EXPECT_EQ(0x7Full, floatToInt(200.0f, kRN, 8, true));
  EXPECT_EQ(0xFFFFFFFFFFFFFF80ull, floatToInt(-200.0f, kRN, 8, true));
  EXPECT_EQ(0xFFull, floatToInt(300.0, kRN, 8, false));
  EXPECT_EQ(0xFFFFull, floatToInt(65535.4f, kRN, 16, false));
  EXPECT_EQ(0x7FFFull, floatToInt(32767.6, kRZ, 16, true));
  EXPECT_EQ(0xFFFFFFFFFFFF8000ull, floatToInt(-32768.9, kRP, 16, true));
  // Rounding modes.
  EXPECT_EQ(2u, floatToInt(2.5f, kRN, 32, true));
  EXPECT_EQ(3u, floatToInt(2.5f, kRP, 32, true));
  EXPECT_EQ(0xFFFFFFFFFFFFFFFDull, floatToInt(-2.5f, kRM, 32, true));
  EXPECT_EQ(0xFFFFFFFFFFFFFFFEull, floatToInt(-2.5f, kRZ, 32, true));
  EXPECT_EQ(1u, floatToInt(F(kMinSub), kRP, 32, true));
  EXPECT_EQ(0u, floatToInt(F(kMinSub), kRP, 32, true, true));  // .ftz
  EXPECT_EQ(0xFFFFFFFFFFFFFFFFull, floatToInt(F(0x80000001), kRM, 64, true));
  EXPECT_EQ(0xFFFFFFFFFFFFF800ull, floatToInt(D(0x43EFFFFFFFFFFFFF), kRN, 64, false));
  // NaN: 0 unless the source is f64 or the destination 64-bit; then 1 << (width - 1).
  EXPECT_EQ(0u, floatToInt(F(kQNaNPayload), kRN, 32, true));
  EXPECT_EQ(0u, floatToInt(F(kNegNaN), kRZ, 32, false));
  EXPECT_EQ(0u, floatToInt(F(kSNaN), kRZ, 8, true));
  EXPECT_EQ(0x8000000000000000ull, floatToInt(F(kQNaNPayload), kRN, 64, true));
  EXPECT_EQ(0x8000000000000000ull, floatToInt(F(kQNaNPayload), kRN, 64, false));
  EXPECT_EQ(intMin32, floatToInt(D(0x7FF8000000000000), kRZ, 32, true));
  EXPECT_EQ(0x80000000ull, floatToInt(D(0x7FF8000000000000), kRZ, 32, false));
  EXPECT_EQ(0x80ull, floatToInt(D(0xFFF8000000000000), kRZ, 8, false));
  EXPECT_EQ(0xFFFFFFFFFFFF8000ull, floatToInt(D(0x7FF0000000000001), kRZ, 16, true));
  EXPECT_EQ(0x8000000000000000ull, floatToInt(D(0x7FF8000000000000), kRZ, 64, true));
}

TEST(FpConvert, IntToFloatPerMode) {
  // 2^24 + 1 lies halfway between 2^24 and 2^24 + 2 in f32.
  const uint64_t v = (1u << 24) + 1;
  EXPECT_F32(0x4B800000, intToF32(v, true, kRN));  // tie to even: 2^24
  EXPECT_F32(0x4B800000, intToF32(v, true, kRZ));
  EXPECT_F32(0x4B800000, intToF32(v, true, kRM));
  EXPECT_F32(0x4B800001, intToF32(v, true, kRP));
  EXPECT_F32(0x4B800002, intToF32(v + 2, false, kRN));  // 2^24 + 3: tie to even, up
  const uint64_t nv = uint64_t(-int64_t(v));
  EXPECT_F32(0xCB800001, intToF32(nv, true, kRM));
  EXPECT_F32(0xCB800000, intToF32(nv, true, kRP));
  EXPECT_F32(0xCB800000, intToF32(nv, true, kRN));
  EXPECT_F32(0x5F800000, intToF32(~uint64_t{0}, false, kRN));  // 2^64
  EXPECT_F32(0x5F7FFFFF, intToF32(~uint64_t{0}, false, kRZ));
  EXPECT_F32(0xBF800000, intToF32(~uint64_t{0}, true, kRZ));  // -1 signed
  EXPECT_F32(0xDF000000, intToF32(uint64_t{1} << 63, true, kRN));
  EXPECT_F32(0x00000000, intToF32(0, true, kRM));  // +0, never -0
  EXPECT_F64(0x4340000000000000, intToF64((uint64_t{1} << 53) + 1, false, kRN));
  EXPECT_F64(0x4340000000000001, intToF64((uint64_t{1} << 53) + 1, false, kRP));
  EXPECT_F64(0xC340000000000001, intToF64(uint64_t(-int64_t((uint64_t{1} << 53) + 1)), true, kRM));
  EXPECT_F64(0x43F0000000000000, intToF64(~uint64_t{0}, false, kRN));
  // f16: 65520 overflows in RN, stays 65504 in RZ; 2049 is a tie.
  EXPECT_H(0x7C00, intToF16(65520, false, kRN));
  EXPECT_H(0x7BFF, intToF16(65520, false, kRZ));
  EXPECT_H(0x7BFF, intToF16(65519, false, kRN));
  EXPECT_H(0x7C00, intToF16(65505, false, kRP));
  EXPECT_H(0xFC00, intToF16(uint64_t(-70000), true, kRN));
  EXPECT_H(0xFBFF, intToF16(uint64_t(-70000), true, kRP));
  EXPECT_H(0x6800, intToF16(2049, true, kRN));
  EXPECT_H(0x6801, intToF16(2049, true, kRP));
  EXPECT_H(0x7C00, intToF16(~uint64_t{0}, false, kRN));
  // bf16: 257 is a tie between 256 and 258.
  EXPECT_H(0x4380, intToBF16(257, false, kRN));
  EXPECT_H(0x4381, intToBF16(257, false, kRP));
  EXPECT_H(0x4381, intToBF16(259, false, kRZ));
  EXPECT_H(0xC381, intToBF16(uint64_t(-257), true, kRM));
  EXPECT_H(0x5F80, intToBF16(~uint64_t{0}, false, kRN));
}

// ---- min / max ------------------------------------------------------------------------------
TEST(FpMinMax, NaNRules) {
  const float nan = F(kQNaNPayload);
  EXPECT_F32(kOne, fmin(nan, F(kOne)));
  EXPECT_F32(kOne, fmin(F(kOne), nan));
  EXPECT_F32(kNegOne, fmax(F(kNegNaN), F(kNegOne)));
  EXPECT_F32(kCanonicalNaN32, fmin(nan, F(kSNaN)));
  EXPECT_F32(kCanonicalNaN32, fmax(nan, F(kNegNaN)));
  EXPECT_F32(kCanonicalNaN32, fmin(nan, F(kOne), true));  // .NaN
  EXPECT_F32(kCanonicalNaN32, fmax(F(kOne), F(kSNaN), true));
  EXPECT_F32(kOne, fmax(F(kOne), F(kHalf), true));
  EXPECT_F64(0x3FF0000000000000, fmin(D(0x7FF8000000000001), 1.0));
  // min.f64 / max.f64 of two NaNs: a, quieted (measured on the H200).
  EXPECT_F64(0x7FF8000000000001, fmax(D(0x7FF8000000000001), D(0xFFF0000000000001)));
  EXPECT_F64(0xFFF8000000000002, fmin(D(0xFFF0000000000002), D(0x7FF8000000000001)));
  EXPECT_H(0x3C00, fminF16(0x7E01, 0x3C00));
  EXPECT_H(kCanonicalNaN16, fminF16(0x7E01, 0x3C00, true));
  EXPECT_H(kCanonicalNaN16, fmaxF16(0x7E01, 0xFC01));
  EXPECT_H(0x3F80, fmaxBF16(0x3F80, 0xFFC1));
  EXPECT_H(kCanonicalNaNBF16, fminBF16(0x3F80, 0xFFC1, true));
}

TEST(FpMinMax, SignedZerosAndOrder) {
  // "If values of both inputs are 0.0, then +0.0 > -0.0" (PTX ISA 9.7.3.11).
  EXPECT_F32(kNegZero, fmin(F(kPosZero), F(kNegZero)));
  EXPECT_F32(kNegZero, fmin(F(kNegZero), F(kPosZero)));
  EXPECT_F32(kPosZero, fmax(F(kNegZero), F(kPosZero)));
  EXPECT_F32(kPosZero, fmax(F(kPosZero), F(kNegZero)));
  EXPECT_F64(0x8000000000000000, fmin(0.0, -0.0));
  EXPECT_F64(0x0000000000000000, fmax(-0.0, 0.0));
  EXPECT_H(0x8000, fminF16(0x0000, 0x8000));
  EXPECT_H(0x0000, fmaxF16(0x8000, 0x0000));
  EXPECT_H(0x8000, fminBF16(0x0000, 0x8000));
  EXPECT_F32(kNegInf, fmin(F(kNegInf), F(kNegMax)));
  EXPECT_F32(kPosInf, fmax(F(kPosInf), F(kMax)));
  EXPECT_F32(0xC0000000, fmin(F(0xC0000000), F(kNegOne)));
  EXPECT_F32(kMinSub, fmax(F(kMinSub), F(kNegZero)));
  EXPECT_H(0xBC00, fminF16(0x3C00, 0xBC00));
  EXPECT_H(0x4000, fmaxBF16(0x3F80, 0x4000));
  // .ftz: subnormal inputs become zeros first (min.ftz.f32).
  EXPECT_F32(kNegZero, fmin(F(0x80000001), F(kPosZero), false, true));
  EXPECT_F32(0x80000001, fmin(F(0x80000001), F(kPosZero), false, false));
  EXPECT_F32(kPosZero, fmax(F(kMinSub), F(kNegZero), false, true));
  EXPECT_H(0x8000, fminF16(0x8001, 0x0000, false, true));
  EXPECT_H(0x0000, fmaxF16(0x0001, 0x8000, false, true));
}

}  // namespace
}  // namespace warpsim::fp
