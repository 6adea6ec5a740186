// ptxas's if-conversion, exact to the cycle: which branches it predicates (a short guarded
// forward branch over straight-line code), what a warp that skips such a body still pays (its
// SASS issued with no lane on: shared loads wait their latency, consumers wait for them), and
// that the branch has nothing to resolve.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/timing/folds.h"
#include "sim/timing/if_convert.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"
#include "tests/timing/one_cta_cycles.h"

namespace warpsim::sim::timing {
namespace {

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// One warp; its lanes skip the body when `skip` (tid != 99 for all of them), else run it
// (tid != 99 is false for none: the guard is tid == 99). The body is scan_blelloch's up-sweep
// level: an address offset (folded into LDS's addressing in SASS), two loads, an add, a store.
std::string branchOver(bool skip, const std::string& extra = "") {
  return std::string(kHeader) +
         ".visible .entry k(.param .u64 out) {\n  .shared .align 4 .b32 s[64];\n"
         "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<2>;\n"
         "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n"
         "  mov.u32 %r3, s;\n  add.s32 %r4, %r3, %r2;\n" +
         (skip ? "  setp.ne.u32 %p1, %r1, 99;\n" : "  setp.eq.u32 %p1, %r1, 99;\n") +
         "  @%p1 bra $L_end;\n  add.s32 %r5, %r4, 4;\n  ld.shared.u32 %r6, [%r5];\n"
         "  ld.shared.u32 %r7, [%r4];\n  add.s32 %r6, %r6, %r7;\n" +
         extra + "  st.shared.u32 [%r4], %r6;\n$L_end:\n  mov.u32 %r1, 0;\n  ret;\n}\n";
}

uint64_t cycles(const std::string& ptx, const TimingConfig& c) {
  return warpsim::test::oneCtaCycles(ptx, c, nullptr, "if_convert.ptx");
}

// The pc of the kernel's (only) branch, and the function.
const isa::FunctionCode& kernelOf(const test::PtxRunner& r) {
  return r.module().program.functions.at(0);
}
uint32_t branchPc(const isa::FunctionCode& f) {
  for (const isa::Inst& in : f.code)
    if (in.flow == isa::Flow::Branch) return in.pc;
  return isa::kNoPc;
}

TEST(IfConvert, AShortGuardedForwardBranchIsPredicated) {
  test::PtxRunner r(branchOver(true));
  const isa::FunctionCode& f = kernelOf(r);
  const uint32_t pc = branchPc(f);
  ASSERT_NE(pc, isa::kNoPc);
  EXPECT_TRUE(ifConverted(f, pc, 5));   // a body of 5 PTX instructions
  EXPECT_FALSE(ifConverted(f, pc, 4));  // longer than ptxas.if_convert_max
  EXPECT_FALSE(ifConverted(f, pc, 0));
  // Only the offset whose result is used as an address alone folds into the addressing mode.
  EXPECT_TRUE(foldedIntoAddress(f, pc + 1, f.code[pc].target));
  EXPECT_FALSE(foldedIntoAddress(f, pc + 4, f.code[pc].target));  // the add of two loads
  // The SASS body: LDS, LDS, IADD, STS.
  PredicatedBodies bodies;
  addIfConverted(f, 12, bodies);
  ASSERT_EQ(bodies.count(&f.code[pc]), 1u);
  EXPECT_EQ(bodies.at(&f.code[pc]), (std::vector<uint32_t>{pc + 2, pc + 3, pc + 4, pc + 5}));
}

// The body's first instruction (an add feeding an address) is not folded into it: the body
// ptxas predicates is all of its `n` instructions.
void expectTheFirstAddStays(const std::string& ptx, uint32_t n) {
  test::PtxRunner r(ptx);
  const isa::FunctionCode& f = kernelOf(r);
  const uint32_t pc = branchPc(f);
  ASSERT_NE(pc, isa::kNoPc);
  EXPECT_FALSE(foldedIntoAddress(f, pc + 1, f.code[pc].target));
  PredicatedBodies bodies;
  addIfConverted(f, 12, bodies);
  ASSERT_EQ(bodies.count(&f.code[pc]), 1u);
  std::vector<uint32_t> all;
  for (uint32_t i = 1; i <= n; ++i) all.push_back(pc + i);
  EXPECT_EQ(bodies.at(&f.code[pc]), all);
}

// Only an add without carry-in folds: addc (the high word of a wide add) reads the carry flag,
// which an addressing mode has no place for, so ptxas keeps its IADD3.X.
TEST(IfConvert, AnAddWithCarryInIsNotFoldedIntoAnAddress) {
  std::string ptx = branchOver(true);
  const std::string add = "  add.s32 %r5, %r4, 4;\n";
  ptx.replace(ptx.find(add), add.size(), "  addc.u32 %r5, %r4, 4;\n");
  expectTheFirstAddStays(ptx, 5);
}

// Nor an add whose carry-out is used: add.cc writes the carry flag that a later addc reads, and
// an addressing mode computes no carry, so ptxas keeps the IADD3 that produces it.
TEST(IfConvert, AnAddWithCarryOutIsNotFoldedIntoAnAddress) {
  std::string ptx = branchOver(true);
  const std::string add = "  add.s32 %r5, %r4, 4;\n";
  ptx.replace(ptx.find(add), add.size(), "  add.cc.u32 %r5, %r4, 4;\n");
  const std::string store = "  st.shared.u32 [%r4], %r6;\n";
  ptx.replace(ptx.find(store), store.size(), "  addc.u32 %r7, %r7, 0;\n" + store);
  expectTheFirstAddStays(ptx, 6);
}

TEST(IfConvert, ABranchToTheEndIsAPredicatedExit) {
  // The body ends at `ret`: ptxas emits `@P EXIT` and keeps the body unpredicated.
  std::string ptx = branchOver(true);
  const std::string cut = "$L_end:\n  mov.u32 %r1, 0;\n";
  ptx.replace(ptx.find(cut), cut.size(), "$L_end:\n");
  test::PtxRunner r(ptx);
  const isa::FunctionCode& f = kernelOf(r);
  EXPECT_FALSE(ifConverted(f, branchPc(f), 12));
}

TEST(IfConvert, ABarrierOrAWarpShuffleKeepsTheBranch) {
  for (const char* extra : {"  bar.sync 0;\n", "  shfl.sync.bfly.b32 %r6, %r6, 1, 31, -1;\n"}) {
    test::PtxRunner r(branchOver(true, extra));
    const isa::FunctionCode& f = kernelOf(r);
    EXPECT_FALSE(ifConverted(f, branchPc(f), 12)) << extra;
  }
}

TEST(IfConvert, AWarpThatSkipsThePredicatedBodyStillIssuesIt) {
  TimingConfig on, off;
  off.ptxasIfConvertMax = 0;
  // The branch's predicate may guard it as soon as it may be read as data: with the chip's
  // latency.predicate_guard the branch waits for its setp long enough that, in this toy, the
  // body's loads (hoisted, ptxas.hoist_window) are back by then either way.
  on.latPredicateGuard = off.latPredicateGuard = on.latInt;
  // Off: the branch resolves in latency.control, the mov after it issues then and counts from
  // then (nothing after a forward branch counts from before it resolves): its result,
  // latency.move later, ends the launch, latency.move - 2 after `ret`'s slot would. On: the
  // body's SASS issues from the branch's slot t: LDS at t and t+1 (the offset folded), their
  // data shared.latency later, the add when the second is back (t + 1 + shared.latency), the
  // store latency.int after it, `ret` the cycle after the store.
  const uint64_t skippedOn = cycles(branchOver(true), on);
  const uint64_t skippedOff = cycles(branchOver(true), off);
  EXPECT_EQ(skippedOn - skippedOff,
            (1 + on.sharedLatency + on.latInt + 1) - (on.latControl + on.latMove - 2));
  // Lanes that run the body: the same instructions either way, but no branch to resolve.
  const uint64_t ranOn = cycles(branchOver(false), on);
  const uint64_t ranOff = cycles(branchOver(false), off);
  EXPECT_EQ(ranOff - ranOn, on.latControl - 1);
}

}  // namespace
}  // namespace warpsim::sim::timing
