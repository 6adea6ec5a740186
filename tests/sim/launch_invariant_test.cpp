// Launch-invariant instructions on the CTA (isa/invariants.h): a frame kept from the previous
// CTA on its host thread skips one when every executing lane has already written its value, and
// runs it again for lanes that have not, after the kernel's parameters or the block's shape
// changed, and whenever an observer watches.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/ptx_runner.h"

namespace warpsim::sim {
namespace {

// Thread t of CTA c stores k * 1000 + %ntid.x + 7 when t < 8c (a path whose lanes grow CTA by
// CTA: its invariant ld.param and mov run with more lanes than the previous CTA's), else 1.
const char* kGrowing = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry growing(.param .u64 out, .param .u32 k)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd2, %rd3;
  shl.b32 %r5, %r2, 3;
  setp.ge.u32 %p1, %r1, %r5;
  mov.u32 %r9, 1;
  @%p1 bra DONE;
  ld.param.u32 %r6, [k];
  mov.u32 %r7, 1000;
  mov.u32 %r8, 7;
  mad.lo.u32 %r9, %r6, %r7, %r3;
  add.u32 %r9, %r9, %r8;
DONE:
  st.global.u32 [%rd4], %r9;
  ret;
}
)";

struct Case {
  uint32_t k;
  unsigned block;  // 48: a partial second warp
  bool statistics;
};

TEST(LaunchInvariants, KeptFramesRunThemAgainForNewLanesParametersAndShapes) {
  constexpr uint32_t kCtas = 9;  // CTA 8's path has all 64 threads
  // The same k after a change of shape, and the same shape after a change of k; an observed
  // launch between unobserved ones; a second buffer, so a kept cvta of the first would write
  // into the wrong one.
  const Case cases[] = {{5, 64, false}, {7, 64, false}, {7, 48, false}, {7, 64, false},
                        {7, 64, true},  {9, 64, false}, {9, 48, true},  {9, 48, false}};
  for (const unsigned threads : {1u, 2u}) {
    test::PtxRunner r(kGrowing, "growing.ptx");
    const uint64_t bufs[] = {r.buffer<uint32_t>(kCtas * 64), r.buffer<uint32_t>(kCtas * 64)};
    unsigned launch = 0;
    for (const Case& c : cases) {
      const uint64_t out = bufs[launch++ % 2];
      const std::vector<uint32_t> zeros(kCtas * 64, 0);
      r.gpu().memory().copyIn(out, zeros.data(), zeros.size() * 4);
      LaunchOptions o;
      o.threads = threads;
      o.statistics = c.statistics;
      const LaunchResult res = r.launch("growing", {kCtas, 1, 1}, {c.block, 1, 1},
                                        {test::PtxRunner::ptr(out), test::PtxRunner::u32(c.k)}, o);
      ASSERT_FALSE(res.fault) << res.fault->describe("");
      const std::vector<uint32_t> v = r.read<uint32_t>(out, kCtas * c.block);
      for (uint32_t i = 0; i < kCtas * c.block; ++i) {
        const uint32_t cta = i / c.block, t = i % c.block;
        const uint32_t want = t < 8 * cta ? c.k * 1000 + c.block + 7 : 1;
        EXPECT_EQ(v[i], want) << threads << " threads, launch " << launch << " (k " << c.k
                              << ", block " << c.block << "), CTA " << cta << " thread " << t;
      }
    }
  }
}

// Skipped instructions still count and are still seen: an observed launch's statistics are the
// same after the CTA objects have run the kernel unobserved.
TEST(LaunchInvariants, StatisticsCountSkippedInstructions) {
  test::PtxRunner r(kGrowing, "growing.ptx");
  const uint64_t out = r.buffer<uint32_t>(9 * 64);
  const auto run = [&](bool statistics) {
    LaunchOptions o;
    o.threads = 1;
    o.statistics = statistics;
    return r.launch("growing", {9, 1, 1}, {64, 1, 1},
                    {test::PtxRunner::ptr(out), test::PtxRunner::u32(3)}, o);
  };
  const LaunchResult first = run(true);
  run(false);
  run(false);
  const LaunchResult again = run(true);
  EXPECT_EQ(first.stats.warpInsns, again.stats.warpInsns);
  EXPECT_EQ(first.stats.threadInsns, again.stats.threadInsns);
  // ld.param [out] in each of the 18 warps; ld.param [k] in warp 0 of CTAs 1-8 and warp 1 of
  // CTAs 5-8 (t < 8c reaches thread 32 from CTA 5 on).
  EXPECT_EQ(again.stats.warpInsns[size_t(isa::InsnClass::LoadParam)], 18u + 8u + 4u);
}

}  // namespace
}  // namespace warpsim::sim
