// The texture and surface forms issue 12 item 5 added (isa/insns/texture.cpp's head comment):
// tex.grad on cube maps, tex.base, tld4 on cube maps, txq.level, sust.p and sured.p; each runs in
// a kernel on descriptors made by hand, against values worked out from the PTX ISA's rules
// (surface_format.h, texture_mipmap.h). tex.2dms/a2dms and the channel queries are refused at
// load, as the chip's driver refuses them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "isa/fp.h"
#include "isa/insns/surface_format.h"
#include "isa/insns/texture_mipmap.h"
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

const std::string kHeader = ".version 8.7\n.target sm_90\n.address_size 64\n";

Object surface(uint32_t w, uint32_t h, Channel c, uint8_t channels) {
  Object o = object2d(w, h, c, channels, Filter::Point, Address::Clamp, false);
  o.dims = h > 1 ? 2 : 1;
  o.kind = isa::tex::Kind::Surface;
  return o;
}

// A cube map of 2 x 2 faces with two levels: level 0's texel (i, j) of face f holds 4 f + 2 j + i,
// level 1's one texel 100 + f.
std::vector<uint8_t> twoLevelCube() {
  Object o = object2d(2, 2, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.layered = 1;
  o.cube = 1;
  o.layers = 6;
  o.levels = 2;
  o.maxLod = 1;
  std::vector<float> texels;
  for (int i = 0; i < 24; ++i) texels.push_back(float(i));
  for (int f = 0; f < 6; ++f) texels.push_back(float(100 + f));
  return makeObject(o, texels);
}

TEST(TextureForms, CubeGradientsAreDifferencesOfUnfoldedSamples) {
  Object o = object2d(16, 16, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.cube = 1;
  o.layered = 1;
  o.layers = 6;
  // Face +x at its centre: s = (-z / x + 1) / 2, so dz = 1/8 moves s by 1/16, one texel of 16.
  const float dir[3] = {1, 0, 0}, one[3] = {0, 0, 0.125f}, none[3] = {0, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, dir, one, none), 0.0f);
  const float two[3] = {0, 0.25f, 0};  // t = (-y / x + 1) / 2: two texels
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, dir, two, none), 1.0f);
  // The same face point twice as far: the sample moves half as far on the face.
  const float far[3] = {2, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, far, two, none), 0.0f);
  // Along the major axis at the face's centre: the sample stays at the centre.
  const float radial[3] = {0.5f, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, dir, radial, none), -INFINITY);
  // What the chip read (texture_forms.chip.txt.xz, GCl, a 16 x 16 face; the derivative of the
  // projection, the model before, reads 256/256 and 66/256). Face -z at (0.8, 0.5): the d/dx
  // sample (1.05, 0.5, -1) lies on face +x, 2 - 1 / 1.05 past the edge, and its t is read there
  // (-0.5 / 1.05, not -0.5 / 1), so the footprint is a little over two texels.
  const float minusZ[3] = {0.8f, 0.5f, -1}, qx[3] = {0.25f, 0, 0}, qy[3] = {0, 0.25f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, minusZ, qx, qy), 264.0f / 256);
  // An edge (ties go to z, so face +z at s = 0.4, t = 1): the d/dx sample (0.4, -1, 2) stays on
  // +z, twice as far, the d/dy one (1.4, -1, 1) crosses onto +x (old model: 834/256).
  const float edge[3] = {0.4f, -1, 1}, ez[3] = {0, 0, 1}, ex[3] = {1, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, edge, ez, ex), 762.0f / 256);
  // Long gradients saturate: from face -x at (0.6, 0.1) the samples (-1, 2.6, 0.1) and
  // (-1, 0.6, 2.1) lie on +y and +z, less than a face away once unfolded (old model: 1024/256,
  // sixteen texels).
  const float minusX[3] = {-1, 0.6f, 0.1f}, ly[3] = {0, 2, 0}, lz[3] = {0, 0, 2};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, minusX, ly, lz), 925.0f / 256);
  // A sample on another face leaves the diagonals out: at the corner (1, -1, -1) (face -z) the
  // d/dy sample (1, -1, -0.823) lies on -y, 1.177 past -z's edge, antiparallel to d/dx's 1.414
  // texels; 11/16 of their difference would read 246/256.
  const float corner[3] = {1, -1, -1}, cy[3] = {0, 0.1767766922712326f, 0},
              cz[3] = {0, 0, 0.1767766922712326f};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, corner, cy, cz), 128.0f / 256);
  // A diagonal rounds 11/16 of its largest component alone (on that component's 10-bit grid)
  // and adds the middle's share cut to that term's grid: from +x at (0.5, -0.25) the samples'
  // differences (-0.4, -0.8) and (-0.96, 0.16) texels (cut to 9 bits) sum to (-1.3599,
  // -0.6399); 11/16 of 1.3594 is 0.93457, 121/512 of the middle 0.63965 is 0.15112, cut to
  // 2^-10 0.15039: 1.08496, which reads 30/256 on the chip; 11/16 of the whole length (1.5791)
  // rounded on its 10-bit grid to 1.0859 would read 31.
  const float plusX[3] = {1, 0.25f, -0.5f}, gx[3] = {0, 0.1f, 0.05f}, gy[3] = {0, -0.02f, 0.12f};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, plusX, gx, gy), 30.0f / 256);
}

