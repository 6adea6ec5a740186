// Texture and surface objects: the sampling arithmetic (addressing modes, the 9-bit linear
// filter weights) on its own, and tex / tld4 / txq / suld / sust / suq in kernels reading
// descriptors made as `warpsim run --arg NAME=tex2d[...]` makes them, against values worked
// out by hand from the CUDA programming guide's formulas.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "isa/fp.h"
#include "isa/insns/texture_sample.h"
#include "tests/sim/texture_objects.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using isa::tex::Address;
using isa::tex::Channel;
using isa::tex::Filter;
using isa::tex::Object;
using test::makeObject;
using test::object2d;
using test::PtxRunner;

TEST(TextureSample, FilterWeightsHaveEightFractionalBits) {
  EXPECT_EQ(isa::tex::quantizeWeight(0.5), 0.5);
  EXPECT_EQ(isa::tex::quantizeWeight(0.1), 26.0 / 256);  // 25.6 rounds to 26
  EXPECT_EQ(isa::tex::quantizeWeight(0.001), 0.0);
  EXPECT_EQ(isa::tex::quantizeWeight(0.999), 1.0);  // 9 bits: 1.0 itself is a weight
  // A tie rounds up, as on the H200 (recorded case 17, x = 0.931640625: 110.5 -> 111).
  EXPECT_EQ(isa::tex::quantizeWeight(110.5 / 256), 111.0 / 256);
}

// A 1-d linear fetch on the H200 is a 2-d one of height 1 at y = 0, and the product of two
// weights is rounded to 8 fractional bits with each row keeping its sum (recorded case 58:
// width 9, border addressing, x = 8.9023857: alpha = 103/256, the border row weighs 1/2).
TEST(TextureSample, OneDimensionalLinearFetchAsTheH200) {
  Object o;
  o.dims = 1;
  o.width = 9;
  o.filter = Filter::Linear;
  o.address[0] = o.address[1] = o.address[2] = Address::Border;
  isa::tex::packDense(o);
  const float x = 8.902385711669922f;
  const auto f = isa::tex::footprint(o, &x, nullptr, false, 0);
  ASSERT_EQ(f.n, 4u);
  // Row -1 (the border) first, then row 0; texel 8, then 9 (outside: the border).
  EXPECT_EQ(f.taps[0].offset, isa::tex::kBorder);
  EXPECT_EQ(f.taps[1].offset, isa::tex::kBorder);
  EXPECT_EQ(f.taps[2].offset, 8 * 4);
  EXPECT_EQ(f.taps[3].offset, isa::tex::kBorder);
  EXPECT_EQ(f.taps[0].weight, 77.0 / 256);
  EXPECT_EQ(f.taps[1].weight, 51.0 / 256);
  EXPECT_EQ(f.taps[2].weight, 76.0 / 256);  // 128 - round(103 * 128 / 256 = 51.5)
  EXPECT_EQ(f.taps[3].weight, 52.0 / 256);
}

// The H200 truncates a normalized coordinate to 20 fractional bits before scaling it by the
// size: x * 12 lands 0.00006/256 above the tie 1870.5/256 + 0.5, yet the weight rounds down as if
// below it (recorded case 31, u16, clamp); an exact tie still rounds up (case 143, width 2).
TEST(TextureSample, NormalizedCoordinateHasTwentyFractionalBits) {
  using isa::tex::axisTaps;
  const float above = 0x1.4d1556p-1f;  // 0.65055341: x * 12 * 256 - 128 = 1870.50006
  EXPECT_EQ(axisTaps(above, 12, Address::Clamp, true, Filter::Linear).weight[1], 78.0 / 256);
  EXPECT_EQ(axisTaps(above, 12, Address::Clamp, true, Filter::Linear).index[0], 7);
  const float tie = 0x1.5fp-2f;  // 0.34277344: x * 2 * 256 - 128 = 47.5 exactly
  EXPECT_EQ(axisTaps(tie, 2, Address::Border, true, Filter::Linear).weight[1], 48.0 / 256);
  // Unnormalized coordinates keep every bit: 0.01/256 above a tie rounds up.
  EXPECT_EQ(axisTaps(7.5f + 78.51f / 256, 12, Address::Clamp, false, Filter::Linear).weight[1],
            79.0 / 256);
}

// The linear filter of a 1-d texture of `channel` over two texels: wa/256 of the texel at a and
// wb/256 of the one at b.
float filterTwo(Channel channel, bool readNormalized, double wa, const uint8_t* a, double wb,
                const uint8_t* b) {
  Object o;
  o.dims = 1;
  o.width = 2;
  o.channel = channel;
  o.readNormalized = readNormalized;
  o.filter = Filter::Linear;
  isa::tex::packDense(o);
  isa::tex::Footprint f;
  f.n = 2;
  f.taps[0] = {0, wa / 256};
  f.taps[1] = {int64_t(isa::tex::texelBytes(o)), wb / 256};
  const uint8_t* texels[2] = {a, b};
  return isa::tex::filteredChannel(o, f, texels, 0);
}

// The same over two f32 texels a and b.
float sum(double wa, float a, double wb, float b) {
  uint8_t ta[4], tb[4];
  std::memcpy(ta, &a, 4);
  std::memcpy(tb, &b, 4);
  return filterTwo(Channel::F32, false, wa, ta, wb, tb);
}

// The float filter's sum is exact and rounded once with ties away from zero (not to even):
// recorded cases 17 (254/256 of 51.793701171875 and 2/256 of 645.6787109375 is 56.43342781...,
// half-way between two floats) and 336 (a negative tie).
TEST(TextureSample, FloatFilterSumRoundsTiesAwayFromZero) {
  EXPECT_EQ(sum(254, 51.793701171875f, 2, 645.6787109375f), 0x1.c377aap+5f);  // RN: ...a8
  EXPECT_EQ(sum(228, -1018.51953125f, 28, -3675.640625f), -0x1.47491ap+10f);
  EXPECT_EQ(sum(128, 1.0f, 128, 2.0f), 1.5f);            // exact sums stay exact
  EXPECT_EQ(sum(0, 1.0f, 256, -0x1p-149f), -0x1p-149f);  // the smallest subnormal
  EXPECT_TRUE(std::isnan(sum(128, INFINITY, 128, -INFINITY)));
  EXPECT_EQ(sum(128, 3e38f, 128, 1e-38f), 1.5e38f);  // 250 bits apart: the block cuts 1e-38
}

