// Exact cycles of small kernels on the timing model, each derived from the configuration:
// dependent chains cost their latency per instruction, independent ones the unit's initiation
// interval, a k-way bank conflict k-1 extra wavefronts, one more warp than a sub-partition can
// hide stretches the chain, and a grid one CTA larger than a wave takes a second wave.
#include <gtest/gtest.h>

#include <string>

#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim::timing {
namespace {

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// N fp32 adds (or s32 ones, or another operation: `op` "mul.lo" or "xor"); dependent: each reads
// the previous one's result; independent: each reads %f1.
std::string addChain(unsigned n, bool dependent, const char* type = "f32", const char* op = "add") {
  const bool fp = std::string(type) == "f32";
  const std::string r = fp ? "%f" : "%r";
  std::string s = std::string(kHeader) + ".visible .entry k(.param .u64 out) {\n  .reg ." +
                  (fp ? "f32" : "b32") + " " + r + "<" + std::to_string(n + 3) +
                  ">;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n";
  s += fp ? "  mov.f32 %f1, 0f3F800000;\n" : "  mov.u32 %r1, 1;\n";
  for (unsigned i = 0; i < n; ++i) {
    const std::string src = dependent ? r + std::to_string(i + 1) : r + "1";
    const std::string t = std::string(op) == "xor" ? "b32" : fp ? "f32" : "s32";
    s += "  " + std::string(op) + "." + t + " " + r + std::to_string(i + 2) + ", " + src + ", " +
         r + "1;\n";
  }
  s += "  st.global." + std::string(fp ? "f32" : "u32") + " [%rd1], " + r + std::to_string(n + 1) +
       ";\n  ret;\n}\n";
  return s;
}

struct Timed {
  TimingReport report;
  LaunchResult result;
};

Timed run(const std::string& ptx, const TimingConfig& c, Dim3 grid, Dim3 block,
          uint32_t dynamicShared = 0, bool withOut = true) {
  test::PtxRunner r(ptx, "timing.ptx");
  TimingModel model(c);
  LaunchOptions o;
  o.runner = &model;
  std::vector<std::vector<uint8_t>> args;
  if (withOut) args.push_back(test::PtxRunner::ptr(r.buffer<uint32_t>(1024)));
  Timed t;
  t.result = r.launch("k", grid, block, args, o, dynamicShared);
  EXPECT_FALSE(t.result.fault.has_value()) << t.result.fault->message;
  EXPECT_TRUE(model.lastReport().has_value());
  if (model.lastReport()) t.report = *model.lastReport();
  // Every resident warp-cycle is in exactly one stall state (selected counts the issues).
  uint64_t sum = 0;
  for (uint64_t s : t.report.stalls) sum += s;
  EXPECT_EQ(sum, t.report.residentWarpCycles);
  EXPECT_EQ(t.report.stalls[size_t(Stall::Selected)], t.report.warpInstructions);
  return t;
}

uint64_t cycles(const std::string& ptx, const TimingConfig& c = {}, uint32_t threads = 32) {
  return run(ptx, c, {1, 1, 1}, {threads, 1, 1}).report.cycles;
}

// The latency and scheduler tests time the PTX in its own order (ptxas.hoist_window 0): the
// hoist lets an operand-free mov count from the CTA's start and an add held back by a full
// scheduler count from when its operand was ready, which is what these tests isolate.
TimingConfig ptxOrder() {
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  return c;
}

TEST(ExactCycles, DependentFp32ChainCostsItsLatencyPerAdd) {
  const TimingConfig c = ptxOrder();
  // ld.param at 0, mov at 1 (ready after latency.move), then every add waits for the one before;
  // the store issues when the last result is ready and drains after an L2 write
  // (l2.hit_latency). Fixed overhead: launch.latency + 1 + latency.move + l2.hit_latency.
  for (unsigned n : {16u, 64u})
    EXPECT_EQ(cycles(addChain(n, true), c),
              c.launchLatency + 1 + c.latMove + uint64_t(n) * c.latFp32 + c.l2HitLatency)
        << n;
  TimingConfig slow = ptxOrder();
  slow.latFp32 = 6;
  EXPECT_EQ(cycles(addChain(64, true), slow) - cycles(addChain(32, true), slow), 32u * 6);
}

// 32 more independent instructions of one kind: the cycles they add.
uint64_t costOf32(const char* type, const char* op, const TimingConfig& c = {}) {
  return cycles(addChain(64, false, type, op), c) - cycles(addChain(32, false, type, op), c);
}

TEST(ExactCycles, IndependentAddsIssueAtTheUnitsRate) {
  const TimingConfig c;
  ASSERT_EQ(c.iiFma, 2u);
  ASSERT_EQ(c.iiAlu, 2u);
  // fp32: either half of the FMA pipe, each busy issue.fma cycles: one a cycle.
  EXPECT_EQ(costOf32("f32", "add"), 32u * c.iiFma / 2);
  // By default (issue.int_on_fma_heavy 0) every integer instruction is the ALU's.
  ASSERT_EQ(c.intOnFmaHeavy, 0u);
  EXPECT_EQ(costOf32("s32", "add"), 32u * c.iiAlu);
  EXPECT_EQ(costOf32("s32", "mul.lo"), 32u * c.iiAlu);
  // Split as ptxas splits it: a 32-bit add is IADD3 on the ALU or IMAD.IADD on the FMA pipe's
  // heavy half, one a cycle between them; an integer multiply is the heavy half's alone (IMAD),
  // a logic operation the ALU's (LOP3): each half rate.
  TimingConfig split;
  split.intOnFmaHeavy = 1;
  EXPECT_EQ(costOf32("s32", "add", split), 32u);
  EXPECT_EQ(costOf32("s32", "mul.lo", split), 32u * c.iiFma);
  EXPECT_EQ(costOf32("s32", "xor", split), 32u * c.iiAlu);
}

// What each pipe issued, as ncu's smsp__inst_executed_pipe_* count it.
TEST(ExactCycles, EachPipeCountsWhatIssuedToIt) {
  TimingConfig split;
  split.intOnFmaHeavy = 1;
  const TimingReport add = run(addChain(32, false, "s32"), split, {1, 1, 1}, {32, 1, 1}).report;
  // The mov and 32 adds alternate between the ALU and the heavy half (ALU first on a tie).
  EXPECT_EQ(add.pipeIssues[size_t(Unit::Alu)] + add.pipeIssues[size_t(Unit::FmaHeavy)], 33u);
  EXPECT_EQ(add.pipeIssues[size_t(Unit::Alu)], 17u);
  EXPECT_EQ(add.pipeIssues[size_t(Unit::Lsu)], 1u);  // the store
  const TimingReport fadd = run(addChain(32, true), ptxOrder(), {1, 1, 1}, {32, 1, 1}).report;
  // A dependent chain in the PTX's order finds both halves free: FFMA's first choice, the lite
  // half (micro_ffma_chain on the chip: 0.90 of its instructions on the lite half, 0.004 heavy).
  EXPECT_EQ(fadd.pipeIssues[size_t(Unit::FmaLite)], 32u);
  EXPECT_EQ(fadd.pipeIssues[size_t(Unit::FmaHeavy)], 0u);
}

// A setp whose predicate either guards the next instruction (`@%p1 add`) or is read by it as
// data (`selp`): on the chip a guard waits latency.predicate_guard for its ISETP (ptxas's stall
// counts: 13), an operand the setp's class latency (4).
std::string predicateUse(bool guard) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n"
         "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
         "  ld.param.u64 %rd1, [out];\n"
         "  mov.u32 %r1, 1;\n"
         "  setp.ne.s32 %p1, %r1, 0;\n" +
         (guard ? "  @%p1 add.s32 %r2, %r1, 1;\n" : "  selp.b32 %r2, 2, 3, %p1;\n") +
         "  st.global.u32 [%rd1], %r2;\n"
         "  ret;\n}\n";
}

