// Barriers as small PTX programs: named barriers with thread counts (a producer / consumer
// handshake with bar.arrive + bar.sync in both directions), bar.red.popc / .and / .or results
// (with negated predicates, thread counts and a partial last warp), barrier statistics, and the
// faults of bad barrier operands and of bar.warp.sync in divergent code.
#include <gtest/gtest.h>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// 128 threads: warps 0-1 consume what warps 2-3 produce, through barrier 1 (128 threads: the
// producers arrive, the consumers wait); then the consumers answer through barrier 2 the other
// way round. The consumers reach their bar.sync first, so they wait for the later arrivals.
//   consumer c (tid < 64):  out[tid] = buf[c] = (c + 64)^2 + ctaid
//   producer p (tid >= 64): out[tid] = back[p - 64] = 3 * (p - 64) + 1
const std::string kProducerConsumer = std::string(kHeader) + R"(
.visible .entry pc(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 4 .u32 buf[64];
  .shared .align 4 .u32 back[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, buf;
  mov.u32 %r4, back;
  and.b32 %r5, %r1, 63;
  shl.b32 %r5, %r5, 2;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra CONSUMER;
  mad.lo.u32 %r6, %r1, %r1, %r2;
  add.u32 %r7, %r3, %r5;
  st.shared.u32 [%r7], %r6;
  bar.arrive 1, 128;
  bar.sync 2, 128;
  add.u32 %r8, %r4, %r5;
  ld.shared.u32 %r9, [%r8];
  bra DONE;
CONSUMER:
  bar.sync 1, 128;
  add.u32 %r7, %r3, %r5;
  ld.shared.u32 %r9, [%r7];
  mul.lo.u32 %r10, %r1, 3;
  add.u32 %r10, %r10, 1;
  add.u32 %r8, %r4, %r5;
  st.shared.u32 [%r8], %r10;
  bar.arrive 2, 128;
DONE:
  mad.lo.u32 %r11, %r2, 128, %r1;
  mul.wide.u32 %rd2, %r11, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)";

TEST(Barrier, NamedBarriersWithThreadCountsHandOverDataBothWays) {
  PtxRunner r(kProducerConsumer);
  const uint64_t out = r.buffer<uint32_t>(3 * 128);
  const auto res = r.launch("pc", {3, 1, 1}, {128, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 3 * 128);
  for (uint32_t cta = 0; cta < 3; ++cta)
    for (uint32_t t = 0; t < 128; ++t) {
      const uint32_t want = t < 64 ? (t + 64) * (t + 64) + cta : 3 * (t - 64) + 1;
      EXPECT_EQ(v[cta * 128 + t], want) << "cta " << cta << " thread " << t;
    }
  EXPECT_EQ(res.stats.barriers, 2u * 3);  // barriers 1 and 2 complete once per CTA
  // Every warp executes one bar.arrive and one bar.sync.
  EXPECT_EQ(res.stats.warpInsns[size_t(isa::InsnClass::Barrier)], 2u * 4 * 3);
  EXPECT_EQ(res.stats.threadInsns[size_t(isa::InsnClass::Barrier)], 2u * 128 * 3);
}

// Consumers that wait for more threads than ever arrive: the barrier never completes.
const std::string kShortArrival = std::string(kHeader) + R"(
.visible .entry k()
{
  .reg .b32 %r<2>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra WAIT;
  bar.arrive 3, 128;
  ret;
WAIT:
  bar.sync 3, 128;
  ret;
}
)";

TEST(Barrier, ACountThatIsNeverReachedIsADeadlock) {
  PtxRunner r(kShortArrival);
  // 64 threads: 32 wait, 32 arrive, 64 < 128.
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::BarrierDeadlock);
  EXPECT_NE(res.fault->details.find("warp 0: waits at barrier 3"), std::string::npos)
      << res.fault->details;
  EXPECT_NE(res.fault->details.find("64 of 128 threads arrived"), std::string::npos)
      << res.fault->details;
  // With 128 threads the count is reached and the kernel completes.
  const auto ok = r.launch("k", {1, 1, 1}, {128, 1, 1}, {});
  EXPECT_FALSE(ok.fault) << ok.fault->describe("");
}

