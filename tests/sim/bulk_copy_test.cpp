// cp.async.bulk and TMA (cp.async.bulk.tensor): the bulk copy both ways with its mbarrier
// complete_tx accounting; tensor boxes in 1..3 dimensions against hand-computed placements
// (out-of-bounds zero and NaN fill, element strides, each swizzle, a store that skips what lies
// outside); cuTensorMapEncodeTiled's validation rules; and the faults for misuse.
#include <gtest/gtest.h>

#include <bit>

#include "isa/insns/tensor_map.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;
namespace tmap = isa::insns::tmap;

constexpr const char* kHeader = ".version 8.0\n.target sm_90a\n.address_size 64\n";

TEST(BulkCopy, GlobalToSharedCompletesTheMbarrierPhaseAndBack) {
  // Thread 0 arms the barrier with expect_tx 256, copies 256 bytes in; all wait on phase 0;
  // then thread 0 copies them out to a second buffer with a bulk_group store.
  const std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 src, .param .u64 dst, .param .u64 flag)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 128 .b8 buf[256];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  ld.param.u64 %rd6, [flag];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  mov.u32 %r3, bar;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r3], 1;
  bar.sync 0;
  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r3], 256;
  @%p1 mbarrier.test_wait.parity.shared::cta.b64 %p3, [%r3], 0;
  @%p1 selp.u32 %r5, 1, 0, %p3;
  @%p1 st.global.u32 [%rd6], %r5;
  @%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 256, [%r3];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;
  @!%p2 bra WAIT;
  @%p1 cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r2], 256;
  @%p1 cp.async.bulk.commit_group;
  @%p1 cp.async.bulk.wait_group.read 0;
  ret;
}
)";
  PtxRunner r(ptx);
  std::vector<uint32_t> in(64);
  for (unsigned i = 0; i < 64; ++i) in[i] = 0xA0000000u + i * 7;
  const uint64_t src = r.buffer<uint32_t>(64, in), dst = r.buffer<uint32_t>(64),
                 flag = r.buffer<uint32_t>(1, {7});
  auto res = r.launch("k", {1, 1, 1}, {64, 1, 1},
                      {PtxRunner::ptr(src), PtxRunner::ptr(dst), PtxRunner::ptr(flag)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  EXPECT_EQ(r.read<uint32_t>(dst, 64), in);
  // After the arrival, before the bytes: the phase is still open (tx-count pending).
  EXPECT_EQ(r.read<uint32_t>(flag, 1)[0], 0u);
}

TEST(BulkCopy, ASizeNotAMultipleOf16Traps) {
  const std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 src)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 128 .b8 buf[256];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [src];
  mov.u32 %r2, buf;
  mov.u32 %r3, bar;
  mbarrier.init.shared::cta.b64 [%r3], 1;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 24, [%r3];
  ret;
}
)";
  PtxRunner r(ptx);
  const uint64_t src = r.buffer<uint32_t>(64);
  auto res = r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(src)});
  ASSERT_TRUE(res.fault.has_value());
  EXPECT_NE(res.fault->message.find("multiple of 16"), std::string::npos) << res.fault->message;
}

// ---- tensor maps -----------------------------------------------------------------------------

struct MapArgs {
  unsigned type = 7;  // FLOAT32
  unsigned rank = 2;
  std::vector<uint64_t> dims, strides = {};
  std::vector<uint32_t> box, estrides = {};
  unsigned swizzle = 0, oobFill = 0;
};

std::string encode(tmap::TensorMap& m, const MapArgs& a, uint64_t address) {
  std::vector<uint32_t> es = a.estrides;
  if (es.empty()) es.assign(a.rank, 1);
  return tmap::encodeTiled(m, a.type, a.rank, address, a.dims.data(), a.strides.data(),
                           a.box.data(), es.data(), 0, a.swizzle, 0, a.oobFill);
}

// The box load: thread 0 arms the barrier and issues the copy; every thread waits, then the
// box's 32-bit words are copied out to `out` in order.
std::string loadProgram(unsigned rank, unsigned boxBytes) {
  std::string coords = "{%r1";
  for (unsigned d = 1; d < rank; ++d) coords += ", %r" + std::to_string(10 + d);
  coords += "}";
  std::string s = std::string(kHeader) +
                  ".visible .entry k(.param .u64 tmap, .param .u64 out, .param .u32 c0, .param "
                  ".u32 c1, .param .u32 c2)\n{\n"
                  "  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<4>;\n"
                  "  .shared .align 1024 .b8 box[" +
                  std::to_string(boxBytes) + "];\n  .shared .align 8 .b64 bar;\n";
  s += R"(  ld.param.u64 %rd1, [tmap];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [c0];
  ld.param.u32 %r11, [c1];
  ld.param.u32 %r12, [c2];
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, box;
  mov.u32 %r5, bar;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r5], 1;
  bar.sync 0;
  @%p1 prefetch.tensormap [%rd1];
)";
  s += "  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r5], " + std::to_string(boxBytes) +
       ";\n";
  s += "  @%p1 cp.async.bulk.tensor." + std::to_string(rank) +
       "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r4], [%rd1, " + coords +
       "], [%r5];\n";
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