// The footprint's diagonals on a cube map as texture_forms_probe's cubegradlod section reads
// them on the chip (texture_forms.chip.txt.xz, GL16: a 16 x 16-face cube whose level k holds k;
// docs/FIDELITY.md "tex.grad on cube maps, read directly"): from the centre of +z, where a
// texel is 1/8 of x or y.
TEST(TextureForms, CubeDiagonalsRoundTheLargestComponentAlone) {
  Object o = object2d(16, 16, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.cube = 1;
  o.layered = 1;
  o.layers = 6;
  const float centre[3] = {0, 0, 1};
  // Parallel gradients of 1.0082 texels (cut: 1 + 4/512): 11/16 of the sum rounded, as on a 2-d
  // texture, reads 121/256 (truncated, the model before: 120).
  const float par[3] = {0x1.021682p-3f, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, centre, par, par), 121.0f / 256);
  // Two equal gradients (a, a / 2), a = 1.0163 texels: the sum (2.0313, 1.0156) reads 181/256;
  // rounding its whole 11/16 length (1.63667 on a grid of 2^-9) would read 182.
  const float rot[3] = {0x1.04315ep-3f, 0x1.04315ep-4f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, centre, rot, rot), 181.0f / 256);
  // a = 1.0082: 180/256 (truncating the length, the model before: 179).
  const float rot2[3] = {0x1.021682p-3f, 0x1.021682p-4f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, centre, rot2, rot2), 180.0f / 256);
  // A gradient's middle component keeps its own 9 bits: from 1.5 texels short of +x's edge at
  // y = 0.25, d/dx of 1.5234 texels puts the sample on +x, unfolded to (1.52337, 0.00584)
  // texels away (y / x along the edge); its middle share reads 156/256, where the middle cut
  // to the largest's grid (2^-9: 0.00391) reads 155.
  const float nearEdge[3] = {0x1.ap-1f, 0.25f, 1}, cross[3] = {0x1.86p-3f, 0, 0},
              none[3] = {0, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, nearEdge, cross, none), 156.0f / 256);
}

// The middle component's shares as texture_forms_probe's cuberot section reads them on the chip
// (texture_forms.chip.txt.xz; docs/FIDELITY.md "tex.grad on cube maps: the middle term"): from the
// centre of +z of GL256 (256-texel faces, level k holds k), where a texel is 1/128 of x or y, and
// of GL16 (1/8). u is the unit of the largest component's 9-bit grid; every line read one entry
// higher under the model before (1409/4096 of the middle unrounded, added to 11/16 of the
// largest rounded).
TEST(TextureForms, CubeMiddleSharesRoundOnTheMiddlesOwnGrid) {
  Object o = object2d(256, 256, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.cube = 1;
  o.layered = 1;
  o.layers = 6;
  const float centre[3] = {0, 0, 1}, none[3] = {0, 0, 0};
  // A gradient's middle share is 11/32 of the middle rounded on its own grid of 11 bits: d/dx
  // (812, 244.25) u (u = 2^-9 texels) reads 812 + 83.9375 u (11/32 of 244.25 is 83.961), 206/256;
  // 1409/4096 of it, 84.021, crosses 896 u: 207.
  const float mid[3] = {0x1.965feap-7f, 0x1.e8eb66p-9f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, centre, mid, none), 206.0f / 256);
  // A diagonal's middle term, 121/512 of its middle (at the middle's own 9 bits) rounded on the
  // middle's grid of 12 bits, is cut to the grid of 11/16 of the largest: the sum (812, 15.859)
  // u (u = 2^-8) reads 11/16 of 812, 558.25, rounded to 558.5 on the largest's 10-bit grid (ties
  // up), plus 3.748 cut to 3 (558.5 lies past 512 u, its 9-bit grid is u): 561.5 u, 290/256
  // (the model before: 562.05, 291).
  const float tie[3] = {0x1.965feap-7f, 0x1.fbf7e4p-13f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, centre, tie, tie), 290.0f / 256);
  // The sum (645, 2.5195) u: 443.4375 rounds to 443.5 and 121/512 of 2.5195, 0.5955, is cut to
  // u/2 (443.5 lies below 512 u): 444 u, 204/256; with the middle on the largest's grid (2 u,
  // the model before) 443.97, 203.
  const float small[3] = {0x1.428a3p-7f, 0x1.428a3p-15f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, centre, small, small), 204.0f / 256);
  // cubegradlod's rot sweep on GL16: the sum (785, 392.5) u (u = 2^-8 texels): 539.6875 rounds
  // to 539.5, 121/512 of 392.5, 92.759, cuts to 92: 631.5 u, 333/256; unrounded (the model
  // before) 632.21, 334.
  o.width = o.height = 16;
  const float rot[3] = {0x1.88ac7ep-3f, 0x1.88ac7ep-4f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, centre, rot, rot), 333.0f / 256);
}

