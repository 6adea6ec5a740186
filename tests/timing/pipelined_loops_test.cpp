// ptxas's pipelining of a short loop with barriers, exact to the cycle: which loops it unrolls
// and schedules as one block (pipelined_loops.h), and that in three trips of every four a
// read-only load's data is back before the trip that uses it, its address computed across the
// trip's barriers, while the first trip of each unrolled block waits its round trip.
#include <gtest/gtest.h>

#include <string>

#include "sim/timing/pipelined_loops.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"
#include "tests/timing/one_cta_cycles.h"

namespace warpsim::sim::timing {
namespace {

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// sgemm_tiled's tile loop in small, `trips` times: a global load (`load`: ld.global.nc or
// ld.global) whose address steps with the loop counter (one word, lane 0's, every trip: an L1 hit
// after the first), its store to shared memory, a barrier, a shared load and a chain of 24
// dependent adds of it (longer than an L1 hit), a barrier, the counter's step and the back
// edge. `between` goes before the back edge's compare (a branch there makes the body two blocks).
std::string tileLoop(const char* load, unsigned trips, const std::string& between = "") {
  std::string adds;
  for (int i = 0; i < 24; ++i) adds += "  add.f32 %f3, %f3, %f2;\n";
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n  .shared .align 4 .b32 s[32];\n"
         "  .reg .pred %p<3>;\n  .reg .b32 %r<5>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n"
         "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, 0;\n  mov.u32 %r3, s;\n"
         "  mov.f32 %f3, 0f00000000;\n$L_loop:\n  and.b32 %r2, %r1, 0;\n"
         "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  " +
         load + ".f32 %f1, [%rd3];\n  st.shared.f32 [%r3], %f1;\n  bar.sync 0;\n" +
         "  ld.shared.f32 %f2, [%r3];\n" + adds + "  bar.sync 0;\n  add.u32 %r1, %r1, 1;\n" +
         between + "  setp.lt.u32 %p1, %r1, " + std::to_string(trips) +
         ";\n  @%p1 bra $L_loop;\n  st.global.f32 [%rd1+4], %f3;\n  ret;\n}\n";
}

uint64_t cycles(const std::string& ptx, const TimingConfig& c) {
  return warpsim::test::oneCtaCycles(ptx, c, nullptr, "pipelined_loops.ptx");
}

// The cycles of trips 5 to 8: those of 8 trips less those of 4.
uint64_t secondBlock(const char* load, const TimingConfig& c) {
  return cycles(tileLoop(load, 8), c) - cycles(tileLoop(load, 4), c);
}

PipelinedLoops loopsOf(const std::string& ptx) {
  test::PtxRunner r(ptx, "pipelined_loops.ptx");
  PipelinedLoops out;
  addPipelinedLoops(r.module().program.functions.at(0), 128, {}, out);
  return out;
}

TEST(PipelinedLoops, AShortStraightLoopWithABarrierAndReadOnlyLoadsIsPipelined) {
  const PipelinedLoops tile = loopsOf(tileLoop("ld.global.nc", 8));
  EXPECT_EQ(tile.backEdges.size(), 1u);
  EXPECT_EQ(tile.readOnlyLoads.size(), 1u);
  // The body from the loop's head to its back edge: 3 + 1 + 1 + 1 + 1 + 24 + 1 + 1 + 2.
  ASSERT_FALSE(tile.body.empty());
  EXPECT_EQ(tile.body.begin()->second, 35u);
  EXPECT_EQ(tile.body.size(), 35u);
  // No read-only load (ld.global may see another thread's store across the barrier), a branch
  // in the body (two blocks: ptxas does not unroll it so), a body longer than the bound: none.
  EXPECT_TRUE(loopsOf(tileLoop("ld.global", 8)).backEdges.empty());
  const std::string branchy =
      "  setp.eq.u32 %p2, %r1, 99;\n  @%p2 bra $L_skip;\n"
      "  add.f32 %f3, %f3, %f3;\n$L_skip:\n";
  EXPECT_TRUE(loopsOf(tileLoop("ld.global.nc", 8, branchy)).backEdges.empty());
  test::PtxRunner r(tileLoop("ld.global.nc", 8), "pipelined_loops.ptx");
  PipelinedLoops shortBound;
  addPipelinedLoops(r.module().program.functions.at(0), 34, {}, shortBound);
  EXPECT_TRUE(shortBound.backEdges.empty());
}

TEST(PipelinedLoops, ThreeTripsInFourFindTheirReadOnlyLoadBack) {
  const TimingConfig c;
  TimingConfig off = c;
  off.ptxasPipelineUnroll = 0;
  // Off, every trip is alike (a barrier is a floor for every result): the store waits for the
  // load's L1 hit, and the back edge's compare for the counter's add after the barrier.
  const auto trip = [](const char* load, unsigned n, const TimingConfig& cfg) {
    return cycles(tileLoop(load, n), cfg) - cycles(tileLoop(load, n - 1), cfg);
  };
  const uint64_t plain = trip("ld.global.nc", 5, off);
  for (unsigned n = 6; n <= 8; ++n) EXPECT_EQ(trip("ld.global.nc", n, off), plain);
  // On, trips 6, 7 and 8 computed their address and loaded a trip ahead, across both barriers:
  // the store goes at once (l1.hit_latency - 1 sooner), and the counter's add and compare
  // counted from before the barrier (latency.int sooner). Trip 5, the unrolled block's first,
  // waits its round trip again, and a cycle more than off: its address's arithmetic counts from
  // the back edge's issue (the block's floor), off's from the barrier's release before it.
  const uint64_t ahead = plain - (c.l1HitLatency - 1) - c.latInt;
  EXPECT_EQ(trip("ld.global.nc", 5, c), plain + 1);
  for (unsigned n = 6; n <= 8; ++n) EXPECT_EQ(trip("ld.global.nc", n, c), ahead) << n;
  EXPECT_EQ(trip("ld.global.nc", 9, c), plain + 1);
  // Unrolled by 2, trips 5 and 7 wait, 6 and 8 do not.
  TimingConfig two = c;
  two.ptxasPipelineUnroll = 2;
  EXPECT_EQ(trip("ld.global.nc", 7, two), plain + 1);
  EXPECT_EQ(trip("ld.global.nc", 8, two), ahead);
  // A load that is not read-only is no pipelined loop's: nothing moves.
  for (unsigned n = 5; n <= 8; ++n) EXPECT_EQ(trip("ld.global", n, c), plain);
}

}  // namespace
}  // namespace warpsim::sim::timing