// bar.red: each thread t (of n) writes 8 results to out[ctaid*n*8 + t*8 + k]:
//  0: popc(t % 3 == 0)   1: popc(!(t % 3 == 0))   2: and(t < n)   3: and(t % 3 == 0)
//  4: or(t == 7)   5: or(!(t < n))   6: popc(t is odd) on barrier 5 with the thread count
//  n rounded up to whole warps   7: and(!(t == 7)) on barrier 6 (barrier.red)
const std::string kReduce = std::string(kHeader) + R"(
.visible .entry red(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .reg .pred %p<12>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  rem.u32 %r4, %r2, 3;
  setp.eq.u32 %p1, %r4, 0;
  setp.lt.u32 %p2, %r2, %r1;
  setp.eq.u32 %p3, %r2, 7;
  and.b32 %r5, %r2, 1;
  setp.ne.u32 %p4, %r5, 0;
  bar.red.popc.u32 %r6, 0, %p1;
  bar.red.popc.u32 %r7, 1, !%p1;
  bar.red.and.pred %p5, 2, %p2;
  bar.red.and.pred %p6, 0, %p1;
  bar.red.or.pred %p7, 3, %p3;
  bar.red.or.pred %p8, 4, !%p2;
  add.u32 %r15, %r1, 31;
  and.b32 %r15, %r15, -32;
  bar.red.popc.u32 %r8, 5, %r15, %p4;
  barrier.red.and.pred %p9, 6, !%p3;
  mad.lo.u32 %r9, %r3, %r1, %r2;
  mul.wide.u32 %rd2, %r9, 32;
  add.s64 %rd3, %rd1, %rd2;
  selp.u32 %r10, 1, 0, %p5;
  selp.u32 %r11, 1, 0, %p6;
  selp.u32 %r12, 1, 0, %p7;
  selp.u32 %r13, 1, 0, %p8;
  selp.u32 %r14, 1, 0, %p9;
  st.global.v4.u32 [%rd3], {%r6, %r7, %r10, %r11};
  st.global.v4.u32 [%rd3+16], {%r12, %r13, %r8, %r14};
  ret;
}
)";

TEST(Barrier, BarRedReducesThePredicateOverTheCta) {
  PtxRunner r(kReduce);
  for (uint32_t n : {96u, 80u}) {  // 80: the last warp has 16 threads
    const uint64_t out = r.buffer<uint32_t>(2 * n * 8);
    const auto res =
        r.launch("red", {2, 1, 1}, {n, 1, 1}, {PtxRunner::ptr(out), PtxRunner::u32(n)});
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    const auto v = r.read<uint32_t>(out, 2 * n * 8);
    const uint32_t thirds = (n + 2) / 3;  // t % 3 == 0 for t in [0, n)
    for (uint32_t i = 0; i < 2 * n; ++i) {
      const uint32_t* o = &v[i * 8];
      EXPECT_EQ(o[0], thirds) << n << " " << i;
      EXPECT_EQ(o[1], n - thirds) << n << " " << i;
      EXPECT_EQ(o[2], 1u) << n << " " << i;
      EXPECT_EQ(o[3], 0u) << n << " " << i;
      EXPECT_EQ(o[4], 1u) << n << " " << i;
      EXPECT_EQ(o[5], 0u) << n << " " << i;
      EXPECT_EQ(o[6], n / 2) << n << " " << i;
      EXPECT_EQ(o[7], 0u) << n << " " << i;
    }
    EXPECT_EQ(res.stats.barriers, 8u * 2);
  }
}

// Thread counts are whole warps: a partial last warp and a warp whose other lanes exited both
// arrive as 32 threads. Threads t >= e exit first; the rest meet at barrier 1 with the count c.
const std::string kWholeWarps = std::string(kHeader) + R"(
.visible .entry k(.param .u32 e, .param .u32 c, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u32 %r1, [e];
  ld.param.u32 %r2, [c];
  ld.param.u64 %rd1, [out];
  mov.u32 %r3, %tid.x;
  setp.ge.u32 %p1, %r3, %r1;
  @%p1 exit;
  bar.sync 1, %r2;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], 1;
  ret;
}
)";