// A sample's face coordinates are its components times the f32 reciprocal of the major axis,
// the product rounded to f32, not quotients (docs/FIDELITY.md "tex.grad on cube maps: the last
// residuals"): lines the chip read where the exact quotient lands a hair below a 9-bit step of
// the gradient and the reciprocal's rounding lifts it onto the step.
TEST(TextureForms, CubeSamplesArePlacedByTheReciprocalOfTheMajorAxis) {
  Object o = object2d(256, 256, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.cube = 1;
  o.layered = 1;
  o.layers = 6;
  // cubegradlod's edge sweep (GL256): from +z two texels short of +x's edge, d/dx of 1 + 1/128
  // texels puts the sample (1.000061, 0, 1) on +x, unfolded to 2 - 1 / 1.000061. Over the
  // quotient that is 1.0078120 texels away, cut to 1 + 3/512 (2/256); times the f32
  // reciprocal, 1.0078125 exactly: 4/256 on the chip.
  const float nearEdge[3] = {0x1.fcp-1f, 0, 1}, cross[3] = {0x1.02p-7f, 0, 0}, none[3] = {0, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, nearEdge, cross, none), 4.0f / 256);
  // cubegrad (GCl, 16 x 16 faces): from +y a hair past its edge with +x, (0.99999994, 1, -0.6),
  // the d/dy sample (0.99999994, 0.75, -0.6) lies on +x. The exact quotients place it
  // 2 - 3e-8 texels away, 2.0 in f32 (256/256); the reciprocal 1.9999995: 255/256 on the chip.
  o.width = o.height = 16;
  const float edge[3] = {0x1.fffffep-1f, 1, -0x1.333334p-1f}, up[3] = {0, 0.25f, 0},
              down[3] = {0, -0.25f, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, edge, up, down), 255.0f / 256);
}

// A gradient toward a sample on a neighbouring face is the sum of the two points' distances to
// the edge, each in texels cut to 9 bits (docs/FIDELITY.md "tex.grad on cube maps: the distances
// to the edge"): cubegrad lines the chip read 1/256 below the unfolded difference in one piece.
TEST(TextureForms, CubeCrossingGradientsAddTheTwoDistancesToTheEdge) {
  Object o = object2d(16, 16, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.cube = 1;
  o.layered = 1;
  o.layers = 6;
  // GCl: from +x at (1 + 2^-23, 1, -0.6), 2^-23 of the face short of its edge with +y, the d/dy
  // sample (0.75 + 2^-23, 1, -0.6) lies on +y, 1 - 0.75000012 past the edge. In one piece the
  // difference is 2 texels exactly (256/256); P's 9.5e-7 texels and the sample's 1.9999990 cut
  // to 1.9960938 add to 1.9960947: 255/256 on the chip.
  const float plusX[3] = {0x1.000002p0f, 1, -0x1.333334p-1f}, right[3] = {0.25f, 0, 0},
              left[3] = {-0.25f, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, plusX, right, left), 255.0f / 256);
  // GCAl (8 x 8 faces): from -y at (-0.0669, -1, -0.8997) the d/dx sample (-0.0669, -1, 1.1003)
  // lies on +z. P lies 7.5988541 texels from that edge (cut: 7.59375), the sample 0.3645833
  // past it (0.3642578): 7.9580078, cut to 7.9570312, plus 11/32 of the middle 0.0243809, reads
  // 766/256 on the chip; in one piece 7.9634371 cuts to 7.9609375 and the middle's share lifts
  // it past 7.96875: 767.
  o.width = o.height = 8;
  const float minusY[3] = {-0x1.11e9ep-4f, -1, -0x1.cca74p-1f}, z[3] = {0, 0, 2}, x[3] = {2, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, minusY, z, x), 766.0f / 256);
}