// Runs a box load of f32 `tensor` (element i = 1000 + i) and returns the box's words.
std::vector<uint32_t> loadBox(const MapArgs& a, std::vector<int32_t> coords,
                              sim::LaunchResult* result = nullptr) {
  uint64_t elems = 1;
  for (uint64_t d : a.dims) elems *= d;
  tmap::TensorMap probe;
  EXPECT_EQ(encode(probe, a, 0x10000), "");
  const unsigned bytes = tmap::boxBytes(probe);
  PtxRunner r(loadProgram(a.rank, bytes));
  std::vector<float> t(elems);
  for (uint64_t i = 0; i < elems; ++i) t[i] = float(1000 + i);
  const uint64_t g = r.buffer<float>(elems, t);
  tmap::TensorMap m;
  EXPECT_EQ(encode(m, a, g), "");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  const uint64_t mp = r.buffer<uint8_t>(128, mb), out = r.buffer<uint32_t>(bytes / 4);
  coords.resize(3, 0);
  auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                      {PtxRunner::ptr(mp), PtxRunner::ptr(out), PtxRunner::u32(uint32_t(coords[0])),
                       PtxRunner::u32(uint32_t(coords[1])), PtxRunner::u32(uint32_t(coords[2]))});
  if (result) *result = res;
  if (res.fault) return {};
  return r.read<uint32_t>(out, bytes / 4);
}

uint32_t f(float v) { return std::bit_cast<uint32_t>(v); }

TEST(TensorCopy, A2dBoxWithOutOfBoundsZeros) {
  // A 20 x 9 f32 tensor (rows of 80 bytes, stride 80), box 8 x 4 at (16, 7): columns 20..23 and
  // rows 9..10 lie outside and read as zero.
  MapArgs a{.dims = {20, 9}, .strides = {80}, .box = {8, 4}};
  const auto v = loadBox(a, {16, 7});
  ASSERT_EQ(v.size(), 32u);
  for (unsigned y = 0; y < 4; ++y)
    for (unsigned x = 0; x < 8; ++x) {
      const unsigned gx = 16 + x, gy = 7 + y;
      const uint32_t want = (gx < 20 && gy < 9) ? f(float(1000 + gy * 20 + gx)) : 0;
      EXPECT_EQ(v[y * 8 + x], want) << x << "," << y;
    }
}

TEST(TensorCopy, NegativeCoordinatesAndNaNFill) {
  MapArgs a{.dims = {20, 9}, .strides = {80}, .box = {4, 2}, .oobFill = 1};
  const auto v = loadBox(a, {-2, -1});
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[0], 0x7FFFFFFFu);      // (-2, -1)
  EXPECT_EQ(v[4 + 1], 0x7FFFFFFFu);  // (-1, 0)
  EXPECT_EQ(v[4 + 2], f(1000.0f));   // (0, 0)
  EXPECT_EQ(v[4 + 3], f(1001.0f));
}

TEST(TensorCopy, A3dBoxWithAnElementStride) {
  // 8 x 6 x 3, box 4 x 4 x 2 with element stride 2 along dimension 1: rows y, y + 2.
  MapArgs a{
      .rank = 3, .dims = {8, 6, 3}, .strides = {32, 192}, .box = {4, 4, 2}, .estrides = {1, 2, 1}};
  const auto v = loadBox(a, {2, 1, 1});
  ASSERT_EQ(v.size(), 16u);
  for (unsigned z = 0; z < 2; ++z)
    for (unsigned y = 0; y < 2; ++y)
      for (unsigned x = 0; x < 4; ++x) {
        const unsigned gx = 2 + x, gy = 1 + 2 * y, gz = 1 + z;
        const uint32_t want = gz < 3 ? f(float(1000 + gz * 48 + gy * 8 + gx)) : 0;
        EXPECT_EQ(v[(z * 2 + y) * 4 + x], want) << x << "," << y << "," << z;
      }
}

TEST(TensorCopy, EachSwizzleMovesSixteenByteUnitsByRow) {
  // Rows of W bytes (W / 4 f32), 8 rows: unit c of row r (at byte r * W of the 1024-aligned
  // box) lands at unit c ^ ((r * W / 128) % (W / 16)): the address bits 7.. select the XOR.
  for (unsigned sw = 1; sw <= 3; ++sw) {
    const unsigned w = 16u << sw, cols = w / 4;
    MapArgs a{.dims = {64, 16}, .strides = {256}, .box = {cols, 8}, .swizzle = sw};
    const auto v = loadBox(a, {0, 0});
    ASSERT_EQ(v.size(), cols * 8) << sw;
    const unsigned units = w / 16;
    for (unsigned r = 0; r < 8; ++r)
      for (unsigned x = 0; x < cols; ++x) {
        const unsigned unit = (x / 4) ^ ((r * w / 128) % units);
        EXPECT_EQ(v[r * cols + unit * 4 + x % 4], f(float(1000 + r * 64 + x)))
            << "swizzle " << sw << " row " << r << " col " << x;
      }
  }
}

