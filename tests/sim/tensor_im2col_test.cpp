// TMA im2col mode (cp.async.bulk.tensor.{3..5}d....im2col, maps from cuTensorMapEncodeIm2col's
// encoding, isa/insns/tensor_map.h) against a plain reference written here from the PTX
// manual's description: pixelsPerColumn pixels from the tensor coordinates' (w, h, d, n), each
// advancing along W by its traversal stride within the bounding box [lowerCorner, dim - 1 +
// upperCorner] and wrapping to the next H (D, N) at its end; each pixel's channelsPerPixel
// channels from c, read at the pixel's position plus the im2col offsets; what lies outside the
// tensor is the fill. And the encoder's rules.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "isa/insns/tensor_map.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;
namespace tmap = isa::insns::tmap;

struct Im2colArgs {
  unsigned rank = 4;
  std::vector<uint64_t> dims;          // C, W, (H, (D,)) N
  std::vector<int> lower, upper;       // per spatial dimension, W first
  unsigned channels = 8, pixels = 16;  // channelsPerPixel, pixelsPerColumn
  std::vector<uint32_t> estrides = {};  // empty: all 1
  unsigned oobFill = 0;
};

std::vector<uint64_t> stridesOf(const Im2colArgs& a) {  // dense f32
  std::vector<uint64_t> s;
  uint64_t b = 4;
  for (unsigned d = 0; d + 1 < a.rank; ++d) s.push_back(b *= a.dims[d]);
  return s;
}

std::string encode(tmap::TensorMap& m, const Im2colArgs& a, uint64_t address) {
  std::vector<uint32_t> es = a.estrides;
  if (es.empty()) es.assign(a.rank, 1);
  const std::vector<uint64_t> s = stridesOf(a);
  return tmap::encodeIm2col(m, 7, a.rank, address, a.dims.data(), s.data(), a.lower.data(),
                            a.upper.data(), a.channels, a.pixels, es.data(), 0, 0, 0, a.oobFill);
}

// The reference: the box's f32 words, element (c, w, h, d, n) of the tensor being 1000 + its
// linear index.
std::vector<uint32_t> reference(const Im2colArgs& a, const std::vector<int32_t>& coord,
                                const std::vector<int32_t>& offsets) {
  const unsigned s = a.rank - 2;
  std::vector<uint32_t> es = a.estrides;
  if (es.empty()) es.assign(a.rank, 1);
  std::vector<int64_t> pos(coord.begin() + 1, coord.end());  // spatial..., n
  std::vector<uint32_t> out;
  for (unsigned p = 0; p < a.pixels; ++p) {
    for (unsigned j = 0; j < a.channels; ++j) {
      std::vector<int64_t> at = {coord[0] + int64_t(j)};
      for (unsigned i = 0; i < s; ++i) at.push_back(pos[i] + offsets[i]);
      at.push_back(pos[s]);
      bool inside = true;
      uint64_t linear = 0, scale = 1;
      for (unsigned d = 0; d < a.rank; ++d) {
        if (at[d] < 0 || at[d] >= int64_t(a.dims[d])) inside = false;
        linear += uint64_t(at[d]) * scale;
        scale *= a.dims[d];
      }
      out.push_back(inside ? std::bit_cast<uint32_t>(float(1000 + linear))
                           : (a.oobFill ? 0x7FFFFFFFu : 0));
    }
    // The next pixel: W by its stride; past the bounding box's end, back to its start and on
    // to the next H (then D, then N).
    for (unsigned i = 0; i <= s; ++i) {
      pos[i] += es[i + 1];
      if (i == s) break;
      const int64_t hi = int64_t(a.dims[i + 1]) - 1 + a.upper[i];
      if (pos[i] <= hi) break;
      pos[i] = a.lower[i];
    }
  }
  return out;
}

// Thread 0 arms the mbarrier and issues the im2col load; every thread waits, then the box's
// words are copied out.
std::string program(unsigned rank, unsigned boxBytes) {
  std::string coords = "{%r20";
  for (unsigned d = 1; d < rank; ++d) coords += ", %r" + std::to_string(20 + d);
  coords += "}";
  std::string offs = "{%rs1";
  for (unsigned i = 1; i + 2 < rank; ++i) offs += ", %rs" + std::to_string(1 + i);
  offs += "}";
  std::string s =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 tmap, .param .u64 out, .param .u64 args)\n{\n"
      "  .reg .b32 %r<32>;\n  .reg .b64 %rd<8>;\n  .reg .b16 %rs<4>;\n  .reg .pred %p<4>;\n"
      "  .shared .align 1024 .b8 box[" +
      std::to_string(boxBytes) + "];\n  .shared .align 8 .b64 bar;\n";
  s += R"(  ld.param.u64 %rd1, [tmap];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd6, [args];
  ld.global.u32 %r20, [%rd6];
  ld.global.u32 %r21, [%rd6+4];
  ld.global.u32 %r22, [%rd6+8];
  ld.global.u32 %r23, [%rd6+12];
  ld.global.u32 %r24, [%rd6+16];
  ld.global.u16 %rs1, [%rd6+20];
  ld.global.u16 %rs2, [%rd6+24];
  ld.global.u16 %rs3, [%rd6+28];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, box;
  mov.u32 %r5, bar;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r5], 1;
  bar.sync 0;
)";
  s += "  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r5], " + std::to_string(boxBytes) +
       ";\n";
  s += "  @%p1 cp.async.bulk.tensor." + std::to_string(rank) +
       "d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r4], [%rd1, " + coords +
       "], [%r5], " + offs + ";\n";
  s += R"(WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r5], 0;
  @!%p2 bra WAIT;
  mov.u32 %r6, %r3;