// NaN and infinite gradients, and a sample on the opposite face: what the chip read
// (texture_forms.chip.txt.xz, GCl on 16 x 16 faces, GCAs on 8 x 8; the model before read level 0
// for every NaN, the last level for every infinity and the face's centre for the opposite face).
TEST(TextureForms, CubeGradientsPlaceNaNInfiniteAndOppositeSamples) {
  Object o = object2d(16, 16, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  o.cube = 1;
  o.layered = 1;
  o.layers = 6;
  const float nan = NAN, inf = INFINITY, none[3] = {0, 0, 0};
  // A NaN component of a sample reads 0: from face +y at s = 0.3 the d/dx sample (NaN, 1, -0.7)
  // lies at s = 0, 2.4 texels away.
  const float plusY[3] = {0.3f, 1, -0.7f}, nx[3] = {nan, 0, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, plusY, nx, none), 324.0f / 256);
  // An infinite component reads NaN over the infinite major axis, so the comparisons pick face
  // +z and the sample lies at its centre: from +z at (0.1, 0.35) both samples are there, the
  // diagonal 11/16 of twice 3.07 texels.
  const float plusZ[3] = {0.1f, -0.35f, 1}, ix[3] = {inf, 0, 0}, iy[3] = {0, inf, 0};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, plusZ, ix, iy), 532.0f / 256);
  // The opposite face lies 2 across the cube: from face -z at (1, -0.2) (an edge, ties to z) the
  // d/dy sample (-1, 0.2, 1) on +z is at the same s and t, 8 texels of an 8 x 8 face away.
  o.width = o.height = 8;
  const float minusZ[3] = {-1, 0.2f, -1}, ly[3] = {0, 2, 0}, lz[3] = {0, 0, 2};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, minusZ, ly, lz), 3.0f);
  // From face -z at (-0.478, -0.366) the infinite samples lie at +z's centre, across the cube:
  // (0.478, 0.366, 2) of the face, a three-component length, 2 + 87/256 0.478 + 0.366 / 4.
  const float farZ[3] = {0.47761452198028564f, 0.36621057987213135f, -1};
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, farZ, ix, iy), 812.0f / 256);
  // From face +y at (0.3, -0.7) the infinite samples lie at +z's centre (a zero z reads +z)
  // unfolded 2 past +y's edge: (-0.3, 2.7) of the face.
  EXPECT_EQ(isa::tex::lodFromCubeGradients(o, plusY, ix, iy), 892.0f / 256);
}

TEST(TextureForms, TexGradOnACubeMapPicksTheLevel) {
  const std::string ptx = kHeader + R"(
.visible .entry grad(.param .u64 t, .param .u64 in, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [in];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 24;
  add.s64 %rd5, %rd2, %rd4;
  ld.global.v2.f32 {%f1, %f2}, [%rd5];
  ld.global.v2.f32 {%f3, %f4}, [%rd5+8];
  ld.global.v2.f32 {%f5, %f6}, [%rd5+16];
  mov.f32 %f7, 0f00000000;
  tex.grad.cube.v4.f32.f32 {%f8, %f9, %f10, %f11}, [%rd1, {%f1, %f2, %f3, %f3}],
      {%f4, %f5, %f6, %f6}, {%f7, %f7, %f7, %f7};
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd3, %rd6;
  st.global.f32 [%rd7], %f8;
  ret;
}
)";
  PtxRunner r(ptx);
  const auto cube = twoLevelCube();
  // Direction (x, y, z) and d/dx (dx, dy, dz) per lane: face +x at s = 0.4, t = 0.45 (texel
  // (0, 0)); a short gradient reads level 0, a long one level 1, the long one twice as far (the
  // direction scaled by 4) level 0 again.
  const std::vector<float> in = {1, 0.1f, 0.2f, 0, 0, 0.5f, 1, 0.1f, 0.2f, 0, 0, 4,
                                 4, 0.4f, 0.8f, 0, 0, 4,    4, 0.4f, 0.8f, 0, 0, 32};
  const uint64_t t = r.buffer<uint8_t>(cube.size(), cube), d = r.buffer<float>(in.size(), in);
  const uint64_t out = r.buffer<float>(4);
  auto res = r.launch("grad", {1, 1, 1}, {4, 1, 1},
                      {PtxRunner::ptr(t), PtxRunner::ptr(d), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("g.ptx");
  EXPECT_EQ(r.read<float>(out, 4), (std::vector<float>{0, 100, 0, 100}));
}

// A kernel `gather` whose one thread writes tld4.r of the cube map at direction (x, y, z), f32
// hex words, to out[0..3].
std::string cubeGather(const char* x, const char* y, const char* z) {
  return kHeader + R"(
.visible .entry gather(.param .u64 t, .param .u64 out)
{
  .reg .f32 %f<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [out];
  mov.f32 %f1, )" +
         x + ";\n  mov.f32 %f2, " + y + ";\n  mov.f32 %f3, " + z + R"(;
  tld4.r.cube.v4.f32.f32 {%f4, %f5, %f6, %f7}, [%rd1, {%f1, %f2, %f3, %f3}];
  st.global.v4.f32 [%rd2], {%f4, %f5, %f6, %f7};
  ret;
}
)";
}

