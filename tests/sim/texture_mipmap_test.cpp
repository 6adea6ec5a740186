// Mipmapped textures (isa/insns/texture_mipmap.h): where each level lies and what size it is,
// which levels a level of detail selects (nearest and linear mipmap filtering, bias, the
// min/max clamps and the last level), the level of detail of tex.grad, and tex.level,
// tex.grad, tex and txq.num_mipmap_levels in a kernel on a texture whose levels hold constants.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "isa/insns/texture_mipmap.h"
#include "isa/insns/texture_sample.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using isa::tex::Channel;
using isa::tex::Filter;
using isa::tex::Object;
using test::PtxRunner;

Object mipmapped(uint32_t w, uint32_t h, uint8_t levels, Filter mip) {
  Object o;
  o.dims = 2;
  o.width = w;
  o.height = h;
  o.channel = Channel::F32;
  o.channels = 1;
  o.levels = levels;
  o.mipFilter = mip;
  o.maxLod = float(levels - 1);
  o.normalizedCoords = 1;
  isa::tex::packDense(o);
  return o;
}

TEST(TextureMipmap, LevelsHalveEachAxisDownToOneAndFollowOneAnother) {
  const Object o = mipmapped(5, 3, 3, Filter::Point);
  EXPECT_EQ(isa::tex::levelOffset(o, 0), 0u);
  EXPECT_EQ(isa::tex::levelOffset(o, 1), 5u * 3 * 4);
  EXPECT_EQ(isa::tex::levelOffset(o, 2), 5u * 3 * 4 + 2 * 1 * 4);
  EXPECT_EQ(isa::tex::mipmapBytes(o), 5u * 3 * 4 + 2 * 1 * 4 + 1 * 1 * 4);
  const Object l1 = isa::tex::levelOf(o, 1);
  EXPECT_EQ(l1.width, 2u);
  EXPECT_EQ(l1.height, 1u);
  EXPECT_EQ(l1.pitch, 8u);
  EXPECT_EQ(l1.levels, 1u);
  EXPECT_EQ(l1.dataOffset, o.dataOffset + 60);
  const Object l2 = isa::tex::levelOf(o, 2);
  EXPECT_EQ(l2.width, 1u);
  EXPECT_EQ(l2.height, 1u);
  EXPECT_EQ(isa::tex::validate(o), "");
}

// A layered (or cube-map) mipmapped texture: each level holds all the layers, one after another,
// and a level's object keeps them (its slices a level's size apart).
TEST(TextureMipmap, LayeredLevelsHoldEveryLayer) {
  Object o = mipmapped(5, 3, 3, Filter::Point);
  o.layered = 1;
  o.layers = 4;
  EXPECT_EQ(isa::tex::validate(o), "");
  EXPECT_EQ(isa::tex::levelOffset(o, 1), 4u * 5 * 3 * 4);
  EXPECT_EQ(isa::tex::levelOffset(o, 2), 4u * (5 * 3 * 4 + 2 * 1 * 4));
  EXPECT_EQ(isa::tex::mipmapBytes(o), 4u * (5 * 3 * 4 + 2 * 1 * 4 + 1 * 1 * 4));
  const Object l1 = isa::tex::levelOf(o, 1);
  EXPECT_EQ(l1.layers, 4u);
  EXPECT_EQ(l1.layered, 1u);
  EXPECT_EQ(l1.slicePitch, 2u * 1 * 4);
  EXPECT_EQ(l1.dataOffset, o.dataOffset + 4 * 60);
}

