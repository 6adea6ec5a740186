// What the chip's SASS does that the PTX does not show, exact to the cycle: a call saves its
// callee's stack frame (ptxas -v) to local memory and the return restores it, vprintf is a
// long call into the driver's handler, and atomics on one address at the L2 pipeline between
// warp requests but replay between the lanes of one request.
#include <gtest/gtest.h>

#include <string>

#include "harness/ptxas_resources.h"
#include "sim/observers/access_cost.h"
#include "sim/timing/l2.h"
#include "sim/timing/smem.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"
#include "tests/timing/one_cta_cycles.h"

namespace warpsim::sim::timing {
namespace {

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

uint64_t cycles(const std::string& ptx, const TimingConfig& c,
                const std::map<std::string, uint32_t>& frames = {}) {
  KernelResources k;
  k.stackFrames = frames;
  return warpsim::test::oneCtaCycles(ptx, c, frames.empty() ? nullptr : &k, "sass_costs.ptx");
}

// The kernel calls f once; f adds one to its argument.
std::string callOnce() {
  return std::string(kHeader) +
         ".func (.param .b32 r) f(.param .b32 a) {\n  .reg .b32 %r<3>;\n"
         "  ld.param.b32 %r1, [a];\n  add.s32 %r2, %r1, 1;\n  st.param.b32 [r], %r2;\n"
         "  ret;\n}\n"
         ".visible .entry k(.param .u64 out) {\n  .reg .b64 %rd<2>;\n  .reg .b32 %r<3>;\n"
         "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, 5;\n"
         "  {\n  .param .b32 p;\n  st.param.b32 [p], %r1;\n  .param .b32 q;\n"
         "  call.uni (q), f, (p);\n  ld.param.b32 %r2, [q];\n  }\n"
         "  st.global.u32 [%rd1], %r2;\n  ret;\n}\n";
}

TEST(SassCosts, ACallSavesItsFrameAndTheReturnRestoresIt) {
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  const uint32_t frame = 40, words = frame / 4;
  for (const uint32_t apart : {4u, 7u}) {
    c.frameWordCycles = apart;
    const uint64_t plain = cycles(callOnce(), c);
    const uint64_t saved = cycles(callOnce(), c, {{"f", frame}});
    // After the call resolves, the callee's prologue issues one 4-byte STL per word,
    // call.frame_word_cycles apart, and its first instruction one cycle after the last STL;
    // after the return resolves and the rest of the calling convention
    // (call.frame_convention_cycles), the LDLs issue as far apart, each hitting the L1 (local
    // stores allocate there), and the caller's next instruction waits for the last one's data.
    const uint64_t callExtra = (words - 1) * apart + 1;
    const uint64_t retExtra = c.frameConventionCycles + (words - 1) * apart + c.l1HitLatency;
    EXPECT_EQ(saved - plain, callExtra + retExtra) << apart;
    // A frame of a function the kernel never calls changes nothing.
    EXPECT_EQ(cycles(callOnce(), c, {{"g", frame}}), plain);
  }
}

TEST(SassCosts, AReturnToTheCallerResolvesAsAnIndirectBranch) {
  // f's ret is a RET.REL.NODEC to the return address: latency.return to the caller's next
  // issue. The kernel's own ret (EXIT) resolves as any branch: latency.control.
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  // What `ptx` takes longer with latency.return 90 than with 10.
  const auto returnShift = [&c](const std::string& ptx) {
    c.latReturn = 10;
    const uint64_t near = cycles(ptx, c);
    c.latReturn = 90;
    return cycles(ptx, c) - near;
  };
  EXPECT_EQ(returnShift(callOnce()), 80u);
  // Half the warp leaves by the kernel's ret; the other half goes on to store.
  const std::string noCall =
      std::string(kHeader) +
      ".visible .entry k(.param .u64 out) {\n  .reg .b64 %rd<2>;\n  .reg .b32 %r<2>;\n"
      "  .reg .pred %p<2>;\n  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
      "  setp.ge.u32 %p1, %r1, 16;\n  @%p1 ret;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
  EXPECT_EQ(returnShift(noCall), 0u);
}

TEST(SassCosts, PtxasReportsEachFunctionsStackFrame) {
  const std::string text =
      "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
      "ptxas info    : Function properties for k\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 28 registers, used 0 barriers, 360 bytes cmem[0]\n"
      "ptxas info    : Function properties for _Z1fj\n"
      "    40 bytes stack frame, 40 bytes spill stores, 40 bytes spill loads\n";
  const auto r = harness::parsePtxasVerbose(text);
  ASSERT_EQ(r.count("k"), 1u);
  EXPECT_EQ(r.at("k").registers, 28u);
  EXPECT_EQ(r.at("k").stackFrames.at("_Z1fj"), 40u);
  EXPECT_EQ(r.at("k").stackFrames.at("k"), 0u);
}

std::string printfOnce() {
  return std::string(kHeader) +
         ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, "
         ".param .b64 vprintf_param_1);\n"
         ".global .align 1 .b8 $str[4] = {104, 105, 10, 0};\n"
         ".visible .entry k(.param .u64 out) {\n  .reg .b64 %rd<5>;\n  .reg .b32 %r<2>;\n"
         "  ld.param.u64 %rd1, [out];\n  mov.u64 %rd2, $str;\n  cvta.global.u64 %rd3, %rd2;\n"
         "  mov.u64 %rd4, 0;\n"
         "  {\n  .param .b64 param0;\n  st.param.b64 [param0], %rd3;\n  .param .b64 param1;\n"
         "  st.param.b64 [param1], %rd4;\n  .param .b32 retval0;\n"
         "  call.uni (retval0), vprintf, (param0, param1);\n  ld.param.b32 %r1, [retval0];\n"
         "  }\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
}

TEST(SassCosts, VprintfHoldsItsWarpForTheHandlersCycles) {
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  c.printfCycles = 1000;
  const uint64_t short_ = cycles(printfOnce(), c);
  c.printfCycles = 5000;
  EXPECT_EQ(cycles(printfOnce(), c), short_ + 4000);
}

TEST(SassCosts, SameAddressAtomicsPipelineAcrossRequestsAndReplayWithinOne) {
  const TimingConfig c;
  L2 l2(c);
  MemoryCounters m;
  // The sector is in the L2 (a whole-sector write allocated it) long before the atomics.
  l2.access(0x1000, L2Op::Write, 0, m);
  const uint64_t t = 10000, back = c.l2HitLatency + c.atomicL2Latency;
  // One lane: its turn at once.
  EXPECT_EQ(l2.atomic(0x1004, 1, t, m), t + back);
  // Three lanes of the next request: the first l2.atomic_same_address_cycles later, each
  // further one l2.atomic_lane_cycles after the one before.
  const uint64_t first = t + c.atomicL2SameAddressCycles;
  EXPECT_EQ(l2.atomic(0x1004, 3, t, m), first + 2 * c.atomicL2LaneCycles + back);
  // The request after them waits for the last lane, then the request interval.
  EXPECT_EQ(l2.atomic(0x1004, 1, t, m),
            first + 2 * c.atomicL2LaneCycles + c.atomicL2SameAddressCycles + back);
  // Another address of the same sector is not held up (a request after those in the queue).
  EXPECT_EQ(l2.atomic(0x1008, 1, t + 100, m), t + 100 + back);
  EXPECT_EQ(m.l2AtomicOps, 6u);
}

// A loop of n trips, each loading one word (the same, an L1 hit after the first) and adding it
// up; its counter steps by `step` (a register holding 1, or the immediate 1).
struct LoopShape {
  // It also leaves when the sum is NaN (never), its guard the and of the two compares, as nvcc
  // writes `while (v != 1 && steps < limit)`.
  bool twoExits = false;
  // Each trip also runs an mma.sync of zeros that nothing else reads.
  bool tensor = false;
  // A `.pragma "nounroll"` in its header block, as nvcc writes `#pragma unroll 1`.
  bool nounroll = false;
};
std::string strideLoop(const char* step, LoopShape shape = {}) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out, .param .u32 n, .param .u32 one) {\n"
         "  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n  .reg .pred %p<4>;\n  .reg .f32 %f<8>;\n"
         "  ld.param.u64 %rd1, [out];\n  ld.param.u32 %r1, [n];\n  ld.param.u32 %r2, [one];\n"
         "  mov.u32 %r3, 0;\n  mov.u32 %r4, 0;\n  mov.f32 %f1, 0f00000000;\n$L1:\n" +
         (shape.nounroll ? "  .pragma \"nounroll\";\n" : "") +
         (shape.tensor ? "  mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f4, %f5, %f6, %f7}, "
                         "{%r4, %r4}, {%r4}, {%f1, %f1, %f1, %f1};\n"
                       : "") +
         "  ld.global.f32 %f2, [%rd1];\n  add.f32 %f1, %f1, %f2;\n  add.s32 %r3, %r3, " + step +
         (shape.twoExits ? ";\n  setp.lt.u32 %p2, %r3, %r1;\n  setp.num.f32 %p3, %f1, %f1;\n"
                           "  and.pred %p1, %p2, %p3"
                         : ";\n  setp.lt.u32 %p1, %r3, %r1") +
         ";\n  @%p1 bra $L1;\n  st.global.f32 [%rd1+4], %f1;\n  ret;\n}\n";
}

uint64_t loopCycles(const char* step, uint32_t trips, LoopShape shape = {}) {
  test::PtxRunner r(strideLoop(step, shape), "stride_loop.ptx");
  TimingModel model{TimingConfig{}};
  LaunchOptions o;
  o.runner = &model;
  const auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                            {test::PtxRunner::ptr(r.buffer<uint32_t>(32)),
                             test::PtxRunner::u32(trips), test::PtxRunner::u32(1)},
                            o);
  EXPECT_FALSE(res.fault.has_value());
  return model.lastReport() ? model.lastReport()->cycles : 0;
}