// The texels enter the filter cut toward zero to a block of 28 bits below the leading bit of
// the largest weighted texel (fitted to 1,541,497 chip lanes of resize_bilinear, every one of
// which it gives): a lane of that recording, 9/256 of 0x1.c2b6eap-1 and 247/256 of
// 0x1.c4cefep-12 is 0x1.00f0ab0e24p-5 exactly, which rounds to ...ac; the chip gives ...aa,
// since the small texel keeps only its bits down to 2^-28.
TEST(TextureSample, FloatFilterCutsTexelsToATwentyEightBitBlock) {
  EXPECT_EQ(sum(9, 0x1.c2b6eap-1f, 247, 0x1.c4cefep-12f), 0x1.00f0aap-5f);
  // Toward zero for a negative texel too: the same lane negated.
  EXPECT_EQ(sum(9, -0x1.c2b6eap-1f, 247, -0x1.c4cefep-12f), -0x1.00f0aap-5f);
  // A texel 4 binades below the largest keeps all its 24 bits (cutting its last bit too would
  // give ...88).
  EXPECT_EQ(sum(61, 0x1.42c6c6p-1f, 195, 0x1.bd6ac2p-5f), 0x1.88778ap-3f);
  // A weightless texel is not in the block: it cuts nothing.
  EXPECT_EQ(sum(256, 0x1.c4cefep-12f, 0, 1e30f), 0x1.c4cefep-12f);
}

// In 3-d each z slice is a block of its own (fitted to the second recording's 3-d f32 and f16
// lanes: 253 -> 9 of them differ): the lane above with its two texels in different slices
// keeps the small texel's bits, and the exact sum 0x1.00f0ab0e24p-5 rounds to ...ac; in one
// slice the block cuts them as in 2-d.
TEST(TextureSample, ThreeDimensionalFilterBlocksEachZSlice) {
  Object o;
  o.dims = 3;
  o.width = o.height = o.depth = 2;
  o.channel = Channel::F32;
  o.filter = Filter::Linear;
  isa::tex::packDense(o);
  const float large = 0x1.c2b6eap-1f, small = 0x1.c4cefep-12f;
  const auto filter = [&](unsigned smallTap, unsigned largeTap) {
    isa::tex::Footprint f;
    f.n = 8;
    uint8_t bytes[8][4] = {};
    const uint8_t* texels[8];
    for (unsigned t = 0; t < 8; ++t) {
      f.taps[t] = {int64_t(4 * t), t == smallTap ? 247 / 256.0 : t == largeTap ? 9 / 256.0 : 0};
      std::memcpy(bytes[t], t == smallTap ? &small : &large, 4);
      texels[t] = bytes[t];
    }
    return isa::tex::filteredChannel(o, f, texels, 0);
  };
  EXPECT_EQ(filter(0, 4), 0x1.00f0acp-5f);  // slices z0 and z1: two blocks
  EXPECT_EQ(filter(0, 3), 0x1.00f0aap-5f);  // one slice: one block
}

// f16 texels: a block of 15 bits (the f16 result's 11 and 4 more; fitted to the first texture
// recording's f16 lanes: 353 -> 363 of its 400 cases agree). 4/256 of 0.71630859375 (0x39bb)
// and 252/256 of 0.0283660888671875 (0x2743, 5 binades below: its last bit is cut) give
// 0x2901; the exact sum rounds to 0x2902.
TEST(TextureSample, HalfFilterCutsTexelsToAFifteenBitBlock) {
  const uint8_t a[2] = {0xbb, 0x39}, b[2] = {0x43, 0x27};
  EXPECT_EQ(filterTwo(Channel::F16, false, 4, a, 252, b), 0.039093017578125f);  // 0x2901
}

// Up to four f32 texels, their exponents 0 to 30 apart: each cut toward zero to the 28-bit block
// below the largest weighted one, the weighted sum exact, rounded once with ties away from zero;
// checked against long double arithmetic (exact here: the cut terms span at most 45 bits), sums
// that cancel, ties and mixed signs included.
RC_GTEST_PROP(TextureSample, FloatFilterSumIsTheBlockSumRoundedOnce, ()) {
  Object o;
  o.dims = 2;
  o.width = o.height = 2;
  o.channel = Channel::F32;
  o.filter = Filter::Linear;
  isa::tex::packDense(o);
  const int spread = *rc::gen::inRange(0, 30);  // exponents from e0 to e0 + spread
  const int e0 = *rc::gen::inRange(-100, 90);
  const uint32_t w0 = *rc::gen::inRange(0u, 257u), w1 = *rc::gen::inRange(0u, 257u - w0),
                 w2 = *rc::gen::inRange(0u, 257u - w0 - w1), w3 = 256 - w0 - w1 - w2;
  const uint32_t w[4] = {w0, w1, w2, w3};
  isa::tex::Footprint f;
  f.n = 4;
  float v[4];
  uint8_t bytes[4][4];
  const uint8_t* texels[4];
  for (unsigned t = 0; t < 4; ++t) {
    const int e = e0 + *rc::gen::inRange(0, spread + 1);
    // Significands with few bits set below the top now and then, so that sums tie.
    const uint32_t sig = *rc::gen::oneOf(rc::gen::inRange(1u << 23, 1u << 24),
                                         rc::gen::element(1u << 23, 3u << 22, 5u << 21));
    v[t] = std::ldexp(float(sig), e - 23) * (*rc::gen::arbitrary<bool>() ? -1.0f : 1.0f);
    f.taps[t] = {int64_t(4 * t), w[t] / 256.0};
    std::memcpy(bytes[t], &v[t], 4);
    texels[t] = bytes[t];
  }
  int top = INT32_MIN;
  for (unsigned t = 0; t < 4; ++t)
    if (w[t] != 0) top = std::max(top, std::ilogb(v[t]) + 1);
  long double exact = 0;
  for (unsigned t = 0; t < 4; ++t)
    if (w[t] != 0) {
      const long double unit = std::ldexp(1.0L, top - 28);
      exact += (long double)w[t] * (std::trunc(v[t] / unit) * unit);
    }
  exact /= 256;
  // The nearest f32 (ties to even), then a tie moved away from zero.
  float want = float(exact);
  const long double err = exact - (long double)want;
  if (err != 0) {
    const float other = std::nextafter(want, err > 0 ? INFINITY : -INFINITY);
    if (std::fabs((long double)other - exact) == std::fabs(err) &&
        std::fabs(other) > std::fabs(want))
      want = other;
  }
  RC_PRE(std::fabs(want) >= 0x1p-126f || want == 0);  // the normal range (and zero)
  const float got = isa::tex::filteredChannel(o, f, texels, 0);
  RC_ASSERT(fp::bits(got) == fp::bits(want == 0 ? 0.0f : want));
}