TEST(Barrier, ThreadCountsCountWholeWarps) {
  PtxRunner r(kWholeWarps);
  struct Case {
    uint32_t threads, exitFrom, count;
  };
  // 48 threads = 2 warps, the second with 16 lanes; 64 threads of which 16 exit; 96 threads of
  // which a whole warp and 8 lanes of another exit.
  for (const Case& c : {Case{48, 48, 64}, Case{64, 48, 64}, Case{96, 56, 64}}) {
    const uint64_t out = r.buffer<uint32_t>(c.threads);
    const auto res =
        r.launch("k", {1, 1, 1}, {c.threads, 1, 1},
                 {PtxRunner::u32(c.exitFrom), PtxRunner::u32(c.count), PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault) << c.threads << ": " << res.fault->describe("");
    const auto v = r.read<uint32_t>(out, c.threads);
    for (uint32_t t = 0; t < c.threads; ++t) EXPECT_EQ(v[t], t < c.exitFrom ? 1u : 0u) << t;
    EXPECT_EQ(res.stats.barriers, 1u);
  }
  // A warp that never arrives is still missing: 2 full warps cannot complete a count of 96.
  const uint64_t out = r.buffer<uint32_t>(64);
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1},
                            {PtxRunner::u32(64), PtxRunner::u32(96), PtxRunner::ptr(out)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::BarrierDeadlock);
}

// Three bar.sync per CTA (one of them non-aligned barrier.sync with a count): the statistics
// count completions per CTA and the barrier instructions per warp.
const std::string kThree = std::string(kHeader) + R"(
.visible .entry k()
{
  bar.sync 0;
  barrier.sync 1, 64;
  barrier.sync.aligned 0;
  ret;
}
)";

TEST(Barrier, StatisticsCountCompletionsAndInstructions) {
  PtxRunner r(kThree);
  const auto res = r.launch("k", {4, 1, 1}, {64, 1, 1}, {});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(res.stats.barriers, 3u * 4);
  EXPECT_EQ(res.stats.warpInsns[size_t(isa::InsnClass::Barrier)], 3u * 2 * 4);
  EXPECT_EQ(res.stats.threadInsns[size_t(isa::InsnClass::Barrier)], 3u * 64 * 4);
  EXPECT_EQ(res.stats.ctas, 4u);
  EXPECT_EQ(res.stats.warps, 8u);
}

// ---- faults -----------------------------------------------------------------------------------

const std::string kBadBarriers = std::string(kHeader) + R"(
.visible .entry badid()
{
  bar.sync 16;
  ret;
}
.visible .entry badcount()
{
  bar.sync 1, 48;
  ret;
}
.visible .entry warpsync(.param .u32 members)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  ld.param.u32 %r1, [members];
  mov.u32 %r2, %laneid;
  setp.lt.u32 %p1, %r2, 16;
  @!%p1 bra SKIP;
  bar.warp.sync %r1;
SKIP:
  add.u32 %r2, %r2, 1;
  ret;
}
)";

TEST(Barrier, BadOperandsAndDivergentWarpSyncAreKernelFaults) {
  PtxRunner r(kBadBarriers);
  const auto id = r.launch("badid", {1, 1, 1}, {32, 1, 1}, {});
  ASSERT_TRUE(id.fault);
  EXPECT_EQ(id.fault->kind, sim::FaultKind::InvalidInstruction);
  EXPECT_EQ(id.fault->message, "barrier id 16 is out of range (0..15)");
  EXPECT_EQ(id.fault->instruction, "bar.sync");
  const auto count = r.launch("badcount", {1, 1, 1}, {64, 1, 1}, {});
  ASSERT_TRUE(count.fault);
  EXPECT_EQ(count.fault->kind, sim::FaultKind::InvalidInstruction);
  EXPECT_EQ(count.fault->message, "barrier thread count 48 is not a multiple of 32");
  // Only lanes 0..15 reach the bar.warp.sync: a full member mask names absent lanes ...
  const auto ws = r.launch("warpsync", {1, 1, 1}, {32, 1, 1}, {PtxRunner::u32(0xFFFFFFFFu)});
  ASSERT_TRUE(ws.fault);
  EXPECT_EQ(ws.fault->kind, sim::FaultKind::WarpSync);
  EXPECT_EQ(ws.fault->message,
            "'bar.warp.sync' names member lanes 0xffffffff but only lanes 0x0000ffff are "
            "converged here");
  // ... the mask of the lanes that are there is fine.
  const auto ok = r.launch("warpsync", {1, 1, 1}, {32, 1, 1}, {PtxRunner::u32(0x0000FFFFu)});
  EXPECT_FALSE(ok.fault) << ok.fault->describe("");
  // Lanes that do not exist (a 20-thread block) are not waited for either.
  const auto partial = r.launch("warpsync", {1, 1, 1}, {20, 1, 1}, {PtxRunner::u32(0x0000FFFFu)});
  EXPECT_FALSE(partial.fault) << partial.fault->describe("");
}

}  // namespace
}  // namespace warpsim