TEST(SassCosts, ARegisterStrideLoopIsNotUnrolled) {
  // ptxas unrolls the constant-stride loop: its loads overlap across trips (the hoist). A
  // register stride keeps one trip's load behind the last trip's add, a full L1 hit each.
  const TimingConfig c;
  const uint64_t perTripReg = (loopCycles("%r2", 40) - loopCycles("%r2", 20)) / 20;
  const uint64_t perTripImm = (loopCycles("1", 40) - loopCycles("1", 20)) / 20;
  EXPECT_GE(perTripReg, c.l1HitLatency + c.latFp32);
  EXPECT_LT(perTripImm, c.l1HitLatency);
}

TEST(SassCosts, ALoopThatLeavesOnTwoConditionsIsNotUnrolled) {
  // A constant stride, but the guard is the and of two compares (calls_noinline's collatz loop):
  // ptxas leaves it one trip a trip, and each trip's load waits behind the last trip's branch.
  const TimingConfig c;
  const uint64_t perTrip =
      (loopCycles("1", 40, {.twoExits = true}) - loopCycles("1", 20, {.twoExits = true})) / 20;
  EXPECT_GE(perTrip, c.l1HitLatency + c.latFp32);
  EXPECT_LT((loopCycles("1", 40) - loopCycles("1", 20)) / 20, c.l1HitLatency);
}