TEST(TextureForms, Tld4OnACubeMapGathersOnTheFace) {
  PtxRunner r(cubeGather("0f00000000", "0f00000000", "0fBF800000"));
  const auto cube = twoLevelCube();
  const uint64_t t = r.buffer<uint8_t>(cube.size(), cube), out = r.buffer<float>(4);
  auto res = r.launch("gather", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(t), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("g.ptx");
  // Face -z (5, texels 20..23) at its centre: the 2 x 2 footprint in gather order (i0, j1),
  // (i1, j1), (i1, j0), (i0, j0).
  EXPECT_EQ(r.read<float>(out, 4), (std::vector<float>{22, 23, 21, 20}));
}

// tld4 at a seamless cube map's corner: the tap past both edges of the face has no texel; the
// chip returns the three texels about the corner blended, 85, 85 and 86 of 256 (the face's own
// the most), as linear filtering splits that tap's weight (texture_forms.chip.txt.xz tld4cube:
// the 15 lines at (1, 1, 1), (-1, -1, 1) and (1, -1, -1); the texel its centre points at before).
TEST(TextureForms, Tld4AtASeamlessCubeCornerBlendsTheThreeTexels) {
  PtxRunner r(cubeGather("0f3F800000", "0fBF800000", "0fBF800000"));
  Object o = object2d(2, 2, Channel::F32, 1, Filter::Linear, Address::Clamp, true);
  o.layered = 1;
  o.cube = 1;
  o.layers = 6;
  o.seamlessCubemap = 1;
  // Every texel of face +x 512, of -y 1024, of -z 4096, the rest 0.
  std::vector<float> texels(24, 0.0f);
  for (int i = 0; i < 4; ++i)
    texels[0 * 4 + i] = 512, texels[3 * 4 + i] = 1024, texels[5 * 4 + i] = 4096;
  const auto cube = makeObject(o, texels);
  const uint64_t t = r.buffer<uint8_t>(cube.size(), cube), out = r.buffer<float>(4);
  auto res = r.launch("gather", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(t), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("g.ptx");
  // (1, -1, -1) is face -z at (s, t) = (0, 1): (i0, j1) is past both edges and reads
  // (85 * 512 + 85 * 1024 + 86 * 4096) / 256; (i1, j1) is across the bottom edge (-y), (i1, j0)
  // the face's own corner texel, (i0, j0) across the left edge (+x).
  EXPECT_EQ(r.read<float>(out, 4), (std::vector<float>{1886, 1024, 4096, 512}));
}

TEST(TextureForms, TexBaseReadsTheBaseLevel) {
  const std::string ptx = kHeader + R"(
.visible .entry forms(.param .u64 t, .param .u64 out)
{
  .reg .f32 %f<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd2, [out];
  mov.f32 %f1, 0f3F400000;
  mov.f32 %f2, 0f3E800000;
  tex.base.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];
  st.global.f32 [%rd2], %f3;
  ret;
}
)";
  PtxRunner r(ptx);
  // 2 x 2 of f32: tex.base at normalized (0.75, 0.25) is texel (1, 0).
  Object o = object2d(2, 2, Channel::F32, 1, Filter::Point, Address::Clamp, true);
  const auto tex = makeObject(o, std::vector<float>{1, 2, 3, 4});
  const uint64_t t = r.buffer<uint8_t>(tex.size(), tex), out = r.buffer<float>(1);
  auto res = r.launch("forms", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(t), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("f.ptx");
  EXPECT_EQ(r.read<float>(out, 1)[0], 2.0f);
}

// tex.2dms / a2dms: ptxas assembles them for sm_90, but the chip's driver loads the module
// without the kernel ("named symbol not found", texture_forms.chip.txt.xz section ms): the
// module loads, its other kernels run, and launching this one is a refusal at its line.
TEST(TextureForms, MultisampleFetchesLeaveTheKernelOutOfTheModule) {
  for (const char* geometry : {"2dms", "a2dms"}) {
    const std::string ptx = kHeader + R"(
.visible .entry other(.param .u64 out)
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 42;
  st.global.u32 [%rd1], %r1;
  ret;
}
.visible .entry ms(.param .u64 t, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [t];
  mov.u32 %r1, 0;
  tex.)" + geometry + R"(.v4.u32.s32 {%r4, %r5, %r6, %r7}, [%rd1, {%r1, %r1, %r1, %r1}];
  ret;
}
)";
    PtxRunner r(ptx, "ms.ptx");
    const uint64_t out = r.buffer<uint32_t>(1);
    auto res = r.launch("other", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault) << res.fault->describe("ms.ptx");
    EXPECT_EQ(r.read<uint32_t>(out, 1)[0], 42u);
    try {
      r.launch("ms", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out), PtxRunner::ptr(out)});
      ADD_FAILURE() << geometry << " ran";
    } catch (const isa::PtxError& e) {
      EXPECT_EQ(e.refusal(), isa::Refusal::KernelNotFound);
      EXPECT_EQ(e.line(), 20u) << e.what();
      EXPECT_EQ(e.col(), 3u) << e.what();
      EXPECT_NE(std::string(e.what()).find("kernel 'ms' cannot run: 'tex." + std::string(geometry) +
                                           ".v4.u32.s32' reads a multisample texture"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("CUDA_ERROR_NOT_FOUND"), std::string::npos);
    }
  }
}

