// Tests of isa/insns/convert.cpp and convert_float.cpp: cvt between every pair of integer and
// floating-point types, integral rounding, .ftz .sat .relu .satfinite, the packing forms, tf32,
// the fp8 forms, and cvt.pack. References: __int128 for integers, long double / double with a
// directed-rounding correction for floats, _Float16 and an exhaustive nearest-value search for
// the 16- and 8-bit formats.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "tests/isa/float_test_util.h"

namespace warpsim::test {
namespace {

using fp::Round;
using isa::Type;

uint64_t cvt(const std::string& op, uint64_t a) { return exec1(op, a); }
// With a destination register of the given declared type (for the register-width rule).
uint64_t cvtInto(const std::string& op, Type regType, uint64_t a) {
  isa::Opnd d = R(1);
  d.regType = regType;
  ExecHarness h(op, {d, R(2)});
  h.set(2, 0, a);
  h.set(1, 0, ~0ull);
  h.run(1);
  return h.get(1, 0);
}

// ---- integer -> integer ------------------------------------------------------------------
TEST(Convert, IntegerExtendsAndTruncates) {
  EXPECT_EQ(0xFFFFFF80u, cvt("cvt.s32.s8", 0x80));        // sign-extended
  EXPECT_EQ(0xFFFFFF80u, cvt("cvt.u32.s8", 0x12345680));  // source: its low 8 bits
  EXPECT_EQ(0x80u, cvt("cvt.u32.u8", 0x80));
  EXPECT_EQ(0xFFu, cvt("cvt.u8.u32", 0x1FF));  // truncated
  EXPECT_EQ(0xFFFFFFFF80000000ull, cvt("cvt.s64.s32", 0x80000000));
  EXPECT_EQ(0xFFFFFFFF80000000ull, cvt("cvt.u64.s32", 0x80000000));
  EXPECT_EQ(0x80000000ull, cvt("cvt.u64.u32", 0xFFFFFFFF80000000ull));
  EXPECT_EQ(5u, cvt("cvt.s32.u64", 0x100000005ull));
  EXPECT_EQ(0xFF80u, cvt("cvt.s16.s8", 0x80));  // the 16-bit pattern
}

TEST(Convert, IntegerSaturates) {
  EXPECT_EQ(0xFFu, cvt("cvt.sat.u8.u32", 0x1FF));
  EXPECT_EQ(0x00u, cvt("cvt.sat.u8.s32", 0xFFFFFFFB));  // -5
  EXPECT_EQ(0x7Fu, cvt("cvt.sat.s8.s32", 200));
  EXPECT_EQ(0x80u, cvt("cvt.sat.s8.s32", uint32_t(-200)));
  EXPECT_EQ(0x7Fu, cvt("cvt.sat.s8.u8", 0xFF));
  EXPECT_EQ(0x00u, cvt("cvt.sat.u8.s8", 0x80));
  EXPECT_EQ(0x7FFFFFFFu, cvt("cvt.sat.s32.u64", 0x100000005ull));
  EXPECT_EQ(0u, cvt("cvt.sat.u32.s64", ~0ull));
  EXPECT_EQ(0u, cvt("cvt.sat.u64.s64", ~0ull));
  EXPECT_EQ(0x7FFFFFFFFFFFFFFFull, cvt("cvt.sat.s64.u64", 1ull << 63));
  EXPECT_EQ(0xFFFFFFFFu, cvt("cvt.sat.u32.u64", 1ull << 40));
}

TEST(Convert, ResultExtendsToTheDestinationRegister) {
  // PTX ISA 9.7.9.21: sign-extended to the register width for signed types, zero-extended
  // otherwise.
  EXPECT_EQ(0xFFFFFF80u, cvtInto("cvt.s8.s32", Type::B32, 0x80));
  EXPECT_EQ(0xFFFFFFFFFFFFFF80ull, cvtInto("cvt.s8.s32", Type::S64, 0x80));
  EXPECT_EQ(0x80u, cvtInto("cvt.u8.s32", Type::B32, 0xFFFFFF80));
  EXPECT_EQ(0xFF80u, cvtInto("cvt.s8.s32", Type::B16, 0x80));
  EXPECT_EQ(0xFFFFFF80u, cvtInto("cvt.sat.s8.s32", Type::U32, uint32_t(-500)));
  EXPECT_EQ(0xFFFFFFFFu, cvtInto("cvt.rzi.s8.f32", Type::B32, fb(-1.0f)));
  EXPECT_EQ(0x3C00u, cvtInto("cvt.rn.f16.f32", Type::B32, fb(1.0f)));  // floats zero-extend
}

// ---- float -> integer --------------------------------------------------------------------
TEST(Convert, FloatToIntegerRoundsAndClamps) {
  EXPECT_EQ(2u, cvt("cvt.rni.s32.f32", fb(2.5f)));
  EXPECT_EQ(4u, cvt("cvt.rni.s32.f32", fb(3.5f)));
  EXPECT_EQ(uint32_t(-2), cvt("cvt.rzi.s32.f32", fb(-2.7f)));
  EXPECT_EQ(uint32_t(-3), cvt("cvt.rmi.s32.f32", fb(-2.1f)));
  EXPECT_EQ(3u, cvt("cvt.rpi.s32.f32", fb(2.1f)));
  EXPECT_EQ(0x7FFFFFFFu, cvt("cvt.rzi.s32.f32", fb(3e9f)));
  EXPECT_EQ(0x80000000u, cvt("cvt.rzi.s32.f32", fb(-3e9f)));
  EXPECT_EQ(0x7FFFFFFFu, cvt("cvt.rzi.s32.f32", 0x7F800000));
  EXPECT_EQ(0u, cvt("cvt.rzi.u32.f32", fb(-1.0f)));
  EXPECT_EQ(0xFFu, cvt("cvt.rzi.u8.f32", fb(300.0f)));
  EXPECT_EQ(0x80u, cvt("cvt.rzi.s8.f32", fb(-200.0f)));
  EXPECT_EQ(0xFFFFFFFFFFFFFFFFull, cvt("cvt.rpi.u64.f64", db(1.9e19)));
  EXPECT_EQ(18000000000000000000ull, cvt("cvt.rzi.u64.f64", db(1.8e19)));
  EXPECT_EQ(0x7FFFFFFFFFFFFFFFull, cvt("cvt.rni.s64.f64", db(9.3e18)));
  EXPECT_EQ(0x7FFFu, cvt("cvt.sat.rzi.s16.f32", fb(1e6f)));  // .sat is redundant here
}

TEST(Convert, FloatToIntegerNaNRule) {
  // "Zero if source is not .f64 and destination is not .s64, .u64. Otherwise 1 << (BitWidth(dst)
  // - 1)".
  EXPECT_EQ(0u, cvt("cvt.rzi.s32.f32", 0x7FC00000));
  EXPECT_EQ(0u, cvt("cvt.rni.u16.f16", 0x7E00));
  EXPECT_EQ(0x8000000000000000ull, cvt("cvt.rzi.s64.f32", 0x7FC00000));
  EXPECT_EQ(0x8000000000000000ull, cvt("cvt.rzi.u64.bf16", 0x7FC0));
  EXPECT_EQ(0x80000000u, cvt("cvt.rzi.s32.f64", 0x7FF8000000000000ull));
  EXPECT_EQ(0x80000000u, cvt("cvt.rzi.u32.f64", 0x7FF8000000000000ull));
  EXPECT_EQ(0x80u, cvt("cvt.rzi.u8.f64", 0xFFF8000000000000ull));
}

TEST(Convert, FloatToIntegerFromHalfAndFtz) {
  EXPECT_EQ(2u, cvt("cvt.rni.s32.f16", 0x3E00));    // 1.5 -> 2
  EXPECT_EQ(0xFFu, cvt("cvt.rzi.u8.f16", 0x5C00));  // 256 -> 255
  EXPECT_EQ(3u, cvt("cvt.rni.s16.bf16", 0x4049));   // 3.140625
  EXPECT_EQ(1u, cvt("cvt.rpi.s32.f32", 0x00000001));
  EXPECT_EQ(0u, cvt("cvt.rpi.ftz.s32.f32", 0x00000001));  // flushed first
  EXPECT_EQ(0u, cvt("cvt.rmi.ftz.s32.f32", 0x80000001));
  EXPECT_EQ(0xFFFFFFFFu, cvt("cvt.rmi.s32.f32", 0x80000001));
}

// ---- integer -> float --------------------------------------------------------------------
TEST(Convert, IntegerToFloatRounds) {
  EXPECT_EQ(0x4B800000u, cvt("cvt.rn.f32.s32", 16777217));
  EXPECT_EQ(0x4B800001u, cvt("cvt.rp.f32.s32", 16777217));
  EXPECT_EQ(0xCB800001u, cvt("cvt.rm.f32.s32", uint32_t(-16777217)));
  EXPECT_EQ(0x4F7FFFFFu, cvt("cvt.rz.f32.u32", 0xFFFFFFFF));
  EXPECT_EQ(0x4F800000u, cvt("cvt.rn.f32.u32", 0xFFFFFFFF));
  EXPECT_EQ(0xC3000000u, cvt("cvt.rn.f32.s8", 0x12345680));  // -128
  EXPECT_EQ(db(-1.0), cvt("cvt.rn.f64.s64", ~0ull));
  EXPECT_EQ(0x43F0000000000000ull, cvt("cvt.rn.f64.u64", ~0ull));
  EXPECT_EQ(0x43EFFFFFFFFFFFFFull, cvt("cvt.rz.f64.u64", ~0ull));
  EXPECT_EQ(0x7C00u, cvt("cvt.rn.f16.s32", 65520));  // the tie rounds up to 2^16: inf
  EXPECT_EQ(0x7BFFu, cvt("cvt.rz.f16.s32", 70000));
  EXPECT_EQ(0x5BF8u, cvt("cvt.rn.f16.u8", 0xFF));
  EXPECT_EQ(0x4380u, cvt("cvt.rn.bf16.s32", 257));
  EXPECT_EQ(0x4381u, cvt("cvt.rp.bf16.s32", 257));
  EXPECT_EQ(0x3F800000u, cvt("cvt.rn.sat.f32.s32", 5));
  EXPECT_EQ(0u, cvt("cvt.rn.sat.f32.s32", uint32_t(-5)));
  EXPECT_EQ(0x3C00u, cvt("cvt.rn.sat.f16.u16", 7));
  EXPECT_EQ(0u, cvt("cvt.rn.f32.s32", 0));  // +0
}

// ---- float -> float ----------------------------------------------------------------------
TEST(Convert, FloatWidening) {
  EXPECT_EQ(db(1.5), cvt("cvt.f64.f32", fb(1.5f)));
  EXPECT_EQ(db(std::ldexp(1.0, -149)), cvt("cvt.f64.f32", 0x00000001));
  EXPECT_EQ(0u, cvt("cvt.ftz.f64.f32", 0x00000001));
  EXPECT_EQ(0x80000000'00000000ull, cvt("cvt.ftz.f64.f32", 0x80000001));
  EXPECT_EQ(0x33800000u, cvt("cvt.f32.f16", 0x0001));  // 2^-24
  EXPECT_EQ(0x7F800000u, cvt("cvt.f32.f16", 0x7C00));
  EXPECT_EQ(db(65504.0), cvt("cvt.f64.f16", 0x7BFF));
  EXPECT_EQ(0x3F810000u, cvt("cvt.f32.bf16", 0x3F81));
  EXPECT_EQ(0x00010000u, cvt("cvt.f32.bf16", 0x0001));
  EXPECT_EQ(0u, cvt("cvt.ftz.f32.bf16", 0x0001));  // an f32 subnormal result, flushed
  EXPECT_EQ(db(bf(0x7F7F0000)), cvt("cvt.f64.bf16", 0x7F7F));
  EXPECT_EQ(0x3FF0000000000000ull, cvt("cvt.sat.f64.f32", fb(2.0f)));
}

TEST(Convert, FloatNarrowingPerMode) {
  const uint64_t tie = 0x3FF0000010000000ull;  // 1 + 2^-24
  EXPECT_EQ(0x3F800000u, cvt("cvt.rn.f32.f64", tie));
  EXPECT_EQ(0x3F800001u, cvt("cvt.rp.f32.f64", tie));
  EXPECT_EQ(0x3F800000u, cvt("cvt.rm.f32.f64", tie));
  EXPECT_EQ(0x7F800000u, cvt("cvt.rn.f32.f64", db(1e39)));
  EXPECT_EQ(0x7F7FFFFFu, cvt("cvt.rz.f32.f64", db(1e39)));
  EXPECT_EQ(0u, cvt("cvt.rn.f32.f64", db(1e-46)));
  EXPECT_EQ(1u, cvt("cvt.rp.f32.f64", db(1e-46)));
  EXPECT_EQ(0x00080000u, cvt("cvt.rn.f32.f64", db(std::ldexp(1.0, -130))));
  EXPECT_EQ(0u, cvt("cvt.rn.ftz.f32.f64", db(std::ldexp(1.0, -130))));
  EXPECT_EQ(0x3C00u, cvt("cvt.rn.f16.f32", 0x3F801000));  // 1 + 2^-11: tie to even
  EXPECT_EQ(0x3C01u, cvt("cvt.rp.f16.f32", 0x3F801000));
  EXPECT_EQ(0x7C00u, cvt("cvt.rn.f16.f32", fb(65520.0f)));
  EXPECT_EQ(0x7BFFu, cvt("cvt.rz.f16.f32", fb(65520.0f)));
  EXPECT_EQ(0x7FFFu, cvt("cvt.rn.f16.f32", 0xFFC01234));
  EXPECT_EQ(0x0000u, cvt("cvt.rn.ftz.f16.f32", 0x00400000));  // flushed f32 input
  EXPECT_EQ(0x3F80u, cvt("cvt.rn.bf16.f32", 0x3F808000));     // 1 + 2^-8: tie to even
  EXPECT_EQ(0x3F80u, cvt("cvt.rz.bf16.f32", 0x3F80FFFF));
  EXPECT_EQ(0x3F81u, cvt("cvt.rp.bf16.f32", 0x3F800001));
  // One rounding from f64 (through f32 the tie would round to even, 0x3C00).
  EXPECT_EQ(0x3C01u, cvt("cvt.rn.f16.f64", db(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40))));
  EXPECT_EQ(0x3F81u, cvt("cvt.rn.bf16.f64", db(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40))));
  EXPECT_EQ(0x3C08u, cvt("cvt.rn.f16.bf16", 0x3F81));
  EXPECT_EQ(0x7C00u, cvt("cvt.rn.f16.bf16", 0x4780));  // 65536
  EXPECT_EQ(0x7BFFu, cvt("cvt.rz.f16.bf16", 0x4780));
  EXPECT_EQ(0x3F80u, cvt("cvt.rn.bf16.f16", 0x3C01));
  EXPECT_EQ(0x3F81u, cvt("cvt.rp.bf16.f16", 0x3C01));
  EXPECT_EQ(0x3C00u, cvt("cvt.rn.sat.f16.f32", fb(2.0f)));
  // f16 <-> bf16 are the same size: the rounding may be omitted (ptxas accepts it), .rn.
  EXPECT_EQ(cvt("cvt.rn.f16.bf16", 0x3586), cvt("cvt.f16.bf16", 0x3586));
  EXPECT_EQ(0x3F80u, cvt("cvt.bf16.f16", 0x3C01));
  // A rounding on the exact .bf16 -> .f32/.f64 changes nothing (cvt.f64.bf16.rp in the manual).
  EXPECT_EQ(0x3F810000u, cvt("cvt.rp.f32.bf16", 0x3F81));
  EXPECT_EQ(db(1.0078125), cvt("cvt.f64.bf16.rp", 0x3F81));
}

TEST(Convert, IntegralRoundingInPlace) {
  EXPECT_EQ(fb(2.0f), cvt("cvt.rni.f32.f32", fb(2.5f)));
  EXPECT_EQ(fb(-2.0f), cvt("cvt.rzi.f32.f32", fb(-2.5f)));
  EXPECT_EQ(fb(-3.0f), cvt("cvt.rmi.f32.f32", fb(-2.5f)));
  EXPECT_EQ(fb(3.0f), cvt("cvt.rpi.f32.f32", fb(2.1f)));
  EXPECT_EQ(0x80000000u, cvt("cvt.rni.f32.f32", fb(-0.25f)));  // the sign is kept
  EXPECT_EQ(fb(1.0f), cvt("cvt.rpi.f32.f32", 0x00000001));
  EXPECT_EQ(0u, cvt("cvt.rpi.ftz.f32.f32", 0x00000001));
  EXPECT_EQ(db(2.0), cvt("cvt.rni.f64.f64", db(2.5)));
  EXPECT_EQ(db(-4.0), cvt("cvt.rmi.f64.f64", db(-3.5)));
  EXPECT_EQ(0x4000u, cvt("cvt.rni.f16.f16", 0x3E00));  // 1.5 -> 2
  EXPECT_EQ(0xBC00u, cvt("cvt.rzi.f16.f16", 0xBE00));
  EXPECT_EQ(0x4000u, cvt("cvt.rpi.bf16.bf16", 0x3FC0));
  EXPECT_EQ(0x7BFFu, cvt("cvt.rni.f16.f16", 0x7BFF));  // already integral
  EXPECT_EQ(0x7FFFu, cvt("cvt.rni.f16.f16", 0x7E01));
}

TEST(Convert, SameTypeMovesWithFtzSat) {
  EXPECT_EQ(0x7F800001u, cvt("cvt.f32.f32", 0x7F800001));  // a move: bits unchanged
  EXPECT_EQ(0u, cvt("cvt.ftz.f32.f32", 0x00000001));
  EXPECT_EQ(0x3F800000u, cvt("cvt.sat.f32.f32", fb(2.0f)));
  EXPECT_EQ(0u, cvt("cvt.sat.f32.f32", 0x80000000));
  EXPECT_EQ(0u, cvt("cvt.sat.f32.f32", 0x7FC00000));
  EXPECT_EQ(0x3FE0000000000000ull, cvt("cvt.sat.f64.f64", db(0.5)));
  EXPECT_EQ(0x1234u, cvt("cvt.f16.f16", 0xFFFF1234));
}

// ---- .relu / .satfinite, packing, tf32 -----------------------------------------------------
TEST(Convert, ReluSatfinite) {
  EXPECT_EQ(0x0000u, cvt("cvt.rn.relu.f16.f32", fb(-1.0f)));
  EXPECT_EQ(0x0000u, cvt("cvt.rn.relu.f16.f32", 0x80000000));
  EXPECT_EQ(0x7FFFu, cvt("cvt.rn.relu.f16.f32", 0xFFC00001));
  EXPECT_EQ(0x4000u, cvt("cvt.rz.relu.f16.f32", fb(2.0f)));
  EXPECT_EQ(0x7BFFu, cvt("cvt.rn.satfinite.f16.f32", 0x7F800000));
  EXPECT_EQ(0xFBFFu, cvt("cvt.rn.satfinite.f16.f32", 0xFF800000));
  EXPECT_EQ(0x7BFFu, cvt("cvt.rn.satfinite.f16.f32", fb(70000.0f)));
  EXPECT_EQ(0x7FFFu, cvt("cvt.rn.satfinite.f16.f32", 0x7FC01234));
  EXPECT_EQ(0x0000u, cvt("cvt.rn.relu.satfinite.f16.f32", 0xFF800000));
  EXPECT_EQ(0x7F7Fu, cvt("cvt.rz.satfinite.bf16.f32", 0x7F800000));
  EXPECT_EQ(0x0000u, cvt("cvt.rn.relu.bf16.f32", fb(-3.0f)));
}

TEST(Convert, PacksTwoF32WithAInTheUpperHalf) {
  // "the value converted from input a is stored in the upper half of d".
  EXPECT_EQ(0x3C004000u, exec2("cvt.rn.f16x2.f32", fb(1.0f), fb(2.0f)));
  EXPECT_EQ(0x00004040u, exec2("cvt.rz.relu.bf16x2.f32", fb(-1.0f), fb(3.0f)));
  EXPECT_EQ(0x7BFF7FFFu, exec2("cvt.rn.satfinite.f16x2.f32", 0x7F800000, 0x7FC00000));
  EXPECT_EQ(0x3F803F81u, exec2("cvt.rn.bf16x2.f32", fb(1.0f), 0x3F80C000));
}

TEST(Convert, Tf32) {
  EXPECT_EQ(0x3F802000u, cvt("cvt.rna.tf32.f32", 0x3F801000));  // tie: away from zero
  EXPECT_EQ(0x3F800000u, cvt("cvt.rn.tf32.f32", 0x3F801000));   // tie: to even
  EXPECT_EQ(0x3F800000u, cvt("cvt.rz.tf32.f32", 0x3F801FFF));
  EXPECT_EQ(0x7F800000u, cvt("cvt.rna.tf32.f32", 0x7F7FFFFF));  // rounds up to infinity
  EXPECT_EQ(0x7F7FE000u, cvt("cvt.rna.satfinite.tf32.f32", 0x7F7FFFFF));
  EXPECT_EQ(0x7F7FE000u, cvt("cvt.rna.satfinite.tf32.f32", 0x7F800000));
  EXPECT_EQ(0x00000000u, cvt("cvt.rn.relu.tf32.f32", fb(-1.0f)));
  EXPECT_EQ(0xFF7FE000u, cvt("cvt.rz.satfinite.tf32.f32", 0xFF800000));
  EXPECT_EQ(fp::bits(fp::f32ToTF32(bf(0x7FC01234), Round::RNA)),
            cvt("cvt.rna.tf32.f32", 0x7FC01234));  // NaN: fp.h's measured rule
  // .satfinite takes one ulp off any all-ones exponent, NaNs included (measured on the H200).
  EXPECT_EQ(0x7FBFE000u, cvt("cvt.rna.satfinite.tf32.f32", 0x7FC01234));
  EXPECT_EQ(0xFFBFE000u, cvt("cvt.rna.satfinite.tf32.f32", 0xFFC00001));
  EXPECT_EQ(0x7F7FE000u, cvt("cvt.rna.satfinite.tf32.f32", 0x7F800001));
}

// ---- fp8 ---------------------------------------------------------------------------------
TEST(Convert, ToE4M3AndE5M2) {
  auto e4 = [](float a, float b) { return exec2("cvt.rn.satfinite.e4m3x2.f32", fb(a), fb(b)); };
  auto e5 = [](float a, float b) { return exec2("cvt.rn.satfinite.e5m2x2.f32", fb(a), fb(b)); };
  EXPECT_EQ(0x387Eu, e4(1.0f, 448.0f));  // a in the upper byte; 448 = MAX_NORM
  EXPECT_EQ(0x7E7Eu, e4(500.0f, INFINITY));
  EXPECT_EQ(0xFE7Fu, e4(-INFINITY, NAN));
  EXPECT_EQ(0x0100u, e4(std::ldexp(1.0f, -9), std::ldexp(1.0f, -10)));  // min sub; tie -> 0
  EXPECT_EQ(0x0280u, e4(1.5f * std::ldexp(1.0f, -9), -0.0f));           // tie -> even (2^-8)
  EXPECT_EQ(0x3A3Cu, e4(1.25f, 1.5f));
  EXPECT_EQ(0x3C7Bu, e5(1.0f, 57344.0f));
  EXPECT_EQ(0x7B7Bu, e5(61440.0f, INFINITY));  // the tie rounds to infinity: MAX_NORM
  EXPECT_EQ(0x7F01u, e5(NAN, std::ldexp(1.0f, -16)));
  EXPECT_EQ(0x0000u, e5(std::ldexp(1.0f, -17), 0.0f));
  EXPECT_EQ(0x0038u, exec2("cvt.rn.satfinite.relu.e4m3x2.f32", fb(-5.0f), fb(1.0f)));
  EXPECT_EQ(0x7F00u, exec2("cvt.rn.satfinite.relu.e5m2x2.f32", 0x7FC00000, 0x80000000));
  EXPECT_EQ(0x387Eu, exec1("cvt.rn.satfinite.e4m3x2.f16x2", 0x3C005F00));
  EXPECT_EQ(0x3C00u, exec1("cvt.rn.satfinite.relu.e5m2x2.f16x2", 0x3C00BC00));
}

// The exact value of an fp8 encoding (NaN for the NaN encodings).
double decodeF8(uint8_t b, bool e4m3) {
  const int man = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15, e = (b & 0x7F) >> man,
            m = b & ((1 << man) - 1);
  const double sign = (b & 0x80) ? -1 : 1;
  if (e4m3 && (b & 0x7F) == 0x7F) return NAN;
  if (!e4m3 && e == 31) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(double(m), 1 - bias - man);
  return sign * std::ldexp(double((1 << man) | m), e - bias - man);
}
double f16Value(uint16_t h) {
  _Float16 f;
  std::memcpy(&f, &h, 2);
  return double(f);
}

TEST(Convert, FromFp8IsExactForEveryEncoding) {
  for (unsigned v = 0; v < 0x10000; v += 0x0101) {  // both bytes alike, every value once
    for (bool e4 : {true, false}) {
      const uint32_t d = uint32_t(exec1(e4 ? "cvt.rn.f16x2.e4m3x2" : "cvt.rn.f16x2.e5m2x2", v));
      const uint16_t lo = uint16_t(d), hi = uint16_t(d >> 16);
      const double x = decodeF8(uint8_t(v), e4);
      EXPECT_EQ(lo, hi);
      if (std::isnan(x)) {
        EXPECT_EQ(0x7FFF, lo) << v;
      } else {
        EXPECT_EQ(x, f16Value(lo)) << std::hex << v;
        EXPECT_EQ(std::signbit(x), (lo & 0x8000) != 0) << std::hex << v;
      }
    }
  }
  EXPECT_EQ(0x3C005F00u, exec1("cvt.rn.f16x2.e4m3x2", 0x387E));       // the upper byte goes up
  EXPECT_EQ(0x00003C00u, exec1("cvt.rn.relu.f16x2.e4m3x2", 0xB838));  // -1 -> 0
  EXPECT_EQ(0x3C007C00u, exec1("cvt.rn.f16x2.e5m2x2", 0x3C7C));
}

// Round x to fp8 the slow way: the nearest finite encoding, ties to the even encoding;
// .satfinite beyond MAX_NORM.
uint8_t refToF8(double x, bool e4m3, bool relu) {
  if (std::isnan(x)) return 0x7F;
  if (relu && std::signbit(x)) return 0;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0, maxNorm = e4m3 ? 0x7E : 0x7B;
  const double m = std::fabs(x);
  if (m >= decodeF8(maxNorm, e4m3)) return sign | maxNorm;
  uint8_t best = 0;
  for (uint8_t c = 1; c <= maxNorm; ++c) {
    const double dc = std::fabs(decodeF8(c, e4m3) - m), db = std::fabs(decodeF8(best, e4m3) - m);
    if (dc < db || (dc == db && (c & 1) == 0)) best = c;
  }
  // Beyond MAX_NORM by less than half a step rounds down to it; more saturates: same result.
  return sign | best;
}

RC_GTEST_PROP(ConvertProps, ToFp8MatchesNearestSearch, ()) {
  const uint32_t a = *rc::gen::weightedOneOf<uint32_t>(
      {{1, genF32()}, {3, rc::gen::map(rc::gen::inRange<uint32_t>(0, 0x3800000), [](uint32_t u) {
                         return (u & 0x807FFFFF) | (((u >> 23) % 48 + 100) << 23);
                       })}});
  const uint32_t b = *genF32();
  for (bool e4 : {true, false})
    for (bool relu : {false, true}) {
      const std::string op = std::string("cvt.rn.satfinite") + (relu ? ".relu" : "") +
                             (e4 ? ".e4m3x2" : ".e5m2x2") + ".f32";
      const uint32_t expect = (uint32_t(refToF8(bf(a), e4, relu)) << 8) | refToF8(bf(b), e4, relu);
      RC_ASSERT(expect == exec2(op, a, b));
    }
}

// ---- cvt.pack ----------------------------------------------------------------------------
TEST(Convert, PackSaturates) {
  EXPECT_EQ(0x7FFFFFFBu, exec2("cvt.pack.sat.s16.s32", 100000, uint32_t(-5)));
  EXPECT_EQ(0x0000FFFFu, exec2("cvt.pack.sat.u16.s32", uint32_t(-1), 70000));
  EXPECT_EQ(0x1234FF00u, exec3("cvt.pack.sat.u8.s32.b32", 300, uint32_t(-3), 0x1234));
  EXPECT_EQ(0xABCD8005u, exec3("cvt.pack.sat.s8.s32.b32", uint32_t(-200), 5, 0xABCD));
  EXPECT_EQ(0x123456F3u, exec3("cvt.pack.sat.u4.s32.b32", 20, 3, 0x123456));
  EXPECT_EQ(0x000000F9u, exec3("cvt.pack.sat.s2.s32.b32", uint32_t(-5), 1, 0xF));
  EXPECT_EQ(0x0000000Du, exec3("cvt.pack.sat.u2.s32.b32", 3, 1, 0));
  EXPECT_EQ(0x89ABCD87u, exec3("cvt.pack.sat.s4.s32.b32", uint32_t(-9), 100, 0x89ABCD));
}

// ---- binding -----------------------------------------------------------------------------
TEST(Convert, RejectsInvalidForms) {
  for (const char* op : {"cvt.f32.s32",
                         "cvt.s32.f32",
                         "cvt.rn.s32.f32",
                         "cvt.rni.f32.s32",
                         "cvt.rn.f32.f32",
                         "cvt.rn.f32.f16",
                         "cvt.f16.f32",
                         "cvt.rni.f32.f64",
                         "cvt.rn.s32.s16",
                         "cvt.rzi.s32.s16",
                         "cvt.sat.s32.s16",
                         "cvt.sat.s16.u8",
                         "cvt.sat.u32.u32",
                         "cvt.ftz.f64.s32",
                         "cvt.ftz.f16.f64",
                         "cvt.rn.sat.bf16.f32",
                         "cvt.rna.f32.f64",
                         "cvt.rm.relu.f16.f32",
                         "cvt.rn.relu.f16.f64",
                         "cvt.rn.ftz.relu.f16.f32",
                         "cvt.rn.satfinite.f32.f64",
                         "cvt.rm.tf32.f32",
                         "cvt.rna.relu.tf32.f32",
                         "cvt.rn.tf32.f64",
                         "cvt.tf32.f32",
                         "cvt.s32",
                         "cvt.f32.f32.f32",
                         "cvt.rn.relu.f32.s32",
                         "cvt.rn.e4m3x2.f16x2",
                         "cvt.rz.satfinite.e4m3x2.f16x2",
                         "cvt.rn.satfinite.f16x2.e4m3x2",
                         "cvt.f16x2.e4m3x2",
                         "cvt.rn.f16.e4m3x2",
                         "cvt.rn.f16x2.f16x2",
                         "cvt.pack.s16.s32",
                         "cvt.b32.u32"})
    EXPECT_FALSE(bindMessage(op, 2).empty()) << op;
  for (const char* op :
       {"cvt.rn.f16x2.f16", "cvt.rn.f16x2.f64", "cvt.rn.e4m3x2.f32", "cvt.rz.satfinite.e5m2x2.f32",
        "cvt.pack.sat.s32.s32", "cvt.pack.sat.u16.s32.b32"})
    EXPECT_FALSE(bindMessage(op, 3).empty()) << op;
  for (const char* op :
       {"cvt.pack.sat.u8.s32", "cvt.pack.sat.u4.u4.s32.b32", "cvt.pack.sat.s8.s32.b32.rn"})
    EXPECT_FALSE(bindMessage(op, 4).empty()) << op;
  EXPECT_FALSE(bindMessage("cvt.rn.f16x2.f32", 2).empty());  // two sources
  EXPECT_FALSE(bindMessage("cvt.rn.f32.s32", 3).empty());
}

// Every destination x source x rounding x flags combination binds or explains itself, and the
// bound handlers run. Counts what binds, so that the accepted set cannot silently shrink.
TEST(Convert, EveryCombinationBindsOrExplains) {
  const std::vector<std::string> types = {"u8",  "u16",   "u32",    "u64",    "s8",     "s16",
                                          "s32", "s64",   "f16",    "bf16",   "tf32",   "f32",
                                          "f64", "f16x2", "bf16x2", "e4m3x2", "e5m2x2", "b32"};
  const std::vector<std::string> rounds = {"",     ".rn",  ".rz",  ".rm",  ".rp",
                                           ".rna", ".rni", ".rzi", ".rmi", ".rpi"};
  const std::vector<std::string> flags = {
      "", ".ftz", ".sat", ".relu", ".satfinite", ".relu.satfinite", ".ftz.sat"};
  size_t bound = 0;
  for (const auto& d : types)
    for (const auto& a : types)
      for (const auto& r : rounds)
        for (const auto& f : flags)
          for (size_t n : {2, 3}) {
            const std::string op = "cvt" + r + f + "." + d + "." + a;
            std::vector<isa::Opnd> ops;
            for (size_t i = 0; i < n; ++i) ops.push_back(R(uint32_t(1 + i)));
            ExecHarness h("mov.b32", {R(1), R(2)});
            for (unsigned l = 0; l < 32; ++l) h.set(2, l, 0x9E3779B97F4A7C15ull * (l + 1));
            const std::string msg = h.tryBind(op, ops);
            if (!msg.empty()) continue;
            h.run();
            ++bound;
          }
  // 8x8 int pairs x {plain, sat where legal}; float conversions in their modes; and the rest.
  EXPECT_GT(bound, 600u);
  EXPECT_LT(bound, 2000u);
}

// ---- properties --------------------------------------------------------------------------
struct IntType {
  const char* name;
  unsigned bits;
  bool isSigned;
};
constexpr IntType kInts[] = {{"u8", 8, false},   {"u16", 16, false}, {"u32", 32, false},
                             {"u64", 64, false}, {"s8", 8, true},    {"s16", 16, true},
                             {"s32", 32, true},  {"s64", 64, true}};

__int128 readInt(uint64_t v, const IntType& t) {
  const uint64_t m = t.bits == 64 ? ~0ull : (1ull << t.bits) - 1;
  v &= m;
  if (t.isSigned && t.bits < 64 && (v >> (t.bits - 1)))
    return __int128(v) - (__int128(1) << t.bits);
  if (t.isSigned && t.bits == 64) return __int128(int64_t(v));
  return __int128(v);
}
__int128 minOf(const IntType& t) { return t.isSigned ? -(__int128(1) << (t.bits - 1)) : 0; }
__int128 maxOf(const IntType& t) {
  return t.isSigned ? (__int128(1) << (t.bits - 1)) - 1 : (__int128(1) << t.bits) - 1;
}
uint64_t pattern(__int128 v, const IntType& t) {
  return uint64_t(v) & (t.bits == 64 ? ~0ull : (1ull << t.bits) - 1);
}

RC_GTEST_PROP(ConvertProps, IntegerToIntegerMatchesInt128, (uint64_t src)) {
  for (const IntType& d : kInts)
    for (const IntType& a : kInts) {
      const __int128 v = readInt(src, a);
      const std::string tail = std::string(".") + d.name + "." + a.name;
      RC_ASSERT(pattern(v, d) == cvt("cvt" + tail, src));
      const bool satLegal = !(a.isSigned ? d.isSigned && a.bits <= d.bits
                                         : (d.isSigned ? a.bits < d.bits : a.bits <= d.bits));
      if (satLegal)
        RC_ASSERT(pattern(std::clamp(v, minOf(d), maxOf(d)), d) == cvt("cvt.sat" + tail, src));
      else
        RC_ASSERT(!binds("cvt.sat" + tail, 2));
    }
}

// The PTX float-to-integer conversion of an exact value x (long double holds f32 and f64).
uint64_t refFloatToInt(long double x, bool srcF64, Round r, const IntType& d) {
  if (std::isnan(x)) {
    if (!srcF64 && d.bits != 64) return 0;
    return pattern(__int128(1) << (d.bits - 1), d);
  }
  long double i = r == Round::RN   ? std::nearbyint(x)
                  : r == Round::RZ ? std::trunc(x)
                  : r == Round::RM ? std::floor(x)
                                   : std::ceil(x);
  const long double hi = std::ldexp(1.0L, int(d.isSigned ? d.bits - 1 : d.bits));
  const long double lo = d.isSigned ? -hi : 0;
  if (i >= hi) return pattern(maxOf(d), d);
  if (i < lo) return pattern(minOf(d), d);
  return pattern(__int128(i), d);
}

RC_GTEST_PROP(ConvertProps, FloatToIntegerMatchesReference, ()) {
  const uint32_t f = *genF32();
  const uint64_t g = *rc::gen::weightedOneOf<uint64_t>(
      {{1, genF64()}, {2, rc::gen::map(rc::gen::arbitrary<uint64_t>(), [](uint64_t u) -> uint64_t {
                         return (u & 0x800FFFFFFFFFFFFFull) |
                                ((0x3FFull + (u >> 52) % 70) << 52);  // 1..2^70
                       })}});
  const uint16_t h = *genH16();
  const char* names[] = {"rni", "rzi", "rmi", "rpi"};
  for (const IntType& d : kInts)
    for (int m = 0; m < 4; ++m) {
      const Round r = kModes[m];
      const std::string tail = std::string(".") + names[m] + "." + d.name;
      RC_ASSERT(refFloatToInt(bf(f), false, r, d) == cvt("cvt" + tail + ".f32", f));
      const float ff = std::fpclassify(bf(f)) == FP_SUBNORMAL ? std::copysign(0.0f, bf(f)) : bf(f);
      RC_ASSERT(refFloatToInt(ff, false, r, d) ==
                cvt("cvt" + std::string(".") + names[m] + ".ftz." + d.name + ".f32", f));
      RC_ASSERT(refFloatToInt(bd(g), true, r, d) == cvt("cvt" + tail + ".f64", g));
      RC_ASSERT(refFloatToInt(f16Value(h), false, r, d) == cvt("cvt" + tail + ".f16", h));
      RC_ASSERT(refFloatToInt(bf(uint32_t(h) << 16), false, r, d) ==
                cvt("cvt" + tail + ".bf16", h));
    }
}

// One step of a 16-bit encoding along the number line (toward +inf when up).
uint16_t step16(uint16_t h, bool up) {
  const bool neg = h & 0x8000;
  if ((h & 0x7FFF) == 0) return up ? 0x0001 : 0x8001;
  return (up != neg) ? uint16_t(h + 1) : uint16_t(h - 1);
}
// Directed rounding of exact value v given the nearest-even encoding rn and its value.
uint16_t direct16(uint16_t rn, double rnValue, long double v, Round r) {
  const int c = sgn((long double)rnValue - v);
  if (c == 0 || r == Round::RN) return rn;
  if (r == Round::RZ)
    return ((c > 0 && rnValue > 0) || (c < 0 && rnValue < 0)) ? step16(rn, c < 0) : rn;
  if (r == Round::RM) return c > 0 ? step16(rn, false) : rn;
  return c < 0 ? step16(rn, true) : rn;
}
uint16_t toF16RN(long double v) {  // via double rounded to odd, then once to f16
  double d = double(v);
  if (std::isfinite(d) && (long double)d != v && (db(d) & 1) == 0)
    d = std::nextafter(d, (long double)d < v ? INFINITY : -INFINITY);
  const _Float16 f = _Float16(d);
  uint16_t u;
  std::memcpy(&u, &f, 2);
  return u;
}
uint16_t toBF16RN(long double v) {
  float f = float(v);
  if (std::isinf(f) && std::isfinite(double(v))) {
    // v is beyond FLT_MAX: bf16's largest finite 0x7F7F is below FLT_MAX, so it overflows too
    return std::signbit(f) ? 0xFF80 : 0x7F80;
  }
  if (std::fabs((long double)f) > std::fabs(v)) f = std::nextafter(f, 0.0f);  // to zero ...
  uint32_t u = fp::bits(f);
  if ((long double)f != v) u |= 1;  // ... then odd
  u += 0x7FFF + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
double bf16Value(uint16_t h) { return double(bf(uint32_t(h) << 16)); }

RC_GTEST_PROP(ConvertProps, IntegerToFloatMatchesReference, (uint64_t src)) {
  const char* modes[] = {"rn", "rz", "rm", "rp"};
  for (const IntType& a : kInts)
    for (int m = 0; m < 4; ++m) {
      const Round r = kModes[m];
      const long double v = (long double)readInt(src, a);
      const std::string head = std::string("cvt.") + modes[m];
      const std::string tail = std::string(".") + a.name;
      const float rn32 = float(v);
      const float e32 = v == 0 ? 0.0f : roundDirected(rn32, r, [&](float x) {
        return std::isinf(x) ? (x < 0 ? -1 : 1) : sgn((long double)x - v);
      });
      RC_ASSERT(fb(e32) == cvt(head + ".f32" + tail, src));
      const double rn64 = double(v);
      const double e64 =
          v == 0 ? 0.0 : roundDirected(rn64, r, [&](double x) { return sgn((long double)x - v); });
      RC_ASSERT(db(e64) == cvt(head + ".f64" + tail, src));
      const uint16_t h = toF16RN(v);
      RC_ASSERT((v == 0 ? uint16_t(0) : direct16(h, f16Value(h), v, r)) ==
                cvt(head + ".f16" + tail, src));
      const uint16_t b = toBF16RN(v);
      RC_ASSERT((v == 0 ? uint16_t(0) : direct16(b, bf16Value(b), v, r)) ==
                cvt(head + ".bf16" + tail, src));
    }
}

RC_GTEST_PROP(ConvertProps, FloatToFloatMatchesReference, ()) {
  const uint32_t f = *genF32();
  const uint64_t g = *genF64();
  const uint16_t h = *genH16();
  const char* modes[] = {"rn", "rz", "rm", "rp"};
  const float x = bf(f);
  const double y = bd(g);
  // widening: exact
  if (!std::isnan(x)) RC_ASSERT(db(double(x)) == cvt("cvt.f64.f32", f));
  if (!fp::isNaN16(h)) {
    RC_ASSERT(fb(float(f16Value(h))) == cvt("cvt.f32.f16", h));
    RC_ASSERT(db(f16Value(h)) == cvt("cvt.f64.f16", h));
  }
  if (!fp::isNaNBF16(h)) RC_ASSERT(db(bf16Value(h)) == cvt("cvt.f64.bf16", h));
  for (int m = 0; m < 4; ++m) {
    const Round r = kModes[m];
    const std::string head = std::string("cvt.") + modes[m];
    if (std::isnan(x)) {
      RC_ASSERT(fp::isNaN16(uint16_t(cvt(head + ".f16.f32", f))));
      continue;
    }
    if (std::isfinite(x)) {
      const uint16_t rn = toF16RN(x);
      RC_ASSERT(direct16(rn, f16Value(rn), x, r) == cvt(head + ".f16.f32", f));
      const uint16_t rb = toBF16RN(x);
      RC_ASSERT(direct16(rb, bf16Value(rb), x, r) == cvt(head + ".bf16.f32", f));
    }
    if (std::isfinite(y)) {
      const float rn = float(y);
      const float e = roundDirected(
          rn, r, [&](float z) { return std::isinf(z) ? (z < 0 ? -1 : 1) : sgn(double(z) - y); });
      RC_ASSERT(fb(y == 0 ? float(y) : e) == cvt(head + ".f32.f64", g));
      const uint16_t rh = toF16RN(y);
      RC_ASSERT((y == 0 ? uint16_t(db(y) >> 48) : direct16(rh, f16Value(rh), y, r)) ==
                cvt(head + ".f16.f64", g));
    }
  }
  // integral rounding in place
  if (!std::isnan(x)) {
    RC_ASSERT(fb(std::nearbyint(x)) == cvt("cvt.rni.f32.f32", f));
    RC_ASSERT(fb(std::trunc(x)) == cvt("cvt.rzi.f32.f32", f));
    RC_ASSERT(fb(std::floor(x)) == cvt("cvt.rmi.f32.f32", f));
    RC_ASSERT(fb(std::ceil(x)) == cvt("cvt.rpi.f32.f32", f));
  }
  if (!std::isnan(y)) RC_ASSERT(db(std::nearbyint(y)) == cvt("cvt.rni.f64.f64", g));
}

RC_GTEST_PROP(ConvertProps, PackingAndSaturationFollowTheScalarForms, ()) {
  const uint32_t a = *genF32(), b = *genF32();
  for (const char* m : {"rn", "rz"})
    for (const char* t : {"f16", "bf16"})
      for (const char* f : {"", ".relu", ".satfinite", ".relu.satfinite"}) {
        const std::string s = std::string("cvt.") + m + f + "." + t;
        RC_ASSERT(exec2(s + "x2.f32", a, b) == ((cvt(s + ".f32", a) << 16) | cvt(s + ".f32", b)));
        // .relu and .satfinite on top of the plain conversion
        uint16_t plain = uint16_t(cvt(std::string("cvt.") + m + "." + t + ".f32", a));
        const bool isBF = t[0] == 'b';
        const bool nan = isBF ? fp::isNaNBF16(plain) : fp::isNaN16(plain);
        const uint16_t inf = isBF ? 0x7F80 : 0x7C00;
        if (std::string(f).find("satfinite") != std::string::npos && !nan &&
            (plain & 0x7FFF) == inf)
          plain = uint16_t((plain & 0x8000) | (inf - 1));
        if (std::string(f).find("relu") != std::string::npos && !nan && (plain & 0x8000)) plain = 0;
        RC_ASSERT(plain == cvt(s + ".f32", a));
      }
}

}  // namespace
}  // namespace warpsim::test