TEST(SassCosts, ALoopWithATensorInstructionIsNotUnrolled) {
  // A constant stride, but an mma.sync in the body (hgemm_wmma's k loop: one trip a SASS trip,
  // the next trip's loads after this trip's HMMAs): each trip's load waits behind the last
  // trip's branch, where the same loop without the mma overlaps its loads.
  const TimingConfig c;
  const uint64_t perTrip =
      (loopCycles("1", 40, {.tensor = true}) - loopCycles("1", 20, {.tensor = true})) / 20;
  EXPECT_GE(perTrip, c.l1HitLatency + c.latFp32);
  EXPECT_LT((loopCycles("1", 40) - loopCycles("1", 20)) / 20, c.l1HitLatency);
}

TEST(SassCosts, ALoopThatPragmaNounrollKeepsIsNotUnrolled) {
  // A constant stride, but `#pragma unroll 1` (micro_dram_inflight1's loop: one LDG.E.CONSTANT
  // a SASS trip, each after the last trip's FADD): each trip's load waits behind the last
  // trip's branch, where the same loop without the pragma overlaps its loads.
  const TimingConfig c;
  const uint64_t perTrip =
      (loopCycles("1", 40, {.nounroll = true}) - loopCycles("1", 20, {.nounroll = true})) / 20;
  EXPECT_GE(perTrip, c.l1HitLatency + c.latFp32);
  EXPECT_LT((loopCycles("1", 40) - loopCycles("1", 20)) / 20, c.l1HitLatency);
}

// Two global loads with a store of the first's value between them: to shared memory or to
// global memory.
std::string loadStoreLoad(const char* store) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n  .shared .align 4 .b32 s[32];\n"
         "  .reg .b64 %rd<2>;\n  .reg .f32 %f<3>;\n  ld.param.u64 %rd1, [out];\n"
         "  ld.global.f32 %f1, [%rd1];\n  " +
         store + ";\n  ld.global.f32 %f2, [%rd1+64];\n  st.global.f32 [%rd1+4], %f2;\n  ret;\n}\n";
}

TEST(SassCosts, ALoadHoistsAboveAStoreToAnotherSpaceOnly) {
  // ptxas issues sgemm_tiled's two LDGs before its two STS: the second global load does not
  // wait for the shared store (which waits for the first load). A global store may alias it:
  // the load stays behind it, a second DRAM round trip.
  const TimingConfig c;
  const uint64_t afterShared = cycles(loadStoreLoad("st.shared.f32 [s], %f1"), c);
  const uint64_t afterGlobal = cycles(loadStoreLoad("st.global.f32 [%rd1+96], %f1"), c);
  // (Hoisted, the second load's data counts from its issue at the earliest: one cycle less
  // than a whole round trip apart.)
  EXPECT_LT(afterShared, c.launchLatency + 2 * c.dramLatency);
  EXPECT_GE(afterGlobal, afterShared + c.dramLatency - 1);
  // Without the hoist both wait.
  TimingConfig off = c;
  off.ptxasHoistWindow = 0;
  EXPECT_EQ(cycles(loadStoreLoad("st.shared.f32 [s], %f1"), off), afterGlobal);
}

