// After a kernel fault, what ran does not depend on the host thread count: every CTA of the
// faulting CTA's batch runs to its end, no later batch starts, and memory, statistics and the
// reported fault are the same serially and on any number of threads.
#include <gtest/gtest.h>

#include "tests/support/ptx_runner.h"

namespace warpsim::sim {
namespace {

// Thread gid writes out[gid] = 3 * gid + 1; thread `bad` then loads through a null pointer.
constexpr const char* kFaultOne = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 bad)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [bad];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  mad.lo.u32 %r6, %r4, 3, 1;
  st.global.u32 [%rd3], %r6;
  setp.eq.u32 %p1, %r4, %r5;
  mov.u64 %rd4, 0;
  @%p1 ld.global.u32 %r7, [%rd4];
  ret;
}
)";

constexpr uint32_t kCtas = 64, kThreads = 64, kBad = 5 * kThreads + 7;

struct Outcome {
  std::vector<uint32_t> out;
  LaunchResult result;
};

Outcome runWith(LaunchOptions o) {
  test::PtxRunner r(kFaultOne, "fault.ptx");
  const uint64_t out = r.buffer<uint32_t>(kCtas * kThreads);
  Outcome res;
  res.result = r.launch("k", {kCtas, 1, 1}, {kThreads, 1, 1},
                        {test::PtxRunner::ptr(out), test::PtxRunner::u32(kBad)}, o);
  res.out = r.read<uint32_t>(out, kCtas * kThreads);
  return res;
}

TEST(FaultDeterminism, TheFaultingBatchRunsWholeOnAnyThreadCount) {
  LaunchOptions serial;
  serial.serial = true;
  const Outcome base = runWith(serial);
  ASSERT_TRUE(base.result.fault);
  EXPECT_EQ(base.result.fault->cta.x, 5u);
  EXPECT_EQ(base.result.fault->thread.x, 7u);
  EXPECT_EQ(base.result.ctasRun, kCtas);
  // Every other CTA ran to its end, the ones after the faulting one too (the faulting CTA itself
  // stops at the fault, as on the chip, in the same place every time).
  for (uint32_t i = 0; i < kCtas * kThreads; ++i) {
    if (i / kThreads != kBad / kThreads) {
      ASSERT_EQ(base.out[i], 3 * i + 1) << i;
    }
  }
  for (unsigned threads : {1u, 2u, 2u, 2u}) {
    LaunchOptions o;
    o.threads = threads;
    const Outcome other = runWith(o);
    ASSERT_TRUE(other.result.fault);
    EXPECT_EQ(other.result.fault->cta.x, 5u);
    EXPECT_EQ(other.out, base.out);
    EXPECT_EQ(other.result.ctasRun, base.result.ctasRun);
    EXPECT_EQ(other.result.stats.totalWarpInsns(), base.result.stats.totalWarpInsns());
  }
}

}  // namespace
}  // namespace warpsim::sim
