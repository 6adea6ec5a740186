// tensormap.replace (isa/insns/tensor_map_replace.cpp): a tensor map built on the device field
// by field from 128 zero bytes in shared memory, copied to global memory and used by a TMA
// copy, as Triton's device-side descriptors are; and the replace of one field of a map the
// host encoded.
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

// Thread 0 zeroes 128 bytes of shared memory, replaces the fields of a 2-d f32 map over
// `tensor` (20 x 9, rows 80 bytes apart, box 8 x 4), copies it to `map` in global memory and
// loads the box at (16, 7) with it; the box goes to `out`.
constexpr const char* kBuildAndUse = R"(
.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 tensor, .param .u64 map, .param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .pred %p<4>;
  .shared .align 128 .b8 desc[128];
  .shared .align 128 .b8 box[128];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [tensor];
  ld.param.u64 %rd2, [map];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, desc;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  mov.u32 %r5, 0;
  st.shared.b32 [%r4], %r5;
  bar.sync 0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%r2], %rd1;
  @%p1 tensormap.replace.tile.rank.shared::cta.b1024.b32 [%r2], 1;
  @%p1 tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%r2], 7;
  @%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r2], 0, 8;
  @%p1 tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r2], 1, 4;
  @%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r2], 0, 20;
  @%p1 tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%r2], 1, 9;
  @%p1 tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%r2], 0, 80;
  @%p1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%r2], 0, 1;
  @%p1 tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%r2], 1, 1;
  @%p1 tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%r2], 0;
  @%p1 tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%r2], 0;
  bar.sync 0;
  ld.shared.b32 %r6, [%r4];
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd2, %rd4;
  st.global.b32 [%rd5], %r6;
  fence.proxy.tensormap::generic.release.gpu;
  bar.sync 0;
  fence.proxy.tensormap::generic.acquire.gpu [%rd2], 128;
  mov.u32 %r7, box;
  mov.u32 %r8, bar;
  @%p1 mbarrier.init.shared::cta.b64 [%r8], 1;
  bar.sync 0;
  mov.u32 %r9, 16;
  mov.u32 %r10, 7;
  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd6, [%r8], 128;
  @%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r7], [%rd2, {%r9, %r10}], [%r8];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r8], 0;
  @!%p2 bra WAIT;
  add.u32 %r11, %r7, %r3;
  ld.shared.b32 %r12, [%r11];
  add.s64 %rd7, %rd3, %rd4;
  st.global.b32 [%rd7], %r12;
  ret;
}
)";

// Runs kBuildAndUse (or a variant) and checks the map it left in global memory and the box.
void expectMapBuiltAndBoxCopied(const std::string& ptx) {
  PtxRunner r(ptx, "replace.ptx");
  std::vector<float> t(20 * 9);
  for (size_t i = 0; i < t.size(); ++i) t[i] = float(1000 + i);
  const uint64_t tensor = r.buffer<float>(t.size(), t);
  const uint64_t map = r.buffer<uint8_t>(128), out = r.buffer<uint32_t>(32);
  const auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                            {PtxRunner::ptr(tensor), PtxRunner::ptr(map), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->message;
  // The map in global memory: the fields as replaced, what cuTensorMapEncodeTiled would give.
  const auto bytes = r.read<uint8_t>(map, 128);
  tmap::TensorMap m, want;
  ASSERT_TRUE(tmap::load(bytes.data(), m));
  const uint64_t dims[2] = {20, 9}, strides[1] = {80};
  const uint32_t box[2] = {8, 4}, elem[2] = {1, 1};
  ASSERT_EQ(tmap::encodeTiled(want, 7, 2, tensor, dims, strides, box, elem, 0, 0, 0, 0), "");
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.end()),
            std::vector<uint8_t>(reinterpret_cast<uint8_t*>(&want),
                                 reinterpret_cast<uint8_t*>(&want) + 128));
  // The box at (16, 7): columns 20..23 and rows 9..10 lie outside and read as zero.
  const auto v = r.read<uint32_t>(out, 32);
  for (unsigned y = 0; y < 4; ++y)
    for (unsigned x = 0; x < 8; ++x) {
      const unsigned gx = 16 + x, gy = 7 + y;
      const uint32_t w =
          gx < 20 && gy < 9 ? std::bit_cast<uint32_t>(float(1000 + gy * 20 + gx)) : 0;
      EXPECT_EQ(v[y * 8 + x], w) << x << "," << y;
    }
}