// A shared load whose lanes are `shift` bits apart (7: every lane in bank 0, a 32-way conflict;
// 2: consecutive words), then an independent global load whose value is stored.
std::string sharedThenGlobal(int shift) {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n  .shared .align 4 .b32 s[1024];\n"
         "  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n  .reg .f32 %f<3>;\n"
         "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, " +
         std::to_string(shift) +
         ";\n  mov.u32 %r3, s;\n  add.u32 %r2, %r2, %r3;\n  ld.shared.f32 %f1, [%r2];\n"
         "  ld.global.f32 %f2, [%rd1];\n  st.global.f32 [%rd1+4], %f2;\n  ret;\n}\n";
}

TEST(SassCosts, SharedAndGlobalAccessesShareTheL1DataPath) {
  // Shared memory and the L1 are one array behind one 128 B/cycle path: the global load after
  // a 32-way conflicted shared load waits for its 31 extra wavefronts (transpose_tiled's
  // global loads are slower than transpose_padded's on the chip).
  const TimingConfig c;
  EXPECT_EQ(cycles(sharedThenGlobal(7), c) - cycles(sharedThenGlobal(2), c),
            31 * c.sharedCyclesPerWavefront);
}

// A warp's shared load of 4 bytes per lane at addrs[lane].
struct SharedLoad {
  uint64_t addrs[32];
  MemoryEvent e;
  SharedLoad(uint64_t (*at)(unsigned), uint64_t plus) {
    for (unsigned l = 0; l < 32; ++l) addrs[l] = at(l) + plus;
    e.kind = AccessKind::Load;
    e.space = e.landed = isa::Space::Shared;
    e.mask = ~0u;
    e.addresses = addrs;
    e.bytes = 4;
  }
};

TEST(SassCosts, SharedLoadsOfOneAlignedVectorAreOneRequest) {
  const TimingConfig c;
  const uint64_t t = 100;
  // As[ty][k..k+3] of a 16x16 tile: half the warp reads one row, half the next. The four
  // loads are one LDS.128: one request, the wavefronts of a 16-byte access, the data at once.
  auto rows = [](unsigned l) -> uint64_t { return l < 16 ? 0 : 64; };
  SharedVectors v;
  MemoryCounters m;
  uint64_t mio = 0;
  const SharedLoad whole(rows, 0);
  const unsigned waves = sharedAccessCost(whole.addrs, ~0u, 16).wavefronts;
  uint64_t last = 0;
  for (uint64_t k = 0; k < 4; ++k)
    last = sharedAccessMerged(c, SharedLoad(rows, 4 * k).e, t, mio, m, v).ready;
  EXPECT_EQ(m.sharedRequests, 1u);
  EXPECT_EQ(m.sharedWavefronts, waves);
  EXPECT_EQ(last, t + (waves - 1) * c.sharedCyclesPerWavefront + c.sharedLatency);
  // Past the 16 bytes: a request of its own.
  sharedAccessMerged(c, SharedLoad(rows, 16).e, t + 50, mio, m, v);
  EXPECT_EQ(m.sharedRequests, 2u);
  // A store closes the vector: the next word after it is a request again.
  SharedLoad st(rows, 512);
  st.e.kind = AccessKind::Store;
  sharedAccessMerged(c, st.e, t + 60, mio, m, v);
  EXPECT_EQ(m.sharedRequests, 3u);
  sharedAccessMerged(c, SharedLoad(rows, 20).e, t + 70, mio, m, v);
  EXPECT_EQ(m.sharedRequests, 4u);

  // Lanes 4 bytes apart are not 16-byte aligned: no vector, each load a request.
  SharedVectors v3;
  MemoryCounters m3;
  uint64_t mio3 = 0;
  auto words = [](unsigned l) -> uint64_t { return 4ull * l; };
  sharedAccessMerged(c, SharedLoad(words, 0).e, t, mio3, m3, v3);
  sharedAccessMerged(c, SharedLoad(words, 4).e, t + 1, mio3, m3, v3);
  EXPECT_EQ(m3.sharedRequests, 2u);
  EXPECT_EQ(m3.sharedWavefronts, 2u);
}

}  // namespace
}  // namespace warpsim::sim::timing