// s8 texels enter the filter as v * 32767 / 127 floored to eighths of the 16-bit unit, not
// rounded to whole units (recorded case 104, lane 10: 25/256 of -29 and 231/256 of 25 is
// 5089.61 units, 5090 on the H200; whole units, -7482 and 6450, would give 5089.45).
TEST(TextureSample, SignedEightBitFiltersInEighths) {
  const uint8_t a = uint8_t(int8_t(-29)), b = 25;
  EXPECT_EQ(filterTwo(Channel::S8, true, 25, &a, 231, &b), float(5090.0 / 32767));
  // A whole texel: 109 * 32767 / 127 = 28122.99, floored to 28122.875, rounds to 28123.
  const uint8_t c = 109;
  EXPECT_EQ(filterTwo(Channel::S8, true, 25, &c, 231, &c), float(28123.0 / 32767));
}

// s8 texels widen by 258 + 1/128 (33025/128, a hair under 32767/127), floored to eighths, and
// -128 stays -128 in the sum (only the result is clamped to -1): the second recording, where
// -64 at full weight reads -16512 (32767/127 would give -16512.504, which rounds to -16513)
// and 71/256 of -128 with 185/256 of 107 reads 10791 (-127 for -128 would give 10862).
TEST(TextureSample, SignedEightBitWidensByTwoHundredFiftyEightAndAnEighth) {
  const uint8_t m64 = uint8_t(int8_t(-64)), m128 = uint8_t(int8_t(-128)), p107 = 107;
  EXPECT_EQ(filterTwo(Channel::S8, true, 256, &m64, 0, &p107), float(-16512.0 / 32767));
  EXPECT_EQ(filterTwo(Channel::S8, true, 71, &m128, 185, &p107), float(10791.0 / 32767));
  EXPECT_EQ(filterTwo(Channel::S8, true, 256, &m128, 0, &p107), -1.0f);  // clamped at the end
}

// 3-d weights: z splits first, then each z slice splits its share as a 2-d footprint does
// (recorded case 6, lane 14: alphas 133, 168, 225; slice z0 weighs 31/256, its x1 column
// 31 * 133 / 256 = 16.1 -> 16, which splits in y as 5 and 11, 16 * 168 / 256 = 10.5 rounded up).
TEST(TextureSample, ThreeDimensionalWeightsAsTheH200) {
  Object o;
  o.dims = 3;
  o.width = o.height = o.depth = 4;
  o.filter = Filter::Linear;
  isa::tex::packDense(o);
  const float c[3] = {1.5f + 133.0f / 256, 1.5f + 168.0f / 256, 1.5f + 225.0f / 256};
  const auto f = isa::tex::footprint(o, c, nullptr, false, 0);
  ASSERT_EQ(f.n, 8u);
  const double want[8] = {5, 5, 10, 11, 37, 40, 71, 77};  // x fastest, then y, then z
  for (unsigned t = 0; t < 8; ++t) EXPECT_EQ(f.taps[t].weight * 256, want[t]) << "tap " << t;
}

TEST(TextureSample, AddressModesOnOneAxis) {
  using isa::tex::axisTaps;
  // Unnormalized point sampling: floor, then the mode.
  EXPECT_EQ(axisTaps(5.5f, 4, Address::Clamp, false, Filter::Point).index[0], 3);
  EXPECT_EQ(axisTaps(-0.5f, 4, Address::Clamp, false, Filter::Point).index[0], 0);
  EXPECT_EQ(axisTaps(4.0f, 4, Address::Border, false, Filter::Point).index[0], isa::tex::kBorder);
  // Wrap and mirror apply to normalized coordinates.
  EXPECT_EQ(axisTaps(1.3f, 4, Address::Wrap, true, Filter::Point).index[0], 1);    // 0.3*4
  EXPECT_EQ(axisTaps(-0.1f, 4, Address::Wrap, true, Filter::Point).index[0], 3);   // 0.9*4
  EXPECT_EQ(axisTaps(1.3f, 4, Address::Mirror, true, Filter::Point).index[0], 2);  // 0.7*4
  EXPECT_EQ(axisTaps(0.3f, 4, Address::Mirror, true, Filter::Point).index[0], 1);
  // Linear: x - 0.5 splits between two texels; each is addressed on its own.
  // Clamp holds the coordinate between the first and last texel centres: before the first
  // centre the first texel weighs 1 (not 1/4 and 3/4 of the same texel read twice, which rounds
  // differently once the weights are split over more axes: h100_3000.txt's 3-d lanes).
  auto t = axisTaps(0.25f, 4, Address::Clamp, false, Filter::Linear);
  ASSERT_EQ(t.n, 2u);
  EXPECT_EQ(t.index[0], 0);
  EXPECT_EQ(t.index[1], 1);
  EXPECT_EQ(t.weight[1], 0.0);
  t = axisTaps(3.75f, 4, Address::Clamp, false, Filter::Linear);  // past the last centre
  EXPECT_EQ(t.index[0], 3);
  EXPECT_EQ(t.weight[1], 0.0);
  t = axisTaps(0.96875f, 4, Address::Clamp, true, Filter::Linear);  // normalized: u = 3.875
  EXPECT_EQ(t.index[0], 3);
  EXPECT_EQ(t.weight[1], 0.0);
  t = axisTaps(3.75f, 4, Address::Wrap, false, Filter::Linear);  // unnormalized wrap: as clamp
  EXPECT_EQ(t.weight[1], 0.0);
  t = axisTaps(0.25f, 4, Address::Border, false, Filter::Linear);
  EXPECT_EQ(t.index[0], isa::tex::kBorder);
  EXPECT_EQ(t.index[1], 0);
  t = axisTaps(0.0f, 4, Address::Wrap, true, Filter::Linear);  // u = 0: texels 3 and 0
  EXPECT_EQ(t.index[0], 3);
  EXPECT_EQ(t.index[1], 0);
  EXPECT_EQ(t.weight[0], 0.5);
}