LOOP:
)";
  s += "  setp.ge.u32 %p3, %r6, " + std::to_string(boxBytes / 4) + ";\n";
  s += R"(  @%p3 bra END;
  shl.b32 %r7, %r6, 2;
  add.u32 %r8, %r4, %r7;
  ld.shared.b32 %r10, [%r8];
  mul.wide.u32 %rd4, %r6, 4;
  add.s64 %rd5, %rd2, %rd4;
  st.global.b32 [%rd5], %r10;
  add.u32 %r6, %r6, 32;
  bra LOOP;
END:
  ret;
}
)";
  return s;
}

// Runs the load; the box's words, or the fault's message in `fault`.
std::vector<uint32_t> load(const Im2colArgs& a, std::vector<int32_t> coord,
                           std::vector<int32_t> offsets, std::string* fault = nullptr) {
  uint64_t elems = 1;
  for (uint64_t d : a.dims) elems *= d;
  const unsigned bytes = a.pixels * a.channels * 4;
  PtxRunner r(program(a.rank, bytes), "im2col.ptx");
  std::vector<float> t(elems);
  for (uint64_t i = 0; i < elems; ++i) t[i] = float(1000 + i);
  const uint64_t g = r.buffer<float>(elems, t);
  tmap::TensorMap m;
  EXPECT_EQ(encode(m, a, g), "");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  const uint64_t mp = r.buffer<uint8_t>(128, mb), out = r.buffer<uint32_t>(bytes / 4);
  coord.resize(5, 0);
  offsets.resize(3, 0);
  std::vector<uint32_t> args(8);
  for (unsigned i = 0; i < 5; ++i) args[i] = uint32_t(coord[i]);
  for (unsigned i = 0; i < 3; ++i) args[5 + i] = uint32_t(offsets[i]) & 0xFFFF;
  const uint64_t ab = r.buffer<uint32_t>(8, args);
  auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                      {PtxRunner::ptr(mp), PtxRunner::ptr(out), PtxRunner::ptr(ab)});
  if (res.fault) {
    if (fault) *fault = res.fault->message;
    return {};
  }
  return r.read<uint32_t>(out, bytes / 4);
}

TEST(TensorIm2col, A4dNhwcColumnWithPaddingAndAFilterTap) {
  // C 8, W 5, H 4, N 2; a 3 x 3 filter with padding 1: corners -1 (lower) and -1 (upper, the
  // last top-left corner of the filter is at dim - 2). 16 pixels from (w, h) = (-1, -1) at tap
  // (1, 2): the first 16 of the 5 x 4 positions of image 0.
  Im2colArgs a{.rank = 4, .dims = {8, 5, 4, 2}, .lower = {-1, -1}, .upper = {-1, -1}};
  const std::vector<int32_t> coord = {0, -1, -1, 0}, offs = {1, 2};
  EXPECT_EQ(load(a, coord, offs), reference(a, coord, offs));
}

TEST(TensorIm2col, TheColumnWrapsIntoTheNextImage) {
  // From (w, h) = (2, 2) of image 0: (3, 2) ends its bounding box, so pixel 2 is image 1's
  // first, (-1, -1): outside, zeros; pixel 8 is (0, 0) of image 1: element 1000 + 160.
  Im2colArgs a{.rank = 4, .dims = {8, 5, 4, 2}, .lower = {-1, -1}, .upper = {-1, -1}};
  const std::vector<int32_t> coord = {0, 2, 2, 0}, offs = {0, 0};
  const auto got = load(a, coord, offs);
  EXPECT_EQ(got, reference(a, coord, offs));
  ASSERT_EQ(got.size(), 16u * 8);
  EXPECT_EQ(got[1 * 8], std::bit_cast<uint32_t>(float(1000 + 3 * 8 + 2 * 40)));
  EXPECT_EQ(got[2 * 8], 0u);
  EXPECT_EQ(got[8 * 8], std::bit_cast<uint32_t>(float(1000 + 160)));
}

