// Divergence, reconvergence, calls, barriers and the watchdog, as small PTX programs.
#include <gtest/gtest.h>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// out[tid] = tid odd ? 1 : 2, via an if/else that splits every warp.
const std::string kIfElse = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  mov.u32 %r3, 1;
  bra DONE;
EVEN:
  mov.u32 %r3, 2;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(Simt, IfElseDivergesAndReconverges) {
  PtxRunner r(kIfElse);
  const uint64_t out = r.buffer<uint32_t>(64);
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(v[i], i % 2 ? 1u : 2u) << i;
  EXPECT_EQ(res.stats.divergentBranches, 2u);  // one per warp
  // Per warp: 5 uniform instructions, the branch, 2 then-side, 1 else-side, then 4 after the
  // reconvergence point: the half-warp paths show up in the SIMD efficiency.
  EXPECT_LT(res.stats.simdEfficiency(), 1.0);
  EXPECT_GT(res.stats.simdEfficiency(), 0.8);
}

// Each thread counts down from tid % 7 in a loop with `continue` (skip odd values) and
// `break` (stop at 3): out[tid] = the number of even values > 3 visited... written plainly.
const std::string kLoop = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 7;        // i = tid % 7
  mov.u32 %r3, 0;             // count
LOOP:
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra END;               // while (i != 0)
  setp.eq.u32 %p2, %r2, 3;
  @%p2 bra END;               //   if (i == 3) break;
  and.b32 %r4, %r2, 1;
  sub.u32 %r2, %r2, 1;
  setp.ne.u32 %p3, %r4, 0;
  @%p3 bra LOOP;              //   if (i odd) continue;
  add.u32 %r3, %r3, 1;        //   ++count
  bra LOOP;
END:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

uint32_t loopReference(uint32_t tid) {
  uint32_t i = tid % 7, count = 0;
  while (i != 0) {
    if (i == 3) break;
    const bool odd = i & 1;
    --i;
    if (odd) continue;
    ++count;
  }
  return count;
}

TEST(Simt, LoopWithBreakAndContinue) {
  PtxRunner r(kLoop);
  const uint64_t out = r.buffer<uint32_t>(96);
  const auto res = r.launch("k", {1, 1, 1}, {96, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 96);
  for (uint32_t i = 0; i < 96; ++i) EXPECT_EQ(v[i], loopReference(i)) << i;
  EXPECT_GT(res.stats.divergentBranches, 0u);
}

// Threads with tid < 40 exit early; the rest meet at a barrier, which must complete because
// exited threads count as arrived.
const std::string kEarlyExit = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 4 .b32 s[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 40;
  @%p1 exit;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1;
  bar.sync 0;
  xor.b32 %r2, %r2, 4;        // the neighbour's slot (both >= 40 for tid >= 40 pairs)
  mov.u32 %r3, s;
  add.u32 %r3, %r3, %r2;
  ld.shared.u32 %r2, [%r3];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

TEST(Simt, ExitedThreadsCountAsArrivedAtBarriers) {
  PtxRunner r(kEarlyExit);
  const uint64_t out = r.buffer<uint32_t>(128);
  const auto res = r.launch("k", {2, 1, 1}, {128, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 128);
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(v[i], 0u) << i;
  for (uint32_t i = 40; i < 128; ++i) EXPECT_EQ(v[i], i ^ 1u) << i;
  EXPECT_EQ(res.stats.barriers, 2u);  // one per CTA
}

// Only even warps reach the barrier: a barrier that can never complete.
const std::string kDeadlock = std::string(kHeader) + R"(
.visible .entry k()
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  and.b32 %r2, %r2, 1;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra SKIP;
  bar.sync 0;
SKIP:
  bar.sync 1;
  ret;
}
)";

TEST(Simt, BarrierDeadlockIsReportedWithTheWaitingWarps) {
  PtxRunner r(kDeadlock);
  const auto res = r.launch("k", {1, 1, 1}, {128, 1, 1}, {});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::BarrierDeadlock);
  EXPECT_NE(res.fault->details.find("warp 0: waits at barrier 0"), std::string::npos)
      << res.fault->details;
  EXPECT_NE(res.fault->details.find("warp 1: waits at barrier 1"), std::string::npos)
      << res.fault->details;
}

// A wild store: the fault names the thread, the block, the PTX line and the address.
const std::string kWild = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

TEST(Simt, OutOfBoundsStoreIsAKernelFault) {
  PtxRunner r(kWild);
  const uint64_t out = r.buffer<uint32_t>(40);  // 40 elements, 64 threads
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::OutOfBounds);
  EXPECT_EQ(res.fault->thread.x, 40u);
  EXPECT_EQ(res.fault->cta.x, 0u);
  EXPECT_EQ(res.fault->ptxLine, 13u);
  EXPECT_EQ(res.fault->address, out + 160);
  EXPECT_EQ(res.fault->instruction, "st.global.u32");
}

TEST(Simt, MisalignedLoadIsAKernelFault) {
  PtxRunner r(kWild);
  const uint64_t out = r.buffer<uint32_t>(64);
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out + 2)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Misaligned);
  EXPECT_EQ(res.fault->thread.x, 0u);
}

// A device function called by odd lanes only, returning early for some of them.
const std::string kDivergentCall = std::string(kHeader) + R"(
.func (.param .b32 ret) twice_or_zero(.param .b32 x)
{
  .reg .b32 %r<3>;
  .reg .pred %p<2>;
  ld.param.b32 %r1, [x];
  setp.gt.u32 %p1, %r1, 20;
  @%p1 bra BIG;
  shl.b32 %r2, %r1, 1;
  st.param.b32 [ret], %r2;
  ret;
BIG:
  st.param.b32 [ret], 0;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 7;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra STORE;
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call (b), twice_or_zero, (a);
    ld.param.b32 %r3, [b];
  }
