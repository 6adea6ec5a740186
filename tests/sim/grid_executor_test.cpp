// The host threads of a Gpu's launches and the CTA objects they keep between launches
// (sim/func/grid_executor.h): every CTA index runs once, on a slot of its own thread, and a CTA
// object that ran one kernel starts the next launch's kernel as a new one would.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>

#include "sim/func/grid_executor.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim {
namespace {

TEST(GridExecutor, RunsEveryIndexOnceOnTheSlotOfItsThread) {
  GridExecutor e;
  for (const unsigned threads : {1u, 2u}) {
    for (const uint64_t count : {0ull, 1ull, 7ull, 1000ull}) {
      std::vector<std::atomic<int>> runs(count);
      std::vector<unsigned> slotOf(count);
      std::vector<std::thread::id> threadOf(count);
      e.parallelFor(threads, count, [&](uint64_t i, unsigned slot) {
        ++runs[i];
        slotOf[i] = slot;
        threadOf[i] = std::this_thread::get_id();
      });
      std::set<std::pair<unsigned, std::thread::id>> pairs;
      for (uint64_t i = 0; i < count; ++i) {
        EXPECT_EQ(runs[i], 1) << threads << " threads, " << count << " indices, index " << i;
        EXPECT_LT(slotOf[i], threads);
        pairs.insert({slotOf[i], threadOf[i]});
      }
      // A slot is one thread's: no two threads shared one.
      std::set<unsigned> slots;
      for (const auto& p : pairs) EXPECT_TRUE(slots.insert(p.first).second) << "slot " << p.first;
      // One thread, or one index: the calling thread alone, on slot 0.
      if ((threads == 1 || count == 1) && count) {
        EXPECT_EQ(
            pairs,
            (std::set<std::pair<unsigned, std::thread::id>>{{0u, std::this_thread::get_id()}}));
      }
    }
  }
}

TEST(GridExecutor, AThrowStopsTheOtherThreadsTakingIndices) {
  GridExecutor e;
  for (const unsigned threads : {1u, 2u}) {
    std::atomic<int> runs{0};
    EXPECT_THROW(e.parallelFor(threads, 100000,
                               [&](uint64_t i, unsigned) {
                                 ++runs;
                                 if (i == 3) throw std::runtime_error("index 3");
                                 // Each other index takes a millisecond, so that the other
                                 // thread, claiming while index 3's unwinds, takes at most a
                                 // few even when a loaded machine preempts the thrower (an
                                 // empty body let it take 1,441 in one such run).
                                 std::this_thread::sleep_for(std::chrono::milliseconds(1));
                               }),
                 std::runtime_error);
    // Index 3's thread stops the claims as it throws; the other may have taken a few meanwhile.
    EXPECT_LT(runs.load(), 1000) << threads << " threads";
    EXPECT_GE(runs.load(), 4) << threads << " threads";
  }
}

// `dirty` leaves its shared and .local memory and its registers holding ones; `readBack` reads
// its shared and .local words before writing them (both zero in a new CTA) and writes what it
// read plus its global thread index.
constexpr const char* kTwoKernels = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry dirty(.param .u32 v)
{
  .reg .b32 %r<8>;
  .shared .align 4 .b32 sd[128];
  .local .align 4 .b8 ld[16];
  ld.param.u32 %r1, [v];
  mov.u32 %r2, %tid.x;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, sd;
  add.u32 %r4, %r4, %r3;
  st.shared.u32 [%r4], %r1;
  st.local.u32 [ld], %r1;
  st.local.u32 [ld+4], %r1;
  mov.u32 %r5, %r1;
  mov.u32 %r6, %r1;
  mov.u32 %r7, %r1;
  ret;
}
.visible .entry readBack(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 sr[64];
  .local .align 4 .b8 lr[16];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sr;
  add.u32 %r3, %r3, %r2;
  ld.shared.u32 %r4, [%r3];
  ld.local.u32 %r5, [lr+4];
  mov.u32 %r6, %ctaid.x;
  mov.u32 %r7, %ntid.x;
  mad.lo.u32 %r8, %r6, %r7, %r1;
  add.u32 %r9, %r4, %r5;
  shl.b32 %r9, %r9, 16;
  add.u32 %r9, %r9, %r8;
  st.shared.u32 [%r3], %r8;
  st.local.u32 [lr+4], %r8;
  mul.wide.u32 %rd2, %r8, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)";

TEST(GridExecutor, AKeptCtaStartsAnotherKernelAsANewOne) {
  constexpr uint32_t kCtas = 4, kBlock = 64, kThreads = kCtas * kBlock;
  std::vector<uint32_t> expected(kThreads);
  for (uint32_t i = 0; i < kThreads; ++i) expected[i] = i;
  for (const unsigned threads : {1u, 2u}) {
    test::PtxRunner r(kTwoKernels, "two.ptx");
    const uint64_t out = r.buffer<uint32_t>(kThreads);
    LaunchOptions o;
    o.threads = threads;
    for (int round = 0; round < 3; ++round) {
      // A larger block first (more warps, more shared memory), then the smaller one.
      const LaunchResult d =
          r.launch("dirty", {3, 1, 1}, {128, 1, 1}, {test::PtxRunner::u32(1)}, o);
      ASSERT_FALSE(d.fault) << d.fault->describe("");
      const LaunchResult b =
          r.launch("readBack", {kCtas, 1, 1}, {kBlock, 1, 1}, {test::PtxRunner::ptr(out)}, o);
      ASSERT_FALSE(b.fault) << b.fault->describe("");
      EXPECT_EQ(r.read<uint32_t>(out, kThreads), expected)
          << threads << " threads, round " << round;
    }
  }
}

// Each thread writes its place specials, read in the kernel's frame and again in a device
// function's frame (called twice: the second call's frame is the first's storage), and %ctaid:
// a kept CTA's frames keep the place specials only for a block of the same shape
// (Cta::enterFrame), so launches of one kernel whose blocks change shape between launches must
// each see their own.
constexpr const char* kPlaces = R"(
.version 8.5
.target sm_90
.address_size 64
.func (.param .b32 r) place()
{
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %laneid;
  mad.lo.u32 %r5, %r2, 1000, %r1;
  mad.lo.u32 %r5, %r3, 1000000, %r5;
  add.u32 %r5, %r5, %r4;
  st.param.b32 [r], %r5;
  ret;
}
.visible .entry places(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ntid.y;
  mov.u32 %r5, %ctaid.x;
  mov.u32 %r6, %warpid;
  mov.u32 %r7, %lanemask_lt;
  mad.lo.u32 %r8, %r2, %r3, %r1;
  mul.lo.u32 %r9, %r3, %r4;
  mad.lo.u32 %r9, %r5, %r9, %r8;
  {
  .param .b32 r0;
  call.uni (r0), place, ();
  ld.param.b32 %r10, [r0];
  }
  {
  .param .b32 r1;
  call.uni (r1), place, ();
  ld.param.b32 %r11, [r1];
  }
  mul.wide.u32 %rd2, %r9, 32;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd3+16], {%r6, %r7, %r10, %r11};
  ret;
}
)";