TEST(ExactCycles, APredicateGuardsAfterItsGuardLatencyAndIsDataAfterItsClassLatency) {
  const TimingConfig c = ptxOrder();
  ASSERT_EQ(c.latPredicateGuard, 13u);
  EXPECT_EQ(cycles(predicateUse(true), c) - cycles(predicateUse(false), c),
            c.latPredicateGuard - c.latInt);
  TimingConfig slow = ptxOrder();
  slow.latPredicateGuard = 30;
  EXPECT_EQ(cycles(predicateUse(true), slow) - cycles(predicateUse(true), c), 30u - 13u);
  EXPECT_EQ(cycles(predicateUse(false), slow), cycles(predicateUse(false), c));
}

// N dependent integer operations that alternate between a multiply (IMAD: the FMA pipe) and an
// xor (LOP3: the ALU), or are all xors.
std::string mixedIntChain(unsigned n, bool alternate) {
  std::string s = std::string(kHeader) + ".visible .entry k(.param .u64 out) {\n  .reg .b32 %r<" +
                  std::to_string(n + 3) + ">;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n" +
                  "  mov.u32 %r1, 3;\n";
  for (unsigned i = 0; i < n; ++i) {
    const std::string d = "%r" + std::to_string(i + 2), a = "%r" + std::to_string(i + 1);
    s += alternate && i % 2 ? "  mul.lo.s32 " + d + ", " + a + ", %r1;\n"
                            : "  xor.b32 " + d + ", " + a + ", %r1;\n";
  }
  return s + "  st.global.u32 [%rd1], %r" + std::to_string(n + 1) + ";\n  ret;\n}\n";
}

