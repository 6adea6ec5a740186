// Unit tests of the host helpers the cards share: the seeded generator, the half/bfloat16
// rounding, the warp-tree models and the expf model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "kernels/emulate.h"
#include "kernels/lowp.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

TEST(Rng, IsDeterministicInTheSeed) {
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.bits64();
    EXPECT_EQ(x, b.bits64());
    differs = differs || x != c.bits64();
  }
  EXPECT_TRUE(differs);
}

// std::mt19937_64 is specified exactly: its 10000th output from the default seed is fixed by
// the standard, so our mappings sit on a portable stream.
TEST(Rng, EngineIsTheStandardOne) {
  std::mt19937_64 e;
  e.discard(9999);
  EXPECT_EQ(e(), 9981545732273789042ull);
}

TEST(Rng, IntegersStayInTheirInclusiveRange) {
  Rng r(1);
  bool sawLo = false, sawHi = false;
  for (int i = 0; i < 10000; ++i) {
    const uint32_t v = r.u32(3, 9);
    EXPECT_GE(v, 3u);
    EXPECT_LE(v, 9u);
    sawLo = sawLo || v == 3;
    sawHi = sawHi || v == 9;
    const int32_t s = r.s32(-5, 5);
    EXPECT_GE(s, -5);
    EXPECT_LE(s, 5);
  }
  EXPECT_TRUE(sawLo && sawHi);
  EXPECT_LE(r.u32(0, ~0u), ~0u);  // the full range does not overflow the span
}

TEST(Rng, FloatsStayInTheirRange) {
  Rng r(2);
  for (int i = 0; i < 10000; ++i) {
    const float f = r.f32(-2.0f, 3.0f);
    EXPECT_GE(f, -2.0f);
    EXPECT_LE(f, 3.0f);
    const double m = std::fabs(r.signedMagnitude(0.25, 4.0));
    EXPECT_GE(m, 0.25);
    EXPECT_LE(m, 4.0);
  }
}

TEST(Lowp, HalfRoundsToNearestEven) {
  EXPECT_EQ(toHalf(1.0), 0x3c00);
  EXPECT_EQ(toHalf(-2.0), 0xc000);
  EXPECT_EQ(toHalf(65504.0), 0x7bff);
  EXPECT_EQ(toHalf(65519.99), 0x7bff);
  EXPECT_EQ(toHalf(65520.0), 0x7c00);        // the tie above the largest half rounds to infinity
  EXPECT_EQ(toHalf(1.0 + 0x1p-11), 0x3c00);  // tie, to even
  EXPECT_EQ(toHalf(1.0 + 3 * 0x1p-11), 0x3c02);  // tie, to even (upwards)
  EXPECT_EQ(toHalf(0x1p-24), 0x0001);            // the smallest subnormal
  EXPECT_EQ(toHalf(0x1p-25), 0x0000);            // tie between 0 and 2^-24, to even
  EXPECT_EQ(toHalf(3 * 0x1p-25), 0x0002);
  EXPECT_EQ(toHalf(0x1p-14 - 0x1p-26), 0x0400);  // rounds up into the normals
  EXPECT_EQ(toHalf(-0.0), 0x8000);
  EXPECT_EQ(toHalf(std::nan("")), 0x7e00);
}

TEST(Lowp, Bf16RoundsToNearestEven) {
  EXPECT_EQ(toBf16(1.0), 0x3f80);
  EXPECT_EQ(toBf16(1.0 + 0x1p-8), 0x3f80);
  EXPECT_EQ(toBf16(1.0 + 3 * 0x1p-8), 0x3f82);
  EXPECT_EQ(toBf16(-3.0), 0xc040);
  EXPECT_EQ(toBf16(0x1p-133), 0x0001);  // the smallest bf16 subnormal
  EXPECT_EQ(toBf16(1e39), 0x7f80);
}

TEST(Lowp, DecodingInvertsEncoding) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const bool nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    if (!nan) {
      EXPECT_EQ(toHalf(halfToDouble(uint16_t(h))), h) << std::hex << h;
    }
    const bool bnan = (h & 0x7f80) == 0x7f80 && (h & 0x7f);
    if (!bnan) {
      EXPECT_EQ(toBf16(bf16ToDouble(uint16_t(h))), h) << std::hex << h;
    }
  }
}

TEST(WarpTrees, ShflDownLeavesTheSumInLaneZero) {
  std::array<uint32_t, kWarp> v;
  for (uint32_t l = 0; l < kWarp; ++l) v[l] = l + 1;
  const auto r = shflDownTree(v, [](uint32_t a, uint32_t b) { return a + b; });
  EXPECT_EQ(r[0], 528u);
  EXPECT_EQ(r[31], 32u << 5);  // lane 31 only ever meets itself: doubled five times
}

TEST(WarpTrees, ShflXorGivesEveryLaneTheSameSum) {
  std::array<float, kWarp> v;
  for (uint32_t l = 0; l < kWarp; ++l) v[l] = 1.0f / float(l + 1);
  const auto r = shflXorTree(v, [](float a, float b) { return a + b; });
  for (uint32_t l = 1; l < kWarp; ++l) EXPECT_EQ(r[l], r[0]);
}

// The expf model follows nvcc's expansion; with an exact ex2 it is within an ulp or two of
// the correctly rounded exp over the range the cards use.
TEST(CudaExpf, TracksExp) {
  for (float x = -20.0f; x <= 10.0f; x += 0.0137f) {
    const float want = float(std::exp(double(x)));
    EXPECT_LE(std::fabs(cudaExpf(x) - want), 2 * std::fabs(std::nextafter(want, INFINITY) - want))
        << x;
  }
  EXPECT_EQ(cudaExpf(0.0f), 1.0f);
}

}  // namespace
}  // namespace warpsim::kernels