TEST(TensormapReplace, AMapBuiltFieldByFieldFromZerosCopiesABox) {
  expectMapBuiltAndBoxCopied(kBuildAndUse);
}

// Triton's way to publish the map (its TMA matmul, tests/recorded/triton/matmul_tma.ptx): one
// tensormap.cp_fenceproxy copies the 128 bytes from shared to global memory with the release.
TEST(TensormapReplace, CpFenceproxyCopiesTheEditedMapToGlobalMemory) {
  std::string ptx = kBuildAndUse;
  const std::string copy =
      "  ld.shared.b32 %r6, [%r4];\n"
      "  mul.wide.u32 %rd4, %r1, 4;\n"
      "  add.s64 %rd5, %rd2, %rd4;\n"
      "  st.global.b32 [%rd5], %r6;\n"
      "  fence.proxy.tensormap::generic.release.gpu;\n";
  const size_t at = ptx.find(copy);
  ASSERT_NE(at, std::string::npos);
  ptx.replace(at, copy.size(),
              "  mul.wide.u32 %rd4, %r1, 4;\n"
              "  @%p1 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu"
              ".sync.aligned [%rd2], [%r2], 128;\n");
  expectMapBuiltAndBoxCopied(ptx);
  // A size other than a map's 128 bytes is a kernel fault that says so.
  ptx.replace(ptx.find("[%r2], 128;"), 11, "[%r2], 64;");
  PtxRunner r(ptx, "replace.ptx");
  const uint64_t tensor = r.buffer<float>(180), map = r.buffer<uint8_t>(128),
                 out = r.buffer<uint32_t>(32);
  const auto bad = r.launch("k", {1, 1, 1}, {32, 1, 1},
                            {PtxRunner::ptr(tensor), PtxRunner::ptr(map), PtxRunner::ptr(out)});
  ASSERT_TRUE(bad.fault);
  EXPECT_NE(bad.fault->message.find("the size must be 128"), std::string::npos)
      << bad.fault->message;
}

// One field of a host-encoded map in global memory; a value out of range is a kernel fault
// naming the instruction and the rule.
constexpr const char* kReplaceOne = R"(
.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 map, .param .u32 box)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [map];
  ld.param.u32 %r1, [box];
  tensormap.replace.tile.box_dim.global.b1024.b32 [%rd1], 1, %r1;
  ret;
}
)";

TEST(TensormapReplace, OneFieldOfAHostMapAndAnOutOfRangeValue) {
  PtxRunner r(kReplaceOne, "one.ptx");
  tmap::TensorMap m;
  const uint64_t dims[2] = {64, 64}, strides[1] = {256};
  const uint32_t box[2] = {16, 16}, elem[2] = {1, 1};
  ASSERT_EQ(tmap::encodeTiled(m, 7, 2, 0x20000, dims, strides, box, elem, 0, 0, 0, 0), "");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  const uint64_t map = r.buffer<uint8_t>(128, mb);
  ASSERT_FALSE(
      r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(map), PtxRunner::u32(32)}).fault);
  tmap::TensorMap got;
  ASSERT_TRUE(tmap::load(r.read<uint8_t>(map, 128).data(), got));
  EXPECT_EQ(got.boxDim[1], 32u);
  EXPECT_EQ(got.boxDim[0], 16u);
  EXPECT_EQ(got.globalAddress, 0x20000u);
  const auto bad = r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(map), PtxRunner::u32(300)});
  ASSERT_TRUE(bad.fault);
  EXPECT_NE(bad.fault->message.find("a box dimension must be 1..256"), std::string::npos)
      << bad.fault->message;
}

}  // namespace
}  // namespace warpsim