TEST(ExactCycles, AResultReadOnTheOtherPipeWaitsACycleMore) {
  // ptxas's stall counts: 4 between dependent instructions of one pipe, 5 across the ALU and the
  // FMA pipe (latency.cross_pipe). Every edge of the alternating chain crosses; none of the
  // xor chain's does.
  const TimingConfig c = ptxOrder();
  ASSERT_EQ(c.latCrossPipe, 1u);
  const auto per32 = [](bool alternate, const TimingConfig& cfg) {
    return cycles(mixedIntChain(64, alternate), cfg) - cycles(mixedIntChain(32, alternate), cfg);
  };
  EXPECT_EQ(per32(true, c), 32u * (c.latInt + c.latCrossPipe));
  EXPECT_EQ(per32(false, c), 32u * c.latInt);
  TimingConfig none = ptxOrder();
  none.latCrossPipe = 0;
  EXPECT_EQ(per32(true, none), 32u * c.latInt);
}

// `n` dependent `op`s (add.s32, xor.b32) of 7, the first reading %r1, into %r3 .. %r(n + 2).
std::string dependentOps(const char* op, unsigned n) {
  std::string b;
  for (unsigned i = 0; i < n; ++i)
    b += std::string("  ") + op + " %r" + std::to_string(i + 3) + ", %r" +
         std::to_string(i ? i + 2 : 1) + ", 7;\n";
  return b;
}

// Odd lanes run `n` dependent adds, even lanes as many xors, both from the value loaded before
// the branch; the sides meet at the store.
std::string divergentSides(unsigned n) {
  std::string s = std::string(kHeader) +
                  ".visible .entry k(.param .u64 out) {\n  .reg .pred %p<2>;\n  .reg .b32 %r<" +
                  std::to_string(n + 4) +
                  ">;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
                  "  ld.global.u32 %r1, [%rd1];\n  mov.u32 %r2, %tid.x;\n"
                  "  and.b32 %r2, %r2, 1;\n  setp.eq.s32 %p1, %r2, 0;\n  @%p1 bra EVEN;\n";
  s += dependentOps("add.s32", n) + "  bra.uni JOIN;\nEVEN:\n" + dependentOps("xor.b32", n);
  return s + "JOIN:\n  st.global.u32 [%rd1], %r" + std::to_string(n + 2) + ";\n  ret;\n}\n";
}

TEST(ExactCycles, ADivergentBranchsSidesRunOneAfterTheOther) {
  // ptxas moves no instruction across the BSSY/BSYNC where the lanes split and rejoin: each
  // side's chain counts from its own issue, the second side's from after the first side, though
  // both read only the value loaded before the branch (under the default hoist window).
  const TimingConfig c;
  ASSERT_GT(c.ptxasHoistWindow, 0u);
  EXPECT_EQ(cycles(divergentSides(64), c) - cycles(divergentSides(32), c), 2 * 32u * c.latInt);
  // Nothing overlaps: the kernel takes what it takes in the PTX's own order.
  for (unsigned n : {8u, 32u})
    EXPECT_EQ(cycles(divergentSides(n), c), cycles(divergentSides(n), ptxOrder())) << n;
}