TEST(TextureMipmap, NearestLevelWithBiasAndClamps) {
  Object o = mipmapped(16, 16, 5, Filter::Point);
  auto level = [&](float lod) {
    const auto c = isa::tex::mipLevels(o, lod);
    EXPECT_EQ(c.n, 1u);
    return c.level[0];
  };
  EXPECT_EQ(level(-3.0f), 0u);
  EXPECT_EQ(level(0.49f), 0u);
  // A half rounds up, and one ulp past it too (the H200, mipmap_probe.h200.txt: p1 lod1 at lod
  // 0x1p-1 and 0x1.000002p-1 read level 1, at 0x1.8p+0 level 2; 1.5 - 1 ulp level 1).
  EXPECT_EQ(level(0.5f), 1u);
  EXPECT_EQ(level(std::nextafter(0.5f, 1.0f)), 1u);
  EXPECT_EQ(level(std::nextafter(0.5f, 0.0f)), 0u);
  EXPECT_EQ(level(1.5f), 2u);
  EXPECT_EQ(level(std::nextafter(1.5f, 0.0f)), 1u);
  EXPECT_EQ(level(0.51f), 1u);
  EXPECT_EQ(level(2.4f), 2u);
  EXPECT_EQ(level(100.0f), 4u);  // the last level
  o.maxLod = 2.0f;
  EXPECT_EQ(level(3.7f), 2u);
  o.minLod = 1.0f;
  EXPECT_EQ(level(0.0f), 1u);
  o.lodBias = 1.0f;
  EXPECT_EQ(level(1.2f), 2u);
}

TEST(TextureMipmap, LinearBlendsTwoLevelsByAnEightBitFraction) {
  const Object o = mipmapped(16, 16, 5, Filter::Linear);
  auto c = isa::tex::mipLevels(o, 1.25f);
  ASSERT_EQ(c.n, 2u);
  EXPECT_EQ(c.level[0], 1u);
  EXPECT_EQ(c.level[1], 2u);
  EXPECT_EQ(c.weight, 0.25);
  // The fraction is truncated to 8 bits (the H200, mipmap_probe.h200.txt l1 lod1): 76.8 / 256
  // is 76 / 256.
  c = isa::tex::mipLevels(o, 0.3f);
  EXPECT_EQ(c.weight, 76.0 / 256);
  c = isa::tex::mipLevels(o, 2.0f);  // on a level: that level alone
  EXPECT_EQ(c.n, 1u);
  EXPECT_EQ(c.level[0], 2u);
  c = isa::tex::mipLevels(o, 4.5f);  // past the last level: the last alone
  EXPECT_EQ(c.n, 1u);
  EXPECT_EQ(c.level[0], 4u);
  c = isa::tex::mipLevels(o, 0.999f);  // 255.7 / 256 is 255 / 256, still a blend
  EXPECT_EQ(c.n, 2u);
  EXPECT_EQ(c.weight, 255.0 / 256);
  c = isa::tex::mipLevels(o, 1.0f + 1.0f / 512);  // less than 1/256 past a level: that level
  EXPECT_EQ(c.n, 1u);
  EXPECT_EQ(c.level[0], 1u);
}

// Linear mipmap filtering sums both levels' taps at once: each level's share of 256 splits over
// its taps as one level's 256 does, the second texel's part rounded half up (the H200's l1 and
// l2 lod fetches of scripts/probes/texture/mipmap_probe.cu all agree with this).
TEST(TextureMipmap, BlendSplitsEachLevelsShareOverItsTaps) {
  isa::tex::Footprint lower, upper;
  lower.n = upper.n = 2;
  lower.count[0] = upper.count[0] = 2;
  lower.alpha[0] = 100;
  upper.alpha[0] = 200;
  for (unsigned t = 0; t < 2; ++t) {
    lower.taps[t].offset = 16 * t;
    upper.taps[t].offset = 100 + 16 * t;
  }
  const isa::tex::Footprint f = isa::tex::blendedFootprint(lower, upper, 77.0 / 256);
  ASSERT_EQ(f.n, 4u);
  // Lower's share 179: 100 * 179 / 256 = 69.9 -> 70, the rest 109; upper's 77: 60.2 -> 60, 17.
  const double want[4] = {109, 70, 17, 60};
  const int64_t offsets[4] = {0, 16, 100, 116};
  for (unsigned t = 0; t < 4; ++t) {
    EXPECT_EQ(f.taps[t].weight, want[t] / 256) << t;
    EXPECT_EQ(f.taps[t].offset, offsets[t]) << t;
  }
  // 2-d: x splits the share first, then each x half splits along y, the first x half rounding
  // its first y part, the second its second. Share 179, a = 64, b = 192: x 134 | 45; y of the
  // first half 134 * 64 / 256 = 33.5 -> 34 (then 100), of the second 45 * 192 / 256 = 33.75 -> 34.
  const unsigned n[3] = {2, 2, 1};
  const uint32_t alpha[3] = {64, 192, 0};
  uint32_t w[4];
  isa::tex::splitWeights(n, alpha, 179, w);
  EXPECT_EQ(w[0], 34u);   // (x0, y0)
  EXPECT_EQ(w[1], 11u);   // (x1, y0)
  EXPECT_EQ(w[2], 100u);  // (x0, y1)
  EXPECT_EQ(w[3], 34u);   // (x1, y1)
  // At a share of 256 it is the one-level split: w11 = round(a b), w10 = a - w11, w01 = b - w11.
  isa::tex::splitWeights(n, alpha, 256, w);
  EXPECT_EQ(w[3], 48u);
  EXPECT_EQ(w[1], 16u);
  EXPECT_EQ(w[2], 144u);
  EXPECT_EQ(w[0], 48u);
}