// txq/suq .channel_data_type and .channel_order: the chip's driver does not load a module
// holding one, whichever kernel is launched (section txq: "operation not supported", the
// canary's launch too). The refusal names the first one's line and column.
TEST(TextureForms, ChannelQueriesRefuseTheModule) {
  for (const char* query : {"txq.channel_data_type", "txq.channel_order", "suq.channel_data_type",
                            "suq.channel_order"}) {
    const std::string ptx = kHeader + R"(
.visible .entry canary(.param .u64 out)
{
  ret;
}
.visible .entry q(.param .u64 t, .param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [t];
  )" + query + R"(.b32 %r1, [%rd1];
  ret;
}
)";
    try {
      PtxRunner r(ptx, "q.ptx");
      ADD_FAILURE() << query << " loaded";
    } catch (const isa::PtxError& e) {
      EXPECT_EQ(e.refusal(), isa::Refusal::ModuleNotSupported);
      EXPECT_EQ(e.file(), "q.ptx");
      EXPECT_EQ(e.line(), 14u) << e.what();
      EXPECT_NE(e.message().find("queries the channel data type or order"), std::string::npos)
          << e.what();
      EXPECT_NE(e.message().find("CUDA_ERROR_NOT_SUPPORTED"), std::string::npos);
    }
  }
}

TEST(TextureForms, LevelSizes) {
  const std::string ptx = kHeader + R"(
.visible .entry q(.param .u64 t, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [t];
  ld.param.u64 %rd3, [out];
  mov.u32 %r5, 1;
  txq.level.width.b32 %r6, [%rd1], %r5;
  txq.level.height.b32 %r7, [%rd1], %r5;
  mov.u32 %r5, 2;
  txq.level.width.b32 %r8, [%rd1], %r5;
  st.global.v4.u32 [%rd3], {%r6, %r7, %r8, %r8};
  ret;
}
)";
  PtxRunner r(ptx);
  Object o = object2d(8, 4, Channel::F16, 2, Filter::Point, Address::Clamp, true);
  o.levels = 2;
  const auto tex = makeObject(o, std::vector<uint16_t>(2 * (32 + 8)));
  const uint64_t t = r.buffer<uint8_t>(tex.size(), tex);
  const uint64_t out = r.buffer<uint32_t>(4);
  auto res = r.launch("q", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(t), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("q.ptx");
  const auto v = r.read<uint32_t>(out, 4);
  EXPECT_EQ(v[0], 4u);  // level 1 of 8 x 4
  EXPECT_EQ(v[1], 2u);
  EXPECT_EQ(v[2], 0u);  // past the last level
}

const std::string kStoreP = kHeader + R"(
.visible .entry st(.param .u64 s, .param .u64 in)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [s];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd3, %rd2, %rd3;
  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd3];
  sust.p.1d.v4.b32.trap [%rd1, {%r1}], {%r2, %r3, %r4, %r5};
  ret;
}
)";

// Runs kStoreP: lane i stores words[4i..4i+3] at sample i of `o`, whose bytes start as `init`.
template <class T>
std::vector<T> storeP(const Object& o, const std::vector<T>& init,
                      const std::vector<uint32_t>& words) {
  PtxRunner r(kStoreP);
  const auto surf = makeObject(o, init);
  const uint64_t s = r.buffer<uint8_t>(surf.size(), surf);
  const uint64_t in = r.buffer<uint32_t>(words.size(), words);
  auto res = r.launch("st", {1, 1, 1}, {unsigned(words.size() / 4), 1, 1},
                      {PtxRunner::ptr(s), PtxRunner::ptr(in)});
  EXPECT_FALSE(res.fault) << res.fault->describe("st.ptx");
  return r.read<T>(s + isa::tex::kDescriptorBytes, init.size());
}

TEST(TextureForms, SustPConvertsToTheChannels) {
  // u8 x 4: x counts samples (lane 1 writes bytes 4..7); integers saturate.
  const auto u8 = storeP(surface(2, 1, Channel::U8, 4), std::vector<uint8_t>(8, 0xa5),
                         {1, 2, 3, 4, 300, 0xffffffff, 255, 0});
  EXPECT_EQ(u8, (std::vector<uint8_t>{1, 2, 3, 4, 255, 255, 255, 0}));
  // s16 x 2: the two channels the sample has, the vector's other two words ignored.
  const auto s16 = storeP(surface(2, 1, Channel::S16, 2), std::vector<int16_t>(4, 7),
                          {uint32_t(-40000), 40000, 9, 9, uint32_t(-5), 12, 9, 9});
  EXPECT_EQ(s16, (std::vector<int16_t>{-32768, 32767, -5, 12}));
  // f16 x 1: the f32 word toward zero (1 + 2^-11 to 1, 65520 to 65504, not inf), as the H200.
  const auto f16 = storeP(surface(2, 1, Channel::F16, 1), std::vector<uint16_t>(2, 0),
                          {fp::bits(1.0f + 0x1p-11f), 0, 0, 0, fp::bits(65520.0f), 0, 0, 0});
  EXPECT_EQ(f16, (std::vector<uint16_t>{0x3c00, 0x7bff}));
  // A NaN keeps its payload's top bits, unquieted.
  EXPECT_EQ(isa::tex::formattedChannel(Channel::F16, 0x7fbce68du), 0x7de7u);
  EXPECT_EQ(isa::tex::formattedChannel(Channel::F32, 0x7fc00001u), 0x7fc00001u);
}