// A branch every lane takes over a block too long for ptxas to predicate, then `n` dependent
// adds of a value it read before the branch.
std::string uniformSkip(unsigned n) {
  std::string s = std::string(kHeader) +
                  ".visible .entry k(.param .u64 out) {\n  .reg .pred %p<2>;\n  .reg .b32 %r<" +
                  std::to_string(n + 4) +
                  ">;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
                  "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ntid.x;\n"
                  "  setp.ne.s32 %p1, %r2, 0;\n  @%p1 bra SKIP;\n";
  for (unsigned i = 0; i < 24; ++i) s += "  xor.b32 %r2, %r2, 5;\n";
  s += "  st.global.u32 [%rd1], %r2;\nSKIP:\n";
  return s + dependentOps("add.s32", n) + "  st.global.u32 [%rd1], %r" + std::to_string(n + 2) +
         ";\n  ret;\n}\n";
}

// What 40 cycles more of latency.control (60 against 20) cost `ptx`'s kernel.
uint64_t slowerBranchesCost(const std::string& ptx) {
  TimingConfig fast, slow;
  fast.latControl = 20;
  slow.latControl = 60;
  return cycles(ptx, slow) - cycles(ptx, fast);
}

TEST(ExactCycles, NothingAfterAForwardBranchCountsFromBeforeItResolves) {
  // The adds read a value that was ready before the branch, but ptxas keeps them after it: a
  // slower branch delays the whole chain by the difference.
  for (unsigned n : {4u, 24u}) EXPECT_EQ(slowerBranchesCost(uniformSkip(n)), 40u) << n;
}

// `trips` trips of a loop ptxas leaves as written (its counter steps by a register: a
// block-stride loop), each a chain of 24 adds carried from the trip before.
std::string strideLoop(unsigned trips) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n"
         "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, 0;\n"
         "  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, " +
         std::to_string(32 * trips) + ";\n  mov.u32 %r5, %tid.x;\n$L_loop:\n" +
         [] {
           std::string chain;
           for (int i = 0; i < 24; ++i) chain += "  add.s32 %r5, %r5, 7;\n";
           return chain;
         }() +
         "  add.u32 %r1, %r1, %r2;\n  setp.lt.u32 %p1, %r1, %r3;\n"
         "  @%p1 bra $L_loop;\n  st.global.u32 [%rd1], %r5;\n  ret;\n}\n";
}

TEST(ExactCycles, ALoopsNextTripCountsFromItsBackEdgesResolution) {
  // Nothing of the next trip moves above the back edge of a loop ptxas does not unroll: every
  // trip's branch resolution is on the chain's path, the last one's (not taken) too. (Counted
  // from the branch's issue, the next trip's chain would start under the resolution.)
  for (unsigned trips : {4u, 8u})
    EXPECT_EQ(slowerBranchesCost(strideLoop(trips)), 40u * trips) << trips;
}

// One warp loads shared memory with lane stride `k` words: a k-way bank conflict.
std::string sharedStride(unsigned k) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n"
         "  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
         "  .shared .align 4 .b8 s[4096];\n"
         "  ld.param.u64 %rd1, [out];\n"
         "  mov.u32 %r1, %tid.x;\n"
         "  mul.lo.u32 %r2, %r1, " +
         std::to_string(4 * k) +
         ";\n"
         "  mov.u32 %r3, s;\n"
         "  add.u32 %r4, %r3, %r2;\n"
         "  ld.shared.u32 %r5, [%r4];\n"
         "  st.global.u32 [%rd1], %r5;\n"
         "  ret;\n}\n";
}

// A k-way conflict's latency: each of its k - 1 replayed wavefronts adds shared.replay_latency
// (micro_bank_stride on the H200: 2 cycles each, where the pipe takes one wavefront a cycle).
TEST(ExactCycles, BankConflictCostsTheReplayLatencyPerExtraWay) {
  const TimingConfig c;
  const uint64_t base = cycles(sharedStride(1));
  for (unsigned k : {2u, 4u, 8u, 32u})
    EXPECT_EQ(cycles(sharedStride(k)) - base, uint64_t(k - 1) * c.sharedReplayLatency) << k;
  TimingConfig slow;
  slow.sharedReplayLatency = 5;
  EXPECT_EQ(cycles(sharedStride(8), slow) - cycles(sharedStride(1), slow), 7u * 5);
  // The pipe's throughput is not the latency: a conflict-free access never waits a replay.
  slow.sharedCyclesPerWavefront = 3;
  EXPECT_EQ(cycles(sharedStride(1), slow), cycles(sharedStride(1)));
  // And the report counts the conflicts as ncu does: 32 wavefronts for one ideal.
  const TimingReport r = run(sharedStride(32), c, {1, 1, 1}, {32, 1, 1}).report;
  EXPECT_EQ(r.mem.sharedWavefronts, 32u);
  EXPECT_EQ(r.bankConflicts(), 31u);
}