// A seamless cube map's corner in a blend: the tap past both edges of the face gives its share
// of its level's weight to the other three taps, a third each, as at one level (the chip: the
// forms probe's GCs cubegrad lines between levels 3 and 4, 2 x 2 and 1 x 1 faces, agree only so;
// the corner tap kept its split weight before, reading the texel its centre points at).
TEST(TextureMipmap, BlendGivesASeamlessCornersShareToItsNeighbours) {
  isa::tex::Footprint lower, upper;
  lower.n = 4;
  lower.count[0] = lower.count[1] = 2;
  lower.alpha[0] = lower.alpha[1] = 128;
  lower.corner = 3;  // (x1, y1) lies past both edges
  upper.n = 1;
  for (unsigned t = 0; t < 4; ++t) lower.taps[t].offset = 16 * t;
  upper.taps[0].offset = 100;
  const isa::tex::Footprint f = isa::tex::blendedFootprint(lower, upper, 0.5);
  ASSERT_EQ(f.n, 5u);
  // Lower's share 128 splits 32 a tap; the corner's 32 goes (32 + 1) / 3 = 11 to each tap across
  // an edge and the rest, 10, to the face's own corner texel (x0, y0).
  const double want[5] = {42, 43, 43, 0, 128};
  for (unsigned t = 0; t < 5; ++t) EXPECT_EQ(f.taps[t].weight, want[t] / 256) << t;
}

TEST(TextureMipmap, GradientsGiveTheLevelOfDetailInTexels) {
  const Object o = mipmapped(8, 8, 4, Filter::Point);
  const float one[2] = {1.0f / 8, 0}, four[2] = {0, 0.5f}, zero[2] = {0, 0};
  EXPECT_EQ(isa::tex::lodFromGradients(o, one, zero), 0.0f);
  EXPECT_EQ(isa::tex::lodFromGradients(o, zero, four), 2.0f);  // the longer gradient counts
  EXPECT_EQ(isa::tex::lodFromGradients(o, one, four), 2.0f);
}