// sust.p of f32 words into UNORM/SNORM arrays, lines of the chip's sustnorm section
// (texture_forms.chip.txt.xz): the words and the bytes the chip stored, in memory order.
TEST(TextureForms, SustPConvertsFloatsToNormalizedFormats) {
  const struct {
    Channel channel;
    std::vector<uint32_t> words;  // four samples' v4 words
    std::vector<uint8_t> bytes;   // as the chip stored them
  } cases[] = {{Channel::U8,
                {0xbf9cd0f6, 0x3e4acacb, 0x3f800000, 0xff800000, 0xbfbde6dc, 0x3f7e7e7e, 0x3ed9a478,
                 0xbf5584b1},
                {0x00, 0x32, 0xff, 0x00, 0x00, 0xfd, 0x6c, 0x00}},
               {Channel::S8,
                {0xbe725a00, 0x3f8b4b4b, 0x80000000, 0x00000000, 0x3f165604, 0xbdeef4a0, 0x3fa06060,
                 0x3f520758, 0x7fc00000, 0xbf000000, 0x3f804040, 0xbf936596, 0xbde428a0, 0xbf9d918e,
                 0xbdab14c0, 0x7f800000},
                {0xe2, 0x7f, 0x00, 0x00, 0x4b, 0xf1, 0x7f, 0x68, 0x00, 0xc1, 0x7f, 0x81, 0xf2, 0x81,
                 0xf5, 0x7f}},
               {Channel::U16,
                {0x7f800000, 0x3a5e00de, 0x3be240e2, 0xbf368d7f, 0x3f800000, 0xbd99dfa0, 0x3f173d60,
                 0x3b8c408c},
                {0xff, 0xff, 0x37, 0x00, 0xc4, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x3d, 0x97,
                 0x18, 0x01}},
               {Channel::S16,
                {0xbfac945c, 0x3bbc40bc, 0xbe7fe600, 0x3be240e2, 0x80000000, 0x3f000000, 0x3b6880e9,
                 0x3f000000},
                {0x01, 0x80, 0xbc, 0x00, 0x03, 0xe0, 0xe2, 0x00, 0x00, 0x00, 0xff, 0x3f, 0x74, 0x00,
                 0xff, 0x3f}}};
  for (const auto& c : cases) {
    Object o = surface(uint32_t(c.words.size() / 4), 1, c.channel, 4);
    o.normalizedFormat = 1;
    EXPECT_EQ(storeP(o, std::vector<uint8_t>(c.bytes.size(), 0xa5), c.words), c.bytes)
        << int(c.channel);
  }
  // The rule's edges: ties toward zero in magnitude (0.5 of 255 is 127, of -127 is -63), a value
  // 2^-13 past the u8 tie still rounds down (cut to 12 fractional bits), NaN and -0 store 0.
  using isa::tex::normalizedChannel;
  EXPECT_EQ(normalizedChannel(Channel::U8, fp::bits(0.5f)), 127u);
  EXPECT_EQ(normalizedChannel(Channel::S8, fp::bits(-0.5f)), 0xc1u);
  EXPECT_EQ(normalizedChannel(Channel::U8, fp::bits(127.5f / 255 + 0x1p-13f)), 127u);
  EXPECT_EQ(normalizedChannel(Channel::U8, fp::bits(127.5f / 255 + 0x1p-11f)), 128u);
  EXPECT_EQ(normalizedChannel(Channel::S16, fp::bits(-1.0f)), 0x8001u);
  EXPECT_EQ(normalizedChannel(Channel::U16, 0x7fc00000u), 0u);
  EXPECT_EQ(normalizedChannel(Channel::S8, 0x80000000u), 0u);
}

