// ptxas's unrolling of short loops, exact to the cycle: which loops it unrolls and schedules as
// one block (pipelined_loops.h), and that in three trips of every four a read-only load's data
// is back before the trip that uses it (in a loop with barriers its address computed across
// them), while the first trip of each unrolled block waits its round trip.
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

// The configuration these tests time with: the integer work on the ALU alone
// (issue.int_on_fma_heavy 0, the default, stated), so that a trip's issue cycles are the ALU's
// and what moves is the loads' and the barriers' timing alone.
TimingConfig aluOnly() {
  TimingConfig c;
  c.intOnFmaHeavy = 0;
  // The trips' arithmetic below counts each back edge resolving in 4 cycles, under the
  // trip's own latencies (the shipped latency.control, 18, is longer than a trip), and every
  // dependent integer step latency.int, whichever pipe it reads from (no latency.cross_pipe).
  c.latControl = 4;
  c.latCrossPipe = 0;
  return c;
}

uint64_t cycles(const std::string& ptx, const TimingConfig& c) {
  return warpsim::test::oneCtaCycles(ptx, c, nullptr, "pipelined_loops.ptx");
}

PipelinedLoops loopsOf(const std::string& ptx) {
  test::PtxRunner r(ptx, "pipelined_loops.ptx");
  PipelinedLoops out;
  addPipelinedLoops(r.module().program.functions.at(0), 128, 16, 4, {}, out);
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
  addPipelinedLoops(r.module().program.functions.at(0), 34, 16, 4, {}, shortBound);
  EXPECT_TRUE(shortBound.backEdges.empty());
}

// softmax_row's `for (c = lane; c < cols; c += 32) m = fmaxf(m, x[c]);` in small, `trips` times:
// a read-only load of one word (lane 0's, every trip: an L1 hit after the first) and a max of it,
// the counter stepped by an immediate. `pragma` goes in the loop's header, `extra` before the
// back edge's compare.
std::string rowLoop(unsigned trips, const std::string& pragma = "", const std::string& extra = "") {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n  .reg .pred %p<3>;\n  .reg .b32 %r<5>;\n"
         "  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n  ld.param.u64 %rd1, [out];\n"
         "  mov.u32 %r1, 0;\n  mov.f32 %f3, 0fFF800000;\n$L_row:\n" +
         pragma +
         "  and.b32 %r2, %r1, 0;\n  mul.wide.u32 %rd2, %r2, 4;\n"
         "  add.s64 %rd3, %rd1, %rd2;\n  ld.global.nc.f32 %f1, [%rd3];\n"
         "  max.f32 %f3, %f3, %f1;\n  add.u32 %r1, %r1, 1;\n" +
         extra + "  setp.lt.u32 %p1, %r1, " + std::to_string(trips) +
         ";\n  @%p1 bra $L_row;\n  st.global.f32 [%rd1+4], %f3;\n  ret;\n}\n";
}

TEST(PipelinedLoops, AShortRowLoopWithoutBarriersOrStoresIsUnrolledAsOneBlock) {
  // Its 8 instructions, each of which may count from as far back as the block's 4 copies.
  const PipelinedLoops row = loopsOf(rowLoop(8));
  EXPECT_EQ(row.backEdges.size(), 1u);
  EXPECT_EQ(row.readOnlyLoads.size(), 1u);
  EXPECT_EQ(row.body.size(), 8u);
  ASSERT_FALSE(row.body.empty());
  EXPECT_EQ(row.body.begin()->second, 32u);
  // `.pragma "nounroll"` in the loop's header (nvcc writes it on a remainder loop), a store in
  // the body, or a body longer than ptxas.unroll_max_body: ptxas leaves the loop as written.
  EXPECT_TRUE(loopsOf(rowLoop(8, "  .pragma \"nounroll\";\n")).backEdges.empty());
  EXPECT_TRUE(loopsOf(rowLoop(8, "", "  st.global.f32 [%rd1+8], %f3;\n")).backEdges.empty());
  std::string nine;
  for (int i = 0; i < 9; ++i) nine += "  max.f32 %f3, %f3, %f3;\n";
  EXPECT_TRUE(loopsOf(rowLoop(8, "", nine)).backEdges.empty());
  // A pragma elsewhere (before the loop's header block) keeps nothing.
  const std::string before = std::string(kHeader) +
                             ".visible .entry k(.param .u64 out) {\n  .pragma \"nounroll\";\n" +
                             rowLoop(8).substr(rowLoop(8).find("  .reg .pred"));
  EXPECT_EQ(loopsOf(before).backEdges.size(), 1u);
}

TEST(PipelinedLoops, AnUnrolledRowLoopsLoadsAreInFlightTogether) {
  const TimingConfig c = aluOnly();
  TimingConfig off = c;
  off.ptxasUnrollMaxBody = 0;
  const auto trip = [](unsigned n, const TimingConfig& cfg) {
    return cycles(rowLoop(n), cfg) - cycles(rowLoop(n - 1), cfg);
  };
  // Off, the loop is as written: a load counts from the instruction ptxas.hoist_window (16, two
  // trips) before it, so two trips in three find the L1 hit back and the third waits for it.
  for (unsigned n : {5u, 6u, 8u, 9u}) EXPECT_EQ(trip(n, off), 14u) << n;
  EXPECT_EQ(trip(7, off), 33u);
  EXPECT_EQ(trip(10, off), 33u);
  // On, four copies are one block with every copy's load at its top: copies 2-4 find their
  // data back (their 8 issues and the max's chain), the first copy of each block waits the
  // whole round trip from the back edge that ends the block before (a floor), and that wait
  // moves one for one with l1.hit_latency.
  for (unsigned n : {6u, 7u, 8u, 10u, 11u, 12u}) EXPECT_EQ(trip(n, c), 14u) << n;
  EXPECT_EQ(trip(5, c), 14u + c.l1HitLatency + 4);
  EXPECT_EQ(trip(9, c), 14u + c.l1HitLatency + 4);
  TimingConfig slower = c;
  slower.l1HitLatency += 9;
  EXPECT_EQ(trip(9, slower), trip(9, c) + 9);
  EXPECT_EQ(trip(10, slower), 14u);
}

TEST(PipelinedLoops, ThreeTripsInFourFindTheirReadOnlyLoadBack) {
  const TimingConfig c = aluOnly();
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