// tex.grad's level of detail as the H200 computes it (mipmap_probe.h200.txt, the l2 gradient
// sweep: the blend weight each line implies): the longer of two perpendicular gradients, a
// length estimated from its components, the diagonals (sum and difference) at 11/16, and a log2
// of the significand cut to 8 bits, looked up in the chip's table (GradientArithmeticIsTheChips).
TEST(TextureMipmap, GradientLevelOfDetailIsTheChips) {
  const Object o = mipmapped(32, 16, 6, Filter::Linear);
  const auto lod = [&](float x0, float x1, float y0, float y1) {
    const float dx[2] = {x0 / 32, x1 / 16}, dy[2] = {y0 / 32, y1 / 16};
    return isa::tex::lodFromGradients(o, dx, dy) * 256;
  };
  EXPECT_EQ(lod(1, 0, 1, 0), 118.0f);             // two equal gradients along x: 1.375 texels
  EXPECT_EQ(lod(0.6f, 0.8f, -0.4f, 0.3f), 2.0f);  // a rotated texel reads 1.0054
  EXPECT_EQ(lod(1, 0, 0, 0.25f), 0.0f);           // 4:1, perpendicular: the longer one
  // 2^(3/8) in f32 lies a hair below the level's 96/256: its significand cut to 8 bits reads 95.
  EXPECT_EQ(lod(std::exp2(0.375f), 0, 0, 0), 95.0f);
  EXPECT_EQ(lod(std::exp2(0.25f), 0, 0, 0), 64.0f);  // ... and 2^(1/4) 64: the log2 rounds up
  // A significand cut to 1 + 2/256 reads 4/256 (the chip, in every octave the probes swept),
  // where the rounded-up log2 is 3/256; 1 + 1/256 reads 2/256.
  EXPECT_EQ(lod(1.0081559419631958f, 0, 0, 0), 4.0f);
  EXPECT_EQ(lod(4.032623767852783f, 0, 0, 0), 516.0f);
  EXPECT_EQ(lod(1.0054298639297485f, 0, 0, 0), 2.0f);
}

// The footprint's arithmetic as texture_forms_probe's gradlod section reads it on the chip
// (texture_forms.chip.txt.xz: a 256 x 256 texture whose level k holds k, so a fetch returns the
// level of detail; docs/FIDELITY.md "tex.grad's level of detail"). Gradients in texels.
TEST(TextureMipmap, GradientArithmeticIsTheChips) {
  const Object o = mipmapped(256, 256, 9, Filter::Linear);
  const auto lod = [&](double x0, double x1, double y0, double y1) {
    const float dx[2] = {float(x0 / 256), float(x1 / 256)},
                dy[2] = {float(y0 / 256), float(y1 / 256)};
    return isa::tex::lodFromGradients(o, dx, dy) * 256;
  };
  // The log2 table is the chip's, not a rounding of the exact log2: entry 109 (a significand
  // of 1 + 109/256) reads 131/256 where the rounded-up log2 reads 132, 141 reads 162 (not
  // 163), 255 reads 255 (not 256), 2 reads 4 (not 3); bits past the eighth do not count.
  EXPECT_EQ(lod(2 * (1 + 109 / 256.0), 0, 0, 0), 256.0f + 131);
  EXPECT_EQ(lod(2 * (1 + 109.875 / 256), 0, 0, 0), 256.0f + 131);
  EXPECT_EQ(lod(2 * (1 + 141 / 256.0), 0, 0, 0), 256.0f + 162);
  EXPECT_EQ(lod(2 * (1 + 255 / 256.0), 0, 0, 0), 256.0f + 255);
  EXPECT_EQ(lod(2 * (1 + 2 / 256.0), 0, 0, 0), 256.0f + 4);
  // The middle component's share is 11/32 of it rounded to nearest on its own grid of 11 bits
  // (docs/FIDELITY.md "tex.grad on cube maps: the middle term"): (2, 1.2265625) reads 327/256
  // (11/32 of 1.2265625, 0.42163, rounds to 0.421875, where the table's entry changes; unrounded
  // 326), (2, 0.9765625) 313 and (2, 0.2265625) 269 (a share of 0.3444 or more reads 314 and
  // 271).
  EXPECT_EQ(lod(2, 1.2265625, 0, 0), 327.0f);
  EXPECT_EQ(lod(2, 0.9765625, 0, 0), 313.0f);
  EXPECT_EQ(lod(2, 0.2265625, 0, 0), 269.0f);
  // Parallel gradients: the diagonal 11/16 of the sum, from the gradients cut to 9 bits and
  // rounded to nearest on the sum's grid of 10 bits. Two gradients of sqrt(2) texels read
  // 246/256 (truncated 245); of 1.0082 (cut: 1 + 4/512) 121/256 (truncated 120); of 1.0233 (1 +
  // 11/512) 125/256 (the exact 1.375 a: 126).
  EXPECT_EQ(lod(0x1.6a09e6p+0, 0, 0x1.6a09e6p+0, 0), 246.0f);
  EXPECT_EQ(lod(0x1.021682p+0, 0, 0x1.021682p+0, 0), 121.0f);
  EXPECT_EQ(lod(0x1.05f5c8p+0, 0, 0x1.05f5c8p+0, 0), 125.0f);
}