// Properties of the footprint over random sizes, modes and coordinates: the weights of a
// fetch sum to 1 and are multiples of 2^-8 per dimension (products of 8-bit fractions), every
// tap that is not the border lies inside the texture, and linear filtering at a texel's centre
// reads that texel alone (a weight of 1), whatever the address mode.
RC_GTEST_PROP(TextureSample, FootprintsAreWellFormed, ()) {
  Object o;
  o.dims = *rc::gen::inRange<uint8_t>(1, 4);
  o.width = *rc::gen::inRange<uint32_t>(1, 40);
  o.height = o.dims >= 2 ? *rc::gen::inRange<uint32_t>(1, 20) : 1;
  o.depth = o.dims == 3 ? *rc::gen::inRange<uint32_t>(1, 10) : 1;
  o.filter = *rc::gen::element(Filter::Point, Filter::Linear);
  o.normalizedCoords = *rc::gen::inRange<uint8_t>(0, 2);
  const Address a = o.normalizedCoords ? *rc::gen::element(Address::Wrap, Address::Clamp,
                                                           Address::Mirror, Address::Border)
                                       : *rc::gen::element(Address::Clamp, Address::Border);
  o.address[0] = o.address[1] = o.address[2] = a;
  isa::tex::packDense(o);
  const uint32_t sizes[3] = {o.width, o.height, o.depth};
  float c[3];
  uint32_t centre[3];
  for (unsigned d = 0; d < 3; ++d) {
    const double u = *rc::gen::inRange<int>(-3000, 3000) / 1000.0 * sizes[d];
    c[d] = float(o.normalizedCoords ? u / sizes[d] : u);
    centre[d] = *rc::gen::inRange<uint32_t>(0, sizes[d]);
  }
  const auto f = isa::tex::footprint(o, c, nullptr, false, 0);
  double total = 0;
  for (unsigned t = 0; t < f.n; ++t) {
    total += f.taps[t].weight;
    const double scaled = std::ldexp(f.taps[t].weight, 8 * o.dims);
    RC_ASSERT(scaled == std::floor(scaled));
    if (f.taps[t].offset != isa::tex::kBorder)
      RC_ASSERT(uint64_t(f.taps[t].offset) < isa::tex::dataBytes(o));
  }
  RC_ASSERT(total == 1.0);
  // A 1-d texture filters as a 2-d one of height 1 (as the H200 does).
  RC_ASSERT(f.n == (o.filter == Filter::Linear ? 1u << std::max(2u, unsigned(o.dims)) : 1u));
  // At a centre: one tap of weight 1 on that texel (a linear 1-d fetch under border addressing
  // gives half to the border row, as on the H200).
  const bool halfBorder =
      o.dims == 1 && o.filter == Filter::Linear && o.address[1] == Address::Border;
  float mid[3];
  for (unsigned d = 0; d < 3; ++d) {
    const double u = centre[d] + 0.5;
    mid[d] = float(o.normalizedCoords ? u / sizes[d] : u);
  }
  const auto g = isa::tex::footprint(o, mid, nullptr, false, 0);
  int64_t want = 0;
  for (unsigned d = 0; d < o.dims; ++d)
    want += int64_t(centre[d]) * int64_t(d == 0 ? 4 : d == 1 ? o.pitch : o.slicePitch);
  double atCentre = 0;
  for (unsigned t = 0; t < g.n; ++t)
    if (g.taps[t].offset == want) atCentre += g.taps[t].weight;
  RC_ASSERT(atCentre == (halfBorder ? 0.5 : 1.0));
}

// A coordinate for the plain bilinear properties: anywhere around the texture, on a tie of the
// weight's rounding (a fraction of k + 1/2 in 256ths past a texel centre), or not finite.
float bilinearCoordinate(uint32_t size) {
  const int kind = *rc::gen::inRange(0, 5);
  if (kind == 4) return fp::f32(*rc::gen::arbitrary<uint32_t>());  // any float, its every bit
  if (kind == 0) return float(*rc::gen::inRange<int>(-3000, 3000) / 1000.0 * size);
  if (kind == 1)
    return float(*rc::gen::inRange<int>(-1, int(size) + 1) + 0.5 +
                 (*rc::gen::inRange<int>(0, 256) + 0.5) / 256);
  if (kind == 2) return float(*rc::gen::inRange<int>(-1, int(size) + 1) + 0.5);
  return *rc::gen::element(NAN, INFINITY, -INFINITY, 3e38f, -3e38f);
}

// A texel value: ordinary, zero of either sign, subnormal, huge, infinite or NaN.
float bilinearTexel() {
  const int kind = *rc::gen::inRange(0, 3);
  if (kind == 0) return float(*rc::gen::inRange<int>(-100000, 100000)) / 1024;
  if (kind == 1) return fp::f32(*rc::gen::arbitrary<uint32_t>());
  return *rc::gen::element(0.0f, -0.0f, 1e-45f, -3e-39f, 3.4e38f, -3.4e38f, INFINITY, NAN);
}

// The plain bilinear fetch (texture.cpp's fast path) gives footprint's taps and weights and
// filteredChannel's sum, bit for bit, for every unnormalized non-border address mode.
RC_GTEST_PROP(TextureSample, PlainBilinearIsTheFootprintAndTheFilteredSum, ()) {
  Object o = object2d(*rc::gen::inRange<uint32_t>(1, 40), *rc::gen::inRange<uint32_t>(1, 20),
                      Channel::F32, *rc::gen::element<uint8_t>(1, 2, 4), Filter::Linear,
                      *rc::gen::element(Address::Wrap, Address::Clamp, Address::Mirror), false);
  isa::tex::packDense(o);
  o.pitch += 16 * *rc::gen::inRange<uint64_t>(0, 3);  // rows apart, as a pitched array's
  RC_ASSERT(isa::tex::isPlainBilinearF32(o));
  const float c[2] = {bilinearCoordinate(o.width), bilinearCoordinate(o.height)};
  const isa::tex::Footprint f = isa::tex::footprint(o, c, nullptr, false, 0);
  const isa::tex::Bilinear b = isa::tex::bilinearTaps(o, c[0], c[1]);
  RC_ASSERT(f.n == 4u);
  uint8_t bytes[4][16];
  const uint8_t* texels[4];
  for (unsigned t = 0; t < 4; ++t) {
    RC_ASSERT(f.taps[t].offset == int64_t(b.offset[t]));
    RC_ASSERT(f.taps[t].weight * 256 == double(b.weight[t]));
    for (unsigned ch = 0; ch < o.channels; ++ch) {
      const float v = bilinearTexel();
      std::memcpy(bytes[t] + 4 * ch, &v, 4);
    }
    texels[t] = bytes[t];
  }
  for (unsigned ch = 0; ch < o.channels; ++ch) {
    float v[4];
    for (unsigned t = 0; t < 4; ++t) std::memcpy(&v[t], bytes[t] + 4 * ch, 4);
    RC_ASSERT(fp::bits(isa::tex::bilinearF32(v, b.weight)) ==
              fp::bits(isa::tex::filteredChannel(o, f, texels, ch)));
  }
}

