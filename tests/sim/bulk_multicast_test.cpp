// Bulk copies into a cluster (isa/insns/bulk_copy.cpp): .multicast::cluster lands one TMA box
// in every CTA of its ctaMask, at the same shared offset, and completes each CTA's mbarrier at
// the same offset; a bulk copy from this CTA's shared memory lands in a mapa'd CTA's and
// completes that CTA's mbarrier.
#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "isa/insns/tensor_map.h"
#include "sim/gpu.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;
namespace tmap = isa::insns::tmap;

// `ctas` CTAs of 32 threads, all in one cluster.
sim::LaunchResult launchCluster(PtxRunner& r, unsigned ctas,
                                const std::vector<std::vector<uint8_t>>& args) {
  return r.launch("k", {ctas, 1, 1}, {32, 1, 1}, args, {}, 0, {ctas, 1, 1});
}

// Each CTA arms its own mbarrier for 128 bytes; after the cluster barrier, rank 0's thread 0
// loads the 8 x 4 f32 box at (16, 7) of a 20 x 9 tensor, multicast to the ranks of `mask`;
// every CTA in the mask waits on its own mbarrier and writes its box to out[rank * 32 + i].
constexpr const char* kMulticast = R"(
.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 map, .param .u64 out, .param .u32 mask)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .b16 %rs<2>;
  .reg .pred %p<6>;
  .shared .align 128 .b8 box[128];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [map];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r13, [mask];
  cvt.u16.u32 %rs1, %r13;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, box;
  mov.u32 %r4, bar;
  setp.eq.u32 %p1, %r1, 0;
  shr.u32 %r14, %r13, %r2;
  and.b32 %r14, %r14, 1;
  setp.eq.u32 %p4, %r14, 1;
  and.pred %p5, %p1, %p4;
  @%p1 mbarrier.init.shared::cta.b64 [%r4], 1;
  @%p5 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [%r4], 128;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  setp.eq.u32 %p2, %r2, 0;
  and.pred %p2, %p2, %p1;
  mov.u32 %r5, 16;
  mov.u32 %r6, 7;
  @%p2 cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd1, {%r5, %r6}], [%r4], %rs1;
  @!%p4 bra DONE;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r4], 0;
  @!%p3 bra WAIT;
  shl.b32 %r7, %r1, 2;
  add.u32 %r8, %r3, %r7;
  ld.shared.b32 %r9, [%r8];
  mad.lo.u32 %r10, %r2, 32, %r1;
  mul.wide.u32 %rd4, %r10, 4;
  add.s64 %rd5, %rd2, %rd4;
  st.global.b32 [%rd5], %r9;
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";

std::vector<uint32_t> runMulticast(unsigned ctas, uint32_t mask) {
  PtxRunner r(kMulticast, "multicast.ptx");
  std::vector<float> t(20 * 9);
  for (size_t i = 0; i < t.size(); ++i) t[i] = float(1000 + i);
  const uint64_t tensor = r.buffer<float>(t.size(), t);
  tmap::TensorMap m;
  const uint64_t dims[2] = {20, 9}, strides[1] = {80};
  const uint32_t box[2] = {8, 4}, elem[2] = {1, 1};
  EXPECT_EQ(tmap::encodeTiled(m, 7, 2, tensor, dims, strides, box, elem, 0, 0, 0, 0), "");
  std::vector<uint8_t> mb(128);
  tmap::store(m, mb.data());
  const uint64_t map = r.buffer<uint8_t>(128, mb);
  const uint64_t out = r.buffer<uint32_t>(32 * ctas, std::vector<uint32_t>(32 * ctas, 0xDEAD));
  const auto res =
      launchCluster(r, ctas, {PtxRunner::ptr(map), PtxRunner::ptr(out), PtxRunner::u32(mask)});
  EXPECT_FALSE(res.fault) << res.fault->message;
  return r.read<uint32_t>(out, 32 * ctas);
}

uint32_t boxWord(unsigned i) {
  const unsigned gx = 16 + i % 8, gy = 7 + i / 8;
  return gx < 20 && gy < 9 ? std::bit_cast<uint32_t>(float(1000 + gy * 20 + gx)) : 0;
}

TEST(BulkMulticast, OneBoxLandsInEveryCtaOfTheMask) {
  const auto v = runMulticast(4, 0b1011);  // ranks 0, 1 and 3; rank 2 neither gets nor waits
  for (unsigned rank = 0; rank < 4; ++rank)
    for (unsigned i = 0; i < 32; ++i)
      EXPECT_EQ(v[rank * 32 + i], rank == 2 ? 0xDEADu : boxWord(i)) << rank << ":" << i;
}

TEST(BulkMulticast, TheIssuersOwnCtaNeedNotBeInTheMask) {
  const auto v = runMulticast(2, 0b10);
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(v[i], 0xDEADu);
    EXPECT_EQ(v[32 + i], boxWord(i)) << i;
  }
}

// Rank 0 fills 16 words of its shared memory and copies them into rank 1's `buf` with
// cp.async.bulk.shared::cluster.shared::cta, completing rank 1's mbarrier (both mapa'd); rank 1
// waits on it and writes what landed.
constexpr const char* kToPeer = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<6>;
  .shared .align 128 .b8 src[64];
  .shared .align 128 .b8 buf[64];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, src;
  mov.u32 %r4, buf;
  mov.u32 %r5, bar;
  setp.eq.u32 %p1, %r1, 0;
  setp.eq.u32 %p2, %r2, 1;
  setp.lt.u32 %p3, %r1, 16;
  shl.b32 %r6, %r1, 2;
  add.u32 %r7, %r3, %r6;
  add.u32 %r8, %r1, 500;
  @%p3 st.shared.u32 [%r7], %r8;
  and.pred %p4, %p1, %p2;
  @%p4 mbarrier.init.shared::cta.b64 [%r5], 1;
  @%p4 mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r5], 64;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  setp.eq.u32 %p5, %r2, 0;
  and.pred %p5, %p5, %p1;
  mapa.shared::cluster.u32 %r9, %r4, 1;
  mapa.shared::cluster.u32 %r10, %r5, 1;
  @%p5 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r9], [%r3], 64, [%r10];
  @!%p2 bra DONE;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r5], 0;
  @!%p3 bra WAIT;
  setp.lt.u32 %p3, %r1, 16;
  add.u32 %r11, %r4, %r6;
  @%p3 ld.shared.u32 %r12, [%r11];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  @%p3 st.global.u32 [%rd4], %r12;
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";

TEST(BulkToPeer, SharedCtaToAnotherCtasSharedMemoryCompletesItsMbarrier) {
  PtxRunner r(kToPeer, "to_peer.ptx");
  const uint64_t out = r.buffer<uint32_t>(16);
  const auto res = launchCluster(r, 2, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->message;
  const auto v = r.read<uint32_t>(out, 16);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(v[i], 500 + i) << i;
}

}  // namespace
}  // namespace warpsim