// A 4x4 f32 texture of three levels holding 1, 2 and 4 everywhere, linear mipmap filtering:
// thread i fetches with tex.level at lod[i], with tex.grad at gradients grad[i] (d/dx = (g, 0),
// d/dy = 0), and with a plain tex; and asks txq.num_mipmap_levels.
const std::string kPtx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 t, .param .u64 lod, .param .u64 grad, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<20>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [lod];
  ld.param.u64 %rd3, [grad];
  ld.param.u64 %rd4, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd2, %rd5;
  ld.global.f32 %f1, [%rd6];
  add.s64 %rd7, %rd3, %rd5;
  ld.global.f32 %f2, [%rd7];
  mov.f32 %f3, 0f3F000000;
  mov.f32 %f4, 0f00000000;
  tex.level.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f3, %f3}], %f1;
  tex.grad.2d.v4.f32.f32 {%f9, %f10, %f11, %f12}, [%rd1, {%f3, %f3}], {%f2, %f4}, {%f4, %f4};
  tex.2d.v4.f32.f32 {%f13, %f14, %f15, %f16}, [%rd1, {%f3, %f3}];
  txq.num_mipmap_levels.b32 %r2, [%rd1];
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd4, %rd8;
  cvt.rn.f32.u32 %f17, %r2;
  st.global.v4.f32 [%rd9], {%f5, %f9, %f13, %f17};
  ret;
}
)";

TEST(TextureMipmap, TexLevelTexGradAndTxqInAKernel) {
  const Object o = mipmapped(4, 4, 3, Filter::Linear);
  std::vector<float> texels(16, 1.0f);
  texels.insert(texels.end(), 4, 2.0f);
  texels.push_back(4.0f);
  ASSERT_EQ(texels.size() * 4, isa::tex::mipmapBytes(o));
  std::vector<uint8_t> object(isa::tex::kDescriptorBytes + texels.size() * 4);
  std::memcpy(object.data(), &o, sizeof o);
  std::memcpy(object.data() + isa::tex::kDescriptorBytes, texels.data(), texels.size() * 4);
  const std::vector<float> lods = {-2.0f, 0.0f, 0.5f, 1.0f, 1.25f, 2.0f, 9.0f};
  // Gradients of 1/4, 1/2, 1 and 2 texture widths: 1, 2, 4 and 8 texels, lods 0 .. 3.
  const std::vector<float> grads = {0.25f, 0.5f, 1.0f, 2.0f, 0.25f, 0.25f, 0.0f};
  PtxRunner r(kPtx);
  const uint64_t t = r.buffer<uint8_t>(object.size(), object);
  const uint64_t lod = r.buffer<float>(lods.size(), lods), grad = r.buffer<float>(7, grads);
  const uint64_t out = r.buffer<float>(lods.size() * 4);
  const auto res =
      r.launch("k", {1, 1, 1}, {unsigned(lods.size()), 1, 1},
               {PtxRunner::ptr(t), PtxRunner::ptr(lod), PtxRunner::ptr(grad), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("t.ptx");
  const auto v = r.read<float>(out, lods.size() * 4);
  const float level[] = {1.0f, 1.0f, 1.5f, 2.0f, 2.5f, 4.0f, 4.0f};
  const float byGrad[] = {1.0f, 2.0f, 4.0f, 4.0f, 1.0f, 1.0f, 1.0f};
  for (size_t i = 0; i < lods.size(); ++i) {
    EXPECT_EQ(v[4 * i], level[i]) << "tex.level at lod " << lods[i];
    EXPECT_EQ(v[4 * i + 1], byGrad[i]) << "tex.grad of " << grads[i];
    EXPECT_EQ(v[4 * i + 2], 1.0f) << "tex reads the base level";
    EXPECT_EQ(v[4 * i + 3], 3.0f) << "txq.num_mipmap_levels";
  }
}

}  // namespace
}  // namespace warpsim