// The plain bilinear taps are footprint's at any size up to 2^30 (large texel indices, whose
// fractions keep few bits) and any coordinate near and inside the texture.
RC_GTEST_PROP(TextureSample, PlainBilinearTapsAreTheFootprintsAtAnySize, ()) {
  const uint32_t w = *rc::gen::inRange<uint32_t>(1, (1u << 30) + 1),
                 h = *rc::gen::inRange<uint32_t>(1, 3);
  Object o = object2d(w, h, Channel::F32, 1, Filter::Linear, Address::Clamp, false);
  isa::tex::packDense(o);
  RC_ASSERT(isa::tex::isPlainBilinearF32(o));
  const float near =
      float(*rc::gen::inRange<uint32_t>(0, w + 2)) + float(*rc::gen::inRange<int>(-256, 256)) / 128;
  const float c[2] = {*rc::gen::element(0, 1) ? near : bilinearCoordinate(w),
                      bilinearCoordinate(h)};
  const isa::tex::Footprint f = isa::tex::footprint(o, c, nullptr, false, 0);
  const isa::tex::Bilinear b = isa::tex::bilinearTaps(o, c[0], c[1]);
  RC_ASSERT(f.n == 4u);
  for (unsigned t = 0; t < 4; ++t) {
    RC_ASSERT(f.taps[t].offset == int64_t(b.offset[t]));
    RC_ASSERT(f.taps[t].weight * 256 == double(b.weight[t]));
  }
}

// bilinearF32's sum in integers is filteredChannel's in doubles, bit for bit, where the cases
// are dense: texels a few binades apart (so the block cuts bits off the smaller ones), of either
// sign (sums that cancel), subnormal, zero, huge (results that overflow), infinite or NaN, and
// weights anywhere in 0 .. 256 (ties at the 24th bit, terms without a weight).
RC_GTEST_PROP(TextureSample, BilinearF32SumsInIntegersAsTheFilterDoes, ()) {
  Object o = object2d(2, 2, Channel::F32, 1, Filter::Linear, Address::Clamp, false);
  isa::tex::packDense(o);
  const int base = *rc::gen::inRange(-160, 130);
  isa::tex::Footprint f;
  f.n = 4;
  uint32_t w[4];
  float v[4];
  uint8_t bytes[4][4];
  const uint8_t* texels[4];
  for (unsigned t = 0; t < 4; ++t) {
    w[t] = *rc::gen::weightedOneOf<uint32_t>(
        {{3, rc::gen::inRange<uint32_t>(0, 257)}, {1, rc::gen::element<uint32_t>(0, 1, 128, 256)}});
    const int kind = *rc::gen::inRange(0, 8);
    if (kind < 6) {  // a random significand near 2^base, either sign (subnormal or 0 below 2^-149)
      const double m = double(*rc::gen::inRange<uint32_t>(0, 1u << 24)) / (1u << 24);
      const int e = base - *rc::gen::inRange(0, 8);
      v[t] =
          float(std::ldexp(m, std::clamp(e, -160, 127)) * (*rc::gen::arbitrary<bool>() ? -1 : 1));
    } else if (kind == 6) {
      v[t] = fp::f32(*rc::gen::arbitrary<uint32_t>());
    } else {
      v[t] = *rc::gen::element(0.0f, -0.0f, 1e-45f, -1e-45f, 3.4e38f, -3.4e38f, INFINITY, NAN);
    }
    std::memcpy(bytes[t], &v[t], 4);
    texels[t] = bytes[t];
    f.taps[t].offset = 4 * t;
    f.taps[t].weight = w[t] / 256.0;
  }
  RC_ASSERT(fp::bits(isa::tex::bilinearF32(v, w)) ==
            fp::bits(isa::tex::filteredChannel(o, f, texels, 0)));
}

TEST(TextureSample, BilinearF32RoundsTiesAwayAndUnderflowsToPositiveZero) {
  // 1 + 2^-24 (half an ulp past 1) from weights 128 and 128 on 1 and 1 + 2^-23: a tie, away.
  const float one = 1.0f, next = std::nextafter(1.0f, 2.0f);
  const float v[4] = {one, next, 0, 0}, nv[4] = {-one, -next, 0, 0};
  const uint32_t w[4] = {128, 128, 0, 0};
  EXPECT_EQ(isa::tex::bilinearF32(v, w), next);
  EXPECT_EQ(isa::tex::bilinearF32(nv, w), -next);
  // The smallest subnormal at weight 1: 2^-157, below half of 2^-149, is +0 (not -0) either way.
  const float tiny[4] = {-1e-45f, 0, 0, 0};
  const uint32_t w1[4] = {1, 255, 0, 0};
  EXPECT_EQ(fp::bits(isa::tex::bilinearF32(tiny, w1)), 0u);
  // The mean of the largest floats is the largest float; an infinity with no weight is not read.
  const float huge[4] = {3.4e38f, 3.4e38f, INFINITY, 0};
  const uint32_t w2[4] = {128, 128, 0, 0};
  EXPECT_EQ(isa::tex::bilinearF32(huge, w2), 3.4e38f);
}

const std::string kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// Thread i samples (cx[i], cy[i]) and writes the 4 results to out[4i..4i+3].
const std::string kTex2d = kHeader + R"(
.visible .entry sample(.param .u64 t, .param .u64 cx, .param .u64 cy, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [cx];
  ld.param.u64 %rd3, [cy];
  ld.param.u64 %rd4, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  add.s64 %rd7, %rd3, %rd5;
  ld.global.f32 %f1, [%rd6];
  ld.global.f32 %f2, [%rd7];
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd4, %rd8;
  st.global.v4.f32 [%rd9], {%f3, %f4, %f5, %f6};
  ret;
}
)";

std::vector<float> sample2d(const std::vector<uint8_t>& object, const std::vector<float>& xs,
                            const std::vector<float>& ys) {
  PtxRunner r(kTex2d);
  const uint64_t t = r.buffer<uint8_t>(object.size(), object);
  const uint64_t cx = r.buffer<float>(xs.size(), xs), cy = r.buffer<float>(ys.size(), ys);
  const uint64_t out = r.buffer<float>(xs.size() * 4);
  auto res =
      r.launch("sample", {1, 1, 1}, {unsigned(xs.size()), 1, 1},
               {PtxRunner::ptr(t), PtxRunner::ptr(cx), PtxRunner::ptr(cy), PtxRunner::ptr(out)});
  EXPECT_FALSE(res.fault) << res.fault->describe("t.ptx");
  return r.read<float>(out, xs.size() * 4);
}