// One warp stores shared memory with lane stride `k` words (a k-way conflict), optionally
// waits at bar.sync, then stores its tid to global memory.
std::string sharedStoreStride(unsigned k, bool barrier, unsigned stores = 1) {
  std::string st;
  for (unsigned i = 0; i < stores; ++i) st += "  st.shared.u32 [%r4], %r1;\n";
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n"
         "  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
         "  .shared .align 4 .b8 s[4096];\n"
         "  ld.param.u64 %rd1, [out];\n"
         "  mov.u32 %r1, %tid.x;\n"
         "  mul.lo.u32 %r2, %r1, " +
         std::to_string(4 * k) +
         ";\n"
         "  mov.u32 %r3, s;\n"
         "  add.u32 %r4, %r3, %r2;\n" +
         st + (barrier ? "  bar.sync 0;\n" : "") +
         "  st.global.u32 [%rd1], %r1;\n"
         "  ret;\n}\n";
}

// bar.sync makes the CTA's prior shared stores visible to its threads: it releases no sooner
// than its warps' stores are performed, so a conflicted store's k - 1 replays delay it.
TEST(ExactCycles, ABarrierWaitsForItsWarpsConflictedSharedStores) {
  // A k-way store issued at t has its last wavefront at t + (k - 1) (the pipe's pace: nothing
  // comes back, so no replay latency) and is performed shared.store_latency later; the
  // barrier issued at t + 1 releases at the later of t + 1 + latency.barrier and that.
  const TimingConfig c;
  ASSERT_LT(c.sharedStoreLatency, 1 + c.latBarrier);
  const uint64_t base = cycles(sharedStoreStride(1, true));
  for (unsigned k : {2u, 8u, 32u}) {
    const int64_t performed = int64_t(k - 1) * c.sharedCyclesPerWavefront + c.sharedStoreLatency;
    const int64_t extra = std::max<int64_t>(0, performed - (1 + int64_t(c.latBarrier)));
    EXPECT_EQ(int64_t(cycles(sharedStoreStride(k, true)) - base), extra) << k;
  }
  EXPECT_EQ(cycles(sharedStoreStride(32, true)) - base, 31u + c.sharedStoreLatency - 21u);
  // Without the barrier the global store waits only for the L1 data path the shared store's
  // wavefronts occupy (one per shared.cycles_per_wavefront).
  EXPECT_EQ(cycles(sharedStoreStride(32, false)) - cycles(sharedStoreStride(1, false)),
            31u * c.sharedCyclesPerWavefront);
  // A store slower to be performed than the barrier holds it.
  TimingConfig slowStore;
  slowStore.sharedStoreLatency = 100;
  EXPECT_EQ(cycles(sharedStoreStride(1, true), slowStore) - base, 100u - (1 + c.latBarrier));
  // A barrier slower than the store hides it.
  TimingConfig slowBarrier;
  slowBarrier.latBarrier = 200;
  EXPECT_EQ(cycles(sharedStoreStride(32, true), slowBarrier),
            cycles(sharedStoreStride(1, true), slowBarrier));
}

// A warp's k-way shared store replays shared.replay_latency apart at the warp's own pace, and
// the warp issues its next shared access after the last (shared.warp_pace); without the pace it
// would follow as soon as the SM's pipe is free, k cycles after the first.
TEST(ExactCycles, AWarpsNextSharedAccessWaitsForItsConflictedStoresReplays) {
  TimingConfig unpaced;
  unpaced.sharedWarpPace = 0;
  const TimingConfig c;
  for (unsigned k : {1u, 2u, 8u, 32u}) {
    const uint64_t paced = cycles(sharedStoreStride(k, false, 2), c),
                   free = cycles(sharedStoreStride(k, false, 2), unpaced);
    // The second store starts at t + 1 + (k - 1) x replay_latency instead of t + k.
    EXPECT_EQ(paced - free, uint64_t(k - 1) * (c.sharedReplayLatency - c.sharedCyclesPerWavefront))
        << k;
  }
}