TEST(TextureForms, SustPOutsideTrapsClampsOrDrops) {
  const std::string ptx = kHeader + R"(
.visible .entry st(.param .u64 s, .param .u32 mode)
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  ld.param.u32 %r1, [mode];
  mov.u32 %r2, 5;
  mov.u32 %r3, 9;
  setp.eq.u32 %p, %r1, 0;
  @%p sust.p.1d.b32.trap [%rd1, {%r2}], %r3;
  setp.eq.u32 %p, %r1, 1;
  @%p sust.p.1d.b32.clamp [%rd1, {%r2}], %r3;
  setp.eq.u32 %p, %r1, 2;
  @%p sust.p.1d.b32.zero [%rd1, {%r2}], %r3;
  ret;
}
)";
  for (uint32_t mode = 0; mode < 3; ++mode) {
    PtxRunner r(ptx);
    const auto surf = makeObject(surface(4, 1, Channel::U32, 1), std::vector<uint32_t>(4, 1));
    const uint64_t s = r.buffer<uint8_t>(surf.size(), surf);
    auto res = r.launch("st", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(s), PtxRunner::u32(mode)});
    if (mode == 0) {
      ASSERT_TRUE(res.fault);
      EXPECT_EQ(res.fault->kind, sim::FaultKind::OutOfBounds);  // an illegal address
      EXPECT_NE(res.fault->message.find("x 5 samples"), std::string::npos) << res.fault->message;
      continue;
    }
    ASSERT_FALSE(res.fault) << res.fault->describe("st.ptx");
    EXPECT_EQ(
        r.read<uint32_t>(s + isa::tex::kDescriptorBytes, 4),
        mode == 1 ? (std::vector<uint32_t>{1, 1, 1, 9}) : (std::vector<uint32_t>{1, 1, 1, 1}));
  }
}

TEST(TextureForms, SuredPReducesAsTheFormatsSignedness) {
  const std::string ptx = kHeader + R"(
.visible .entry red(.param .u64 u, .param .u64 s, .param .u64 w)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [u];
  ld.param.u64 %rd2, [s];
  ld.param.u64 %rd3, [w];
  mov.u32 %r1, %tid.x;
  sub.s32 %r2, %r1, 16;
  mov.u32 %r3, 1;
  sured.p.max.1d.b32.trap [%rd1, {%r3}], %r2;
  sured.p.max.1d.b32.trap [%rd2, {%r3}], %r2;
  cvt.s64.s32 %rd4, %r2;
  sured.p.min.1d.b64.trap [%rd3, {%r3}], %rd4;
  ret;
}
)";
  PtxRunner r(ptx);
  const auto u = makeObject(surface(2, 1, Channel::U32, 1), std::vector<uint32_t>{0, 3});
  const auto s = makeObject(surface(2, 1, Channel::S32, 1), std::vector<int32_t>{0, 3});
  const auto w = makeObject(surface(2, 1, Channel::S32, 2), std::vector<int32_t>{0, 0, 3, 0});
  const uint64_t du = r.buffer<uint8_t>(u.size(), u), ds = r.buffer<uint8_t>(s.size(), s);
  const uint64_t dw = r.buffer<uint8_t>(w.size(), w);
  auto res = r.launch("red", {1, 1, 1}, {32, 1, 1},
                      {PtxRunner::ptr(du), PtxRunner::ptr(ds), PtxRunner::ptr(dw)});
  ASSERT_FALSE(res.fault) << res.fault->describe("r.ptx");
  // Lanes -16 .. 15 at sample 1: unsigned, -1 is the largest; signed, 15 is.
  EXPECT_EQ(r.read<uint32_t>(du + isa::tex::kDescriptorBytes, 2),
            (std::vector<uint32_t>{0, 0xffffffffu}));
  EXPECT_EQ(r.read<int32_t>(ds + isa::tex::kDescriptorBytes, 2), (std::vector<int32_t>{0, 15}));
  // .b64 on an s32 x 2 sample: one signed 64-bit value, -16 the least.
  EXPECT_EQ(r.read<int64_t>(dw + isa::tex::kDescriptorBytes, 2), (std::vector<int64_t>{0, -16}));
}

// sured.p counts x in words of its operand's size, not in samples (the H200, the texture forms
// probe's suredodd: .b32 add on a u32 x 2 surface changes word x of the row).
TEST(TextureForms, SuredPCountsXInWordsOfItsOperand) {
  const std::string ptx = kHeader + R"(
.visible .entry red(.param .u64 s)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [s];
  mov.u32 %r1, 1;
  mov.u32 %r2, 5;
  sured.p.add.1d.b32.trap [%rd1, {%r1}], %r2;
  ret;
}
)";
  PtxRunner r(ptx);
  const auto s = makeObject(surface(2, 1, Channel::U32, 2), std::vector<uint32_t>{1, 2, 3, 4});
  const uint64_t d = r.buffer<uint8_t>(s.size(), s);
  auto res = r.launch("red", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(d)});
  ASSERT_FALSE(res.fault) << res.fault->describe("r.ptx");
  EXPECT_EQ(r.read<uint32_t>(d + isa::tex::kDescriptorBytes, 4),
            (std::vector<uint32_t>{1, 7, 3, 4}));
}

}  // namespace
}  // namespace warpsim