// A warp's tex.2d through the plain bilinear path (no observer) writes what the general path
// (the statistics observer attached) does, bit for bit: taps, weights, sums, every channel.
RC_GTEST_PROP(Texture, PlainBilinearFetchIsTheGeneralOne, ()) {
  Object o = object2d(*rc::gen::inRange<uint32_t>(1, 24), *rc::gen::inRange<uint32_t>(1, 12),
                      Channel::F32, *rc::gen::element<uint8_t>(1, 2, 4), Filter::Linear,
                      *rc::gen::element(Address::Wrap, Address::Clamp, Address::Mirror), false);
  std::vector<float> texels(size_t(o.width) * o.height * o.channels);
  for (float& v : texels) v = bilinearTexel();
  const std::vector<uint8_t> object = makeObject(o, texels);
  std::vector<float> xs(32), ys(32);
  for (unsigned l = 0; l < 32; ++l) {
    xs[l] = bilinearCoordinate(o.width);
    ys[l] = bilinearCoordinate(o.height);
  }
  std::vector<uint32_t> got[2];
  for (unsigned observed = 0; observed < 2; ++observed) {
    PtxRunner r(kTex2d);
    const uint64_t t = r.buffer<uint8_t>(object.size(), object);
    const uint64_t cx = r.buffer<float>(32, xs), cy = r.buffer<float>(32, ys);
    const uint64_t out = r.buffer<uint32_t>(32 * 4);
    sim::LaunchOptions lo;
    lo.statistics = observed != 0;
    const auto res = r.launch(
        "sample", {1, 1, 1}, {32, 1, 1},
        {PtxRunner::ptr(t), PtxRunner::ptr(cx), PtxRunner::ptr(cy), PtxRunner::ptr(out)}, lo);
    RC_ASSERT(!res.fault);
    got[observed] = r.read<uint32_t>(out, 32 * 4);
  }
  RC_ASSERT(got[0] == got[1]);
}

TEST(Texture, Tex2dPointAndLinear) {
  // 2 x 2 texels: row 0 = 1 2, row 1 = 3 4.
  const std::vector<float> texels = {1, 2, 3, 4};
  auto point =
      makeObject(object2d(2, 2, Channel::F32, 1, Filter::Point, Address::Clamp, false), texels);
  auto v = sample2d(point, {1.5f, 0.2f, 9.0f}, {0.5f, 1.9f, -3.0f});
  EXPECT_EQ(v[0], 2.0f);
  EXPECT_EQ(v[4], 3.0f);
  EXPECT_EQ(v[8], 2.0f);  // clamped to (1, 0)
  EXPECT_EQ(v[1], 0.0f);  // missing channels read 0, w too (as the H200 gives them)
  EXPECT_EQ(v[3], 0.0f);
  auto linear =
      makeObject(object2d(2, 2, Channel::F32, 1, Filter::Linear, Address::Clamp, false), texels);
  v = sample2d(linear, {1.0f, 0.75f, 0.6f}, {1.0f, 1.0f, 1.0f});
  EXPECT_EQ(v[0], 2.5f);
  EXPECT_EQ(v[4], 2.25f);
  // x - 0.5 = 0.1: alpha = 26/256, not 0.1.
  EXPECT_EQ(v[8], float(2.0 + 26.0 / 256));
}

TEST(Texture, NormalizedCoordinatesWrapAndBorder) {
  const std::vector<float> texels = {10, 20, 30, 40};  // 4 x 1
  Object o = object2d(4, 1, Channel::F32, 1, Filter::Point, Address::Wrap, true);
  auto v = sample2d(makeObject(o, texels), {1.3f, -0.1f}, {0.5f, 0.5f});
  EXPECT_EQ(v[0], 20.0f);
  EXPECT_EQ(v[4], 40.0f);
  o.address[0] = o.address[1] = Address::Border;
  o.filter = Filter::Linear;
  // u = 0.5 * 4 = 2 - 0.5: texels 1 and 2 half each; u = 0: the border (0) and texel 0.
  v = sample2d(makeObject(o, texels), {0.5f, 0.0f}, {0.5f, 0.5f});
  EXPECT_EQ(v[0], 25.0f);
  // y = 0.5 of a height of 1: row 0 alone weighs 1.
  EXPECT_EQ(v[4], 5.0f);
}

TEST(Texture, Unorm8FourChannels) {
  Object o = object2d(1, 1, Channel::U8, 4, Filter::Point, Address::Clamp, false);
  o.readNormalized = 1;
  const std::vector<uint8_t> texel = {255, 0, 128, 51};
  auto v = sample2d(makeObject(o, texel), {0.5f}, {0.5f});
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_EQ(v[2], 128.0f / 255.0f);
  EXPECT_EQ(v[3], 0.2f);
}

const std::string kQueryAndSurface = kHeader + R"(
.visible .entry surf(.param .u64 t, .param .u64 s, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [s];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  txq.width.b32 %r2, [%rd1];
  txq.height.b32 %r3, [%rd1];
  suq.width.b32 %r4, [%rd2];
  shl.b32 %r5, %r1, 2;
  mov.u32 %r6, 1;
  suld.b.2d.b32.trap {%r7}, [%rd2, {%r5, %r6}];
  add.u32 %r7, %r7, 100;
  mov.u32 %r8, 0;
  sust.b.2d.b32.trap [%rd2, {%r5, %r8}], {%r7};
  mov.u32 %r9, 4096;
  suld.b.2d.b32.zero {%r10}, [%rd2, {%r9, %r6}];
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd3, %rd4;
  st.global.v4.u32 [%rd5], {%r2, %r3, %r4, %r10};
  ret;
}
)";