TEST(TensorIm2col, A3dColumnWithATraversalStrideAndNaNFill) {
  // C 4, W 20, N 2; W stride 2 (a strided convolution), 8 pixels from w = -2 at tap 3.
  Im2colArgs a{.rank = 3,
               .dims = {4, 20, 2},
               .lower = {-2},
               .upper = {-3},
               .channels = 4,
               .pixels = 8,
               .estrides = {1, 2, 1},
               .oobFill = 1};
  const std::vector<int32_t> coord = {0, -2, 0}, offs = {3};
  EXPECT_EQ(load(a, coord, offs), reference(a, coord, offs));
}

TEST(TensorIm2col, A5dColumnReadsChannelsFromAnOffset) {
  // C 8, W 3, H 3, D 2, N 1: channels 4..7 of 12 pixels from (0, 0, 0) at tap (1, 1, 1).
  Im2colArgs a{.rank = 5,
               .dims = {8, 3, 3, 2, 1},
               .lower = {0, 0, 0},
               .upper = {0, 0, 0},
               .channels = 4,
               .pixels = 12};
  const std::vector<int32_t> coord = {4, 0, 0, 0, 0}, offs = {1, 1, 1};
  EXPECT_EQ(load(a, coord, offs), reference(a, coord, offs));
}

TEST(TensorIm2col, ATiledMapIsRefusedByTheIm2colForm) {
  tmap::TensorMap m;
  const uint64_t dims[4] = {8, 5, 4, 2}, strides[3] = {32, 160, 640};
  const uint32_t box[4] = {8, 4, 4, 1}, es[4] = {1, 1, 1, 1};
  ASSERT_EQ(tmap::encodeTiled(m, 7, 4, 0x10000, dims, strides, box, es, 0, 0, 0, 0), "");
  const unsigned bytes = 16 * 8 * 4;
  PtxRunner r(program(4, bytes), "im2col.ptx");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  const uint64_t mp = r.buffer<uint8_t>(128, mb), out = r.buffer<uint32_t>(bytes / 4),
                 ab = r.buffer<uint32_t>(8);
  auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                      {PtxRunner::ptr(mp), PtxRunner::ptr(out), PtxRunner::ptr(ab)});
  ASSERT_TRUE(res.fault.has_value());
  EXPECT_NE(res.fault->message.find("cuTensorMapEncodeIm2col"), std::string::npos)
      << res.fault->message;
}

TEST(TensorIm2col, BytesThatAreNoIm2colMapAreRefused) {
  // A kernel's own bytes with the magic: an im2col map of 0 pixels, or of 2 dimensions.
  tmap::TensorMap m, probe;
  const Im2colArgs ok{.rank = 4, .dims = {8, 5, 4, 2}, .lower = {-1, -1}, .upper = {-1, -1}};
  ASSERT_EQ(encode(m, ok, 0x1000), "");
  uint8_t bytes[128];
  tmap::store(m, bytes);
  EXPECT_TRUE(tmap::load(bytes, probe));
  m.boxDim[1] = 0;
  tmap::store(m, bytes);
  EXPECT_FALSE(tmap::load(bytes, probe));
  ASSERT_EQ(encode(m, ok, 0x1000), "");
  m.rank = 2;
  tmap::store(m, bytes);
  EXPECT_FALSE(tmap::load(bytes, probe));
}

TEST(TensorIm2col, TheEncoderChecksTheDriversRules) {
  tmap::TensorMap m;
  const Im2colArgs ok{.rank = 4, .dims = {8, 5, 4, 2}, .lower = {-1, -1}, .upper = {-1, -1}};
  EXPECT_EQ(encode(m, ok, 0x1000), "");
  EXPECT_EQ(tmap::boxBytes(m), 16u * 8 * 4);
  Im2colArgs a = ok;
  a.rank = 2, a.dims = {8, 5};
  EXPECT_NE(encode(m, a, 0x1000).find("tensorRank must be 3, 4 or 5"), std::string::npos);
  a = ok;
  a.lower = {-129, 0};
  EXPECT_NE(encode(m, a, 0x1000).find("pixelBoxLowerCorner[0] must be in [-128, 127]"),
            std::string::npos)
      << encode(m, a, 0x1000);
  a = ok;
  a.channels = 300;
  EXPECT_NE(encode(m, a, 0x1000).find("channelsPerPixel"), std::string::npos);
  a = ok;
  a.channels = 2;  // 8 bytes
  EXPECT_NE(encode(m, a, 0x1000).find("multiple of 16 bytes"), std::string::npos);
  a = ok;
  a.pixels = 1025;
  EXPECT_NE(encode(m, a, 0x1000).find("pixelsPerColumn"), std::string::npos);
  a = ok;
  a.lower = {3, 0}, a.upper = {-3, 0};  // W box [3, 1]: empty
  EXPECT_NE(encode(m, a, 0x1000).find("non-zero area"), std::string::npos);
}

}  // namespace
}  // namespace warpsim