TEST(TensorCopy, A1dStoreSkipsWhatLiesOutside) {
  // Shared words 0..15 (values 500 + i) stored as a 1d box of 16 f32 at x = 12 of a 20-element
  // tensor: elements 12..19 written, the rest of the box outside.
  const std::string ptx = std::string(kHeader) + R"(
.visible .entry k(.param .u64 tmap)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 128 .b8 box[64];
  ld.param.u64 %rd1, [tmap];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, box;
  shl.b32 %r3, %r1, 2;
  add.u32 %r3, %r2, %r3;
  add.u32 %r4, %r1, 500;
  st.shared.u32 [%r3], %r4;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.eq.u32 %p1, %r1, 0;
  mov.u32 %r5, 12;
  @%p1 cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%rd1, {%r5}], [%r2];
  @%p1 cp.async.bulk.commit_group;
  @%p1 cp.async.bulk.wait_group 0;
  ret;
}
)";
  PtxRunner r(ptx);
  const uint64_t g = r.buffer<uint32_t>(24, std::vector<uint32_t>(24, 7));
  MapArgs a{.type = 2, .rank = 1, .dims = {20}, .box = {16}};
  tmap::TensorMap m;
  ASSERT_EQ(encode(m, a, g), "");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  const uint64_t mp = r.buffer<uint8_t>(128, mb);
  auto res = r.launch("k", {1, 1, 1}, {16, 1, 1}, {PtxRunner::ptr(mp)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto v = r.read<uint32_t>(g, 24);
  for (unsigned i = 0; i < 24; ++i) EXPECT_EQ(v[i], i >= 12 && i < 20 ? 500 + (i - 12) : 7u) << i;
}

TEST(TensorCopy, MisuseFaults) {
  // A rank that is not the map's, and bytes that are not a tensor map.
  sim::LaunchResult res;
  MapArgs a{.rank = 3, .dims = {8, 6, 3}, .strides = {32, 192}, .box = {4, 4, 2}};
  tmap::TensorMap m;
  ASSERT_EQ(encode(m, a, 0x1000), "");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  {
    PtxRunner r(loadProgram(2, 128));
    const uint64_t mp = r.buffer<uint8_t>(128, mb), out = r.buffer<uint32_t>(32);
    res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                   {PtxRunner::ptr(mp), PtxRunner::ptr(out), PtxRunner::u32(0), PtxRunner::u32(0),
                    PtxRunner::u32(0)});
    ASSERT_TRUE(res.fault.has_value());
    EXPECT_NE(res.fault->message.find("has rank 3"), std::string::npos) << res.fault->message;
  }
  {
    PtxRunner r(loadProgram(2, 128));
    const uint64_t mp = r.buffer<uint8_t>(128), out = r.buffer<uint32_t>(32);
    res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                   {PtxRunner::ptr(mp), PtxRunner::ptr(out), PtxRunner::u32(0), PtxRunner::u32(0),
                    PtxRunner::u32(0)});
    ASSERT_TRUE(res.fault.has_value());
    EXPECT_NE(res.fault->message.find("cuTensorMapEncodeTiled"), std::string::npos)
        << res.fault->message;
  }
}

TEST(TensorMapEncode, TheDriverRulesAreChecked) {
  tmap::TensorMap m;
  auto err = [&](MapArgs a, uint64_t address = 0x1000) { return encode(m, a, address); };
  const MapArgs ok{.dims = {64, 16}, .strides = {256}, .box = {32, 8}};
  EXPECT_EQ(err(ok), "");
  EXPECT_EQ(tmap::boxBytes(m), 32u * 8 * 4);
  EXPECT_NE(err(ok, 0x1008).find("16-byte aligned"), std::string::npos);
  MapArgs a = ok;
  a.box = {32, 0};
  EXPECT_NE(err(a).find("boxDim[1] must be 1..256"), std::string::npos);
  a = ok;
  a.box = {2, 8};  // 8 bytes
  EXPECT_NE(err(a).find("multiple of 16 bytes"), std::string::npos);
  a = ok;
  a.strides = {200};
  EXPECT_NE(err(a).find("globalStrides[0]"), std::string::npos);
  a = ok;
  a.swizzle = 2;  // 64B, box inner 128 bytes
  EXPECT_NE(err(a).find("exceeds the swizzle span of 64"), std::string::npos);
  a = ok;
  a.type = 0, a.oobFill = 1;
  EXPECT_NE(err(a).find("floating-point"), std::string::npos);
  a = ok;
  a.estrides = {1, 9};
  EXPECT_NE(err(a).find("elementStrides[1]"), std::string::npos);
  a = ok;
  a.rank = 6;
  a.dims = {1, 1, 1, 1, 1, 1};
  a.box = {4, 1, 1, 1, 1, 1};
  a.strides = {16, 16, 16, 16, 16};
  EXPECT_NE(err(a).find("tensorRank"), std::string::npos);
}

}  // namespace
}  // namespace warpsim