STORE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(Simt, DivergentCallWithEarlyReturns) {
  PtxRunner r(kDivergentCall);
  const uint64_t out = r.buffer<uint32_t>(64);
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t want = i % 2 == 0 ? 7u : (i > 20 ? 0u : 2 * i);
    EXPECT_EQ(v[i], want) << i;
  }
}

// `if (tid >= 20) return;` then a full-warp shuffle: ptxas makes the early return an exit, so
// the shuffle must not wait for the returned lanes (they read as 0, as on the H200).
const std::string kEarlyReturnShuffle = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 20;
  @%p1 bra DONE;
  shfl.sync.down.b32 %r2, %r1, 1, 31, -1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
DONE:
  ret;
}
)";

TEST(Simt, EarlyReturnLanesExitBeforeAWarpShuffle) {
  PtxRunner r(kEarlyReturnShuffle);
  const uint64_t out = r.buffer<uint32_t>(32, std::vector<uint32_t>(32, 0xAAAAAAAAu));
  const auto res = r.launch("k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 32);
  for (uint32_t i = 0; i < 19; ++i) EXPECT_EQ(v[i], i + 1) << i;
  EXPECT_EQ(v[19], 0u);
  for (uint32_t i = 20; i < 32; ++i) EXPECT_EQ(v[i], 0xAAAAAAAAu) << i;
}

// `if (tid odd) v *= 3;` as ptxas writes it: the even lanes branch straight to the join, which
// is the branch's reconvergence point (their path is never pushed), inside a loop of 3 rounds.
const std::string kIfSkip = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.u32 %r3, %r1, 1;
  mov.u32 %r5, 0;
LOOP:
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra JOIN;
  mul.lo.u32 %r3, %r3, 3;
JOIN:
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p2, %r5, 3;
  @%p2 bra LOOP;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";

TEST(Simt, AnIfsSkipToTheJoinRunsTheOtherSideAloneInEverySchedule) {
  PtxRunner r(kIfSkip);
  const uint64_t out = r.buffer<uint32_t>(64);
  std::vector<sim::LaunchOptions> runs(1);
  for (uint64_t seed : {1, 2, 3, 4}) {
    sim::LaunchOptions o;
    o.schedule = sim::SchedulePolicy{.seed = seed, .maxSlice = 3};
    runs.push_back(o);
  }
  for (const sim::LaunchOptions& o : runs) {
    const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)}, o);
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    const auto v = r.read<uint32_t>(out, 64);
    for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(v[i], i % 2 ? (i + 1) * 27 : i + 1) << i;
    EXPECT_EQ(res.stats.divergentBranches, 6u);  // one per round per warp
    // Thread-instructions count the lanes whose guard holds. Per warp: 4 before the loop; each
    // round and, setp, add, setp on 32 lanes, the skip and the multiply on 16; the loop's branch
    // taken by 32 lanes in the first two rounds, none in the third; 4 after.
    EXPECT_EQ(res.stats.totalThreadInsns(),
              2u * (32 * 4 + 3 * (4 * 32 + 2 * 16) + 2 * 32 + 32 * 4));
  }
}

// g(x) sets %p1 only when x != 0 (a guarded setp), then reads it: g(0) must read it false in
// the frame storage g(1) left it true in. out[2i] = g(1) = 1, out[2i+1] = g(0) = 0.
const std::string kStalePredicate = std::string(kHeader) + R"(
.func (.param .b32 r) g(.param .b32 x)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [x];
  setp.ne.u32 %p2, %r1, 0;
  @%p2 setp.ne.u32 %p1, %r1, 0;
  selp.u32 %r2, 1, 0, %p1;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], 1;
    call (b), g, (a);
    ld.param.b32 %r3, [b];
  }
  st.global.u32 [%rd3], %r3;
  {
    .param .b32 a2;
    .param .b32 b2;
    st.param.b32 [a2], 0;
    call (b2), g, (a2);
    ld.param.b32 %r5, [b2];
  }
  st.global.u32 [%rd3+4], %r5;
  ret;
}
)";

TEST(Simt, APredicateReadBeforeWrittenReadsFalseInARecycledFrame) {
  PtxRunner r(kStalePredicate);
  const uint64_t out = r.buffer<uint32_t>(2 * 64);
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 2 * 64);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(v[2 * i], 1u) << i;
    EXPECT_EQ(v[2 * i + 1], 0u) << i;
  }
}

TEST(Simt, ResultsDoNotDependOnHostThreads) {
  PtxRunner r(kLoop);
  const uint64_t a = r.buffer<uint32_t>(96 * 64), b = r.buffer<uint32_t>(96 * 64);
  sim::LaunchOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const auto r1 = r.launch("k", {64, 1, 1}, {96, 1, 1}, {PtxRunner::ptr(a)}, one);
  const auto r2 = r.launch("k", {64, 1, 1}, {96, 1, 1}, {PtxRunner::ptr(b)}, two);
  ASSERT_FALSE(r1.fault);
  ASSERT_FALSE(r2.fault);
  EXPECT_EQ(r.read<uint32_t>(a, 96 * 64), r.read<uint32_t>(b, 96 * 64));
  EXPECT_EQ(r1.stats.totalThreadInsns(), r2.stats.totalThreadInsns());
}

}  // namespace
}  // namespace warpsim