TEST(Texture, QueriesAndSurfaceLoadsStores) {
  PtxRunner r(kQueryAndSurface);
  const auto tex = makeObject(object2d(7, 5, Channel::F32, 1, Filter::Point, Address::Clamp, false),
                              std::vector<float>(35, 0.0f));
  Object so = object2d(4, 2, Channel::U32, 1, Filter::Point, Address::Clamp, false);
  so.kind = isa::tex::Kind::Surface;
  const auto surf = makeObject(so, std::vector<uint32_t>{0, 0, 0, 0, 1, 2, 3, 4});
  const uint64_t t = r.buffer<uint8_t>(tex.size(), tex), s = r.buffer<uint8_t>(surf.size(), surf);
  const uint64_t out = r.buffer<uint32_t>(16);
  auto res = r.launch("surf", {1, 1, 1}, {4, 1, 1},
                      {PtxRunner::ptr(t), PtxRunner::ptr(s), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("s.ptx");
  const auto o = r.read<uint32_t>(out, 16);
  EXPECT_EQ(o[0], 7u);
  EXPECT_EQ(o[1], 5u);
  EXPECT_EQ(o[2], 4u);
  EXPECT_EQ(o[3], 0u);  // .zero outside
  const auto row0 = r.read<uint32_t>(s + isa::tex::kDescriptorBytes, 4);
  EXPECT_EQ(row0, (std::vector<uint32_t>{101, 102, 103, 104}));
}

// An out-of-range .trap access (suld, sust.p, sured.p) is an illegal address on the chip
// ("an illegal memory access was encountered", texture_forms.chip.txt.xz sections trap-*): a
// fault of that kind at the lane and line, not a trap.
TEST(Texture, SurfaceTrapOutsideIsAnIllegalAddressAndBadHandleTraps) {
  struct Form {
    const char* ptx;
    unsigned firstOutside;  // the lane, whose x is its thread index
    const char* message;
  } const forms[] = {
      {"suld.b.2d.b32.trap {%r3}, [%rd1, {%r1, %r2}];", 13, "suld outside the surface (x 13 bytes"},
      {"sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r2};", 4, "sust outside the surface (x 4 samples"},
      {"sured.p.add.2d.b32.trap [%rd1, {%r1, %r2}], %r2;", 4, "sured outside the surface (x 4"}};
  for (const auto& [form, firstOutside, message] : forms) {
    const std::string ptx = kHeader + R"(
.visible .entry bad(.param .u64 s)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  )" + form + R"(
  ret;
}
)";
    PtxRunner r(ptx);
    Object so = object2d(4, 1, Channel::U32, 1, Filter::Point, Address::Clamp, false);
    so.kind = isa::tex::Kind::Surface;
    const auto surf = makeObject(so, std::vector<uint32_t>(4, 0));
    const uint64_t s = r.buffer<uint8_t>(surf.size(), surf);
    // 4 samples of 4 bytes: x counts bytes for suld (lane 13's 4 bytes run past the 16), samples
    // for sust.p and words of the operand for sured.p (lane 4 is past the 4).
    auto res = r.launch("bad", {1, 1, 1}, {17, 1, 1}, {PtxRunner::ptr(s)});
    ASSERT_TRUE(res.fault) << form;
    EXPECT_EQ(res.fault->kind, sim::FaultKind::OutOfBounds) << form;
    EXPECT_EQ(res.fault->ptxLine, 12u) << form;
    EXPECT_EQ(res.fault->thread.x, firstOutside) << form;
    EXPECT_NE(res.fault->message.find(message), std::string::npos) << res.fault->message;
  }
  PtxRunner r(kHeader + R"(
.visible .entry bad(.param .u64 s)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  mov.u32 %r1, 16;
  mov.u32 %r2, 0;
  suld.b.2d.b32.trap {%r3}, [%rd1, {%r1, %r2}];
  ret;
}
)");
  // A buffer that is not an object: the magic is wrong.
  const uint64_t junk = r.buffer<uint8_t>(256, std::vector<uint8_t>(256, 7));
  auto res = r.launch("bad", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(junk)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Trap);
  EXPECT_NE(res.fault->message.find("bad magic"), std::string::npos) << res.fault->message;
}

TEST(Texture, SurfaceReductionsAreAtomic) {
  // 32 lanes add 1 to texel (1, 0) and fold their lane number into texel (0, 0) with max.s32
  // of (lane - 16).
  const std::string ptx = kHeader + R"(
.visible .entry red(.param .u64 s)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  mov.u32 %r1, 4;
  mov.u32 %r2, 0;
  mov.u32 %r3, 1;
  sured.b.add.2d.u32.trap [%rd1, {%r1, %r2}], %r3;
  mov.u32 %r4, %tid.x;
  sub.s32 %r5, %r4, 16;
  sured.b.max.2d.s32.trap [%rd1, {%r2, %r2}], %r5;
  ret;
}
)";
  PtxRunner r(ptx);
  Object so = object2d(2, 1, Channel::S32, 1, Filter::Point, Address::Clamp, false);
  so.kind = isa::tex::Kind::Surface;
  const auto surf = makeObject(so, std::vector<int32_t>{-100, 10});
  const uint64_t s = r.buffer<uint8_t>(surf.size(), surf);
  auto res = r.launch("red", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(s)});
  ASSERT_FALSE(res.fault) << res.fault->describe("r.ptx");
  EXPECT_EQ(r.read<int32_t>(s + isa::tex::kDescriptorBytes, 2), (std::vector<int32_t>{15, 42}));
}

// A seamless cube map filters across a face's edge (cudaTextureDesc::seamlessCubemap; the chip's
// Cs cube lines agree at every edge, mipmap_probe.h200.txt): on face -z at its left edge (s = 0,
// half of the weight on the texel left of column 0) that texel is column 7 of face +x, the face
// the edge borders, in the same row.
TEST(TextureSample, SeamlessCubeMapsReadTheNeighbouringFaceAcrossAnEdge) {
  Object o;
  o.dims = 2;
  o.layered = 1;
  o.cube = 1;
  o.seamlessCubemap = 1;
  o.width = o.height = 8;
  o.layers = 6;
  o.channel = Channel::F32;
  o.filter = Filter::Linear;
  o.normalizedCoords = 1;
  isa::tex::packDense(o);
  isa::tex::Footprint f;
  isa::tex::seamlessCubeFootprint(o, 0.0f, 15.0f / 16, 0, 5, f);
  ASSERT_EQ(f.n, 4u);
  EXPECT_EQ(f.taps[0].offset, int64_t(0 * o.slicePitch + 7 * o.pitch + 7 * 4));  // +x (7, 7)
  EXPECT_EQ(f.taps[0].weight, 0.5);
  EXPECT_EQ(f.taps[1].offset, int64_t(5 * o.slicePitch + 7 * o.pitch + 0 * 4));  // -z (0, 7)
  EXPECT_EQ(f.taps[1].weight, 0.5);
  EXPECT_EQ(f.taps[2].weight + f.taps[3].weight, 0.0);  // the next row weighs nothing
}