TEST(GridExecutor, KeptFramesSeeTheirBlocksPlaceSpecials) {
  constexpr uint32_t kCtas = 3;
  const Dim3 shapes[] = {{64, 1, 1}, {32, 2, 1}, {64, 1, 1}, {16, 4, 1}, {96, 1, 1}, {64, 1, 1}};
  for (const unsigned threads : {1u, 2u}) {
    test::PtxRunner r(kPlaces, "places.ptx");
    const uint64_t out = r.buffer<uint32_t>(8 * kCtas * 96);
    LaunchOptions o;
    o.threads = threads;
    for (const Dim3& b : shapes) {
      const LaunchResult res =
          r.launch("places", {kCtas, 1, 1}, {b.x, b.y, 1}, {test::PtxRunner::ptr(out)}, o);
      ASSERT_FALSE(res.fault) << res.fault->describe("");
      const std::vector<uint32_t> v = r.read<uint32_t>(out, 8 * kCtas * b.x * b.y);
      for (uint32_t i = 0; i < kCtas * b.x * b.y; ++i) {
        const uint32_t t = i % (b.x * b.y), x = t % b.x, y = t / b.x, lane = t % 32;
        const uint32_t place = b.x * 1000000 + y * 1000 + x + lane;
        const std::vector<uint32_t> want = {x, y, b.x, b.y, t / 32, (1u << lane) - 1, place, place};
        EXPECT_EQ(std::vector<uint32_t>(v.begin() + 8 * i, v.begin() + 8 * i + 8), want)
            << threads << " threads, block " << b.x << "x" << b.y << ", thread " << i;
      }
    }
  }
}

}  // namespace
}  // namespace warpsim::sim