TEST(ExactCycles, OneMoreWarpThanTheSchedulerCanHide) {
  // One sub-partition, a dependent fp32 chain of latency 4 on every warp. Loose round-robin:
  // four warps hide the latency (one add per cycle), a fifth makes every round 5 cycles.
  TimingConfig c = ptxOrder();
  c.smspPerSm = 1;
  c.scheduler = "lrr";
  auto perAdd = [&](unsigned warps) {
    return cycles(addChain(64, true), c, 32 * warps) - cycles(addChain(32, true), c, 32 * warps);
  };
  for (unsigned warps : {1u, 2u, 4u, 5u, 8u})
    EXPECT_EQ(perAdd(warps), 32u * std::max<uint64_t>(c.latFp32, warps)) << warps << " warps";
  // Greedy-then-oldest: the four oldest warps take every issue slot while they can, the fifth
  // waits until they finish and then runs alone: the chain costs a second pass.
  c.scheduler = "gto";
  for (unsigned warps : {1u, 2u, 4u, 5u, 8u})
    EXPECT_EQ(perAdd(warps), 32u * c.latFp32 * ((warps + 3) / 4)) << warps << " warps";
}

// One warp, a dependent chain and no memory: one CTA's time does not depend on its SM.
std::string computeOnly() {
  std::string s = std::string(kHeader) +
                  ".visible .entry k() {\n  .reg .f32 %f<70>;\n"
                  "  mov.f32 %f1, 0f3F800000;\n";
  for (unsigned i = 0; i < 64; ++i)
    s += "  fma.rn.f32 %f" + std::to_string(i + 2) + ", %f" + std::to_string(i + 1) +
         ", %f1, %f1;\n";
  return s + "  ret;\n}\n";
}

TEST(ExactCycles, CtaWaves) {
  // 200 KB of dynamic shared memory: one CTA per SM, so 132 SMs run 132 CTAs per wave.
  const TimingConfig c;
  auto t = [&](uint32_t ctas) {
    return run(computeOnly(), c, {ctas, 1, 1}, {32, 1, 1}, 200 * 1024, false).report;
  };
  const TimingReport one = t(1), full = t(132), over = t(133), two = t(264), three = t(265);
  EXPECT_EQ(one.cycles, full.cycles);
  EXPECT_EQ(over.cycles, two.cycles);
  EXPECT_GT(over.cycles, full.cycles);
  // Each further wave starts the cycle after the previous one's CTA retired.
  EXPECT_EQ(three.cycles - over.cycles, over.cycles - full.cycles);
  EXPECT_EQ(full.waves, 1u);
  EXPECT_EQ(over.waves, 2u);
  EXPECT_EQ(three.waves, 3u);
  EXPECT_EQ(over.occupancy.ctasPerSm, 1u);
  EXPECT_EQ(over.occupancy.limiter, "shared");
  // mov at 0, then 64 fma each latency.fp32 after the one before; the kernel ends when the
  // last result is written.
  EXPECT_EQ(full.cycles, c.launchLatency + c.latMove + 64 * c.latFp32);
}

TEST(ExactCycles, AnSmStartsItsCtasOneIntervalApart) {
  // One SM, four one-warp CTAs resident at once (each on its own sub-partition): the k-th
  // starts k x launch.cta_interval after the first, so the last ends 3 intervals later.
  TimingConfig c;
  c.smCount = 1;
  auto t = [&](uint32_t interval) {
    c.ctaLaunchInterval = interval;
    return run(computeOnly(), c, {4, 1, 1}, {32, 1, 1}, 0, false).report.cycles;
  };
  const uint64_t together = t(0);
  EXPECT_EQ(together, c.launchLatency + c.latMove + 64 * c.latFp32);
  EXPECT_EQ(t(190), together + 3 * 190);
  // A CTA that takes a freed slot later than the interval starts at once.
  EXPECT_EQ(t(2), together + 3 * 2);
}

TEST(ExactCycles, PredictionDoesNotDependOnHostThreads) {
  const TimingConfig c;
  test::PtxRunner r(addChain(40, true), "timing.ptx");
  uint64_t first = 0;
  for (unsigned threads : {1u, 2u, 8u}) {
    TimingModel model(c);
    LaunchOptions o;
    o.runner = &model;
    o.threads = threads;
    r.launch("k", {300, 1, 1}, {96, 1, 1}, {test::PtxRunner::ptr(r.buffer<uint32_t>(1))}, o);
    ASSERT_TRUE(model.lastReport());
    if (!first) first = model.lastReport()->cycles;
    EXPECT_EQ(model.lastReport()->cycles, first);
  }
}

}  // namespace
}  // namespace warpsim::sim::timing