// At a cube's corner the tap past both edges has no texel: the H200 gives its weight to the other
// three taps, a third each rounded to nearest to the two across the edges and the rest to the
// face's own corner texel (mipmap_probe.h200.txt: every Cs line agrees so, 96 did not before).
TEST(TextureSample, SeamlessCubeCornerSplitsTheMissingTapsWeight) {
  Object o;
  o.dims = 2;
  o.layered = 1;
  o.cube = 1;
  o.seamlessCubemap = 1;
  o.width = o.height = 8;
  o.layers = 6;
  o.channel = Channel::F32;
  o.filter = Filter::Linear;
  o.normalizedCoords = 1;
  isa::tex::packDense(o);
  isa::tex::Footprint f;
  // Face -z at (s, t) = (0, 1), the corner (1, -1, -1): four taps of 64/256 each, tap 2 (i -1,
  // j 8) past both edges.
  isa::tex::seamlessCubeFootprint(o, 0.0f, 1.0f, 0, 5, f);
  ASSERT_EQ(f.n, 4u);
  EXPECT_EQ(f.taps[0].weight, 85.0 / 256);  // across the left edge: +x
  EXPECT_EQ(f.taps[1].weight, 86.0 / 256);  // the face's own corner texel
  EXPECT_EQ(f.taps[2].weight, 0.0);         // the corner: no texel
  EXPECT_EQ(f.taps[3].weight, 85.0 / 256);  // across the bottom edge: -y
  EXPECT_EQ(f.taps[1].offset, int64_t(5 * o.slicePitch + 7 * o.pitch + 0 * 4));
}

TEST(TextureSample, CubeFaces) {
  using isa::tex::cubeCoords;
  EXPECT_EQ(cubeCoords(1, 0, 0).face, 0u);
  EXPECT_EQ(cubeCoords(-2, 1, 0).face, 1u);
  EXPECT_EQ(cubeCoords(0.5f, 1, 0).face, 2u);
  EXPECT_EQ(cubeCoords(0, -1, 0.5f).face, 3u);
  EXPECT_EQ(cubeCoords(0, 0, 3).face, 4u);
  EXPECT_EQ(cubeCoords(0, 0, -3).face, 5u);
  // Ties of the major axis go to z, then y (the H200, mipmap_probe.h200.txt: Cp cube at
  // (1, -1, -1) returns face 5's texel, at (1, -1, -0.97) face 3's).
  EXPECT_EQ(cubeCoords(1, -1, -1).face, 5u);
  EXPECT_EQ(cubeCoords(1, -1, -0.97f).face, 3u);
  EXPECT_EQ(cubeCoords(-1, 0.5f, 1).face, 4u);
  EXPECT_EQ(cubeCoords(1, 1, 0).face, 2u);
  // No direction, zero or NaN: the centre of face +z (Cp cube at 0 and NaN on the H200).
  for (const float v : {0.0f, std::nanf("")}) {
    const auto none = cubeCoords(v, v, v);
    EXPECT_EQ(none.face, 4u);
    EXPECT_EQ(none.s, 0.5f);
    EXPECT_EQ(none.t, 0.5f);
  }
  // +x: s = -z, t = -y, mapped from [-1, 1] to [0, 1].
  const auto c = cubeCoords(2, -1, 1);
  EXPECT_EQ(c.s, 0.25f);
  EXPECT_EQ(c.t, 0.75f);
}

TEST(Texture, TexCubeReadsTheFaceTheDirectionHits) {
  const std::string ptx = kHeader + R"(
.visible .entry cube(.param .u64 t, .param .u64 dirs, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<9>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [dirs];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 12;
  add.s64 %rd5, %rd2, %rd4;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd5+4];
  ld.global.f32 %f3, [%rd5+8];
  tex.cube.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2, %f3, %f8}];
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd3, %rd6;
  st.global.f32 [%rd7], %f4;
  ret;
}
)";
  PtxRunner r(ptx);
  Object o = object2d(1, 1, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.layered = 1;
  o.cube = 1;
  o.layers = 6;
  const auto cube = makeObject(o, std::vector<float>{10, 11, 12, 13, 14, 15});
  const std::vector<float> dirs = {1, 0, 0, -1, 0.2f, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0.1f, 0, -1};
  const uint64_t t = r.buffer<uint8_t>(cube.size(), cube), d = r.buffer<float>(18, dirs);
  const uint64_t out = r.buffer<float>(6);
  auto res = r.launch("cube", {1, 1, 1}, {6, 1, 1},
                      {PtxRunner::ptr(t), PtxRunner::ptr(d), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("c.ptx");
  EXPECT_EQ(r.read<float>(out, 6), (std::vector<float>{10, 11, 12, 13, 14, 15}));
}

// tex.acube past the last cube: the H200 reads the last cube's face (a negative index, unsigned,
// too), not the last layer of the array (mipmap_probe.h200.txt: CAl cubelayer at layers -1, 2).
TEST(Texture, TexAcubeIndexPastTheLastCubeReadsTheLastCube) {
  const std::string ptx = kHeader + R"(
.visible .entry acube(.param .u64 t, .param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  sub.s32 %r2, %r1, 1;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f00000000;
  mov.f32 %f3, 0f00000000;
  tex.acube.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%r2, %f1, %f2, %f3}];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f4;
  ret;
}
)";
  PtxRunner r(ptx);
  Object o = object2d(1, 1, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.layered = 1;
  o.cube = 1;
  o.layers = 12;
  std::vector<float> layers(12);
  for (unsigned i = 0; i < 12; ++i) layers[i] = float(i);
  const auto cubes = makeObject(o, layers);
  const uint64_t t = r.buffer<uint8_t>(cubes.size(), cubes), out = r.buffer<float>(4);
  // Lanes 0..3 read cubes -1, 0, 1, 2 along +x (face 0).
  auto res = r.launch("acube", {1, 1, 1}, {4, 1, 1}, {PtxRunner::ptr(t), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("a.ptx");
  EXPECT_EQ(r.read<float>(out, 4), (std::vector<float>{6, 0, 6, 6}));
}

const std::string kGather = kHeader + R"(
.visible .entry gather(.param .u64 t, .param .u64 out)
{
  .reg .f32 %f<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [out];
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f3F800000;
  tld4.g.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
  st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};
  ret;
}
)";

TEST(Texture, Tld4GathersOneChannelInGatherOrder) {
  PtxRunner r(kGather);
  // 2 x 2 texels of two channels: channel g = 10 * (row * 2 + col + 1).
  const std::vector<float> texels = {0, 10, 0, 20, 0, 30, 0, 40};
  const auto tex =
      makeObject(object2d(2, 2, Channel::F32, 2, Filter::Point, Address::Clamp, false), texels);
  const uint64_t t = r.buffer<uint8_t>(tex.size(), tex), out = r.buffer<float>(4);
  auto res = r.launch("gather", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(t), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("g.ptx");
  // (i0, j1), (i1, j1), (i1, j0), (i0, j0)
  EXPECT_EQ(r.read<float>(out, 4), (std::vector<float>{30, 40, 20, 10}));
}

}  // namespace
}  // namespace warpsim
