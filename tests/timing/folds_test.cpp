// What ptxas folds into another SASS instruction (sim/timing/folds.h), so that the timing model
// gives it no latency and no unit: an add whose result only addresses memory, of an immediate or
// of a shared variable's address, is part of the access (micro_lds_chain's `LDS R6, [R6+UR4]`,
// ptxas.fold_addresses); a neg or abs read only by instructions with operand modifiers is one of
// theirs (micro_mufu_chain's `MUFU.EX2 R4, -R5`, ptxas.fold_modifiers); two dependent 32-bit
// adds are one IADD3 (micro_iadd_chain's 16 SASS instructions for 32 adds, ptxas.fold_add_pairs);
// a predicates' and/or/xor is the combining operand of the compare that makes a source of it
// (ptxas.fold_predicates), and a selp of two values computed for it alone is those computations,
// one predicated (ptxas.fold_selects): calls_noinline's collatz loop.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <unordered_set>
#include <utility>

#include "sim/timing/folds.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"
#include "tests/timing/one_cta_cycles.h"

namespace warpsim::sim::timing {
namespace {

// Lane i loads word i of a shared array through `add %r4, %r2, %r3` (%r3 the array's address)
// and stores it; `extra` goes after the load.
std::string sharedLoad(const std::string& extra = "", const char* base = "mov.u32 %r3, s") {
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n") +
         ".visible .entry k(.param .u64 out) {\n  .shared .align 4 .b32 s[32];\n"
         "  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n"
         "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n  " +
         base + ";\n  add.s32 %r4, %r2, %r3;\n  ld.shared.u32 %r5, [%r4];\n" + extra +
         "  st.global.u32 [%rd1], %r5;\n  ret;\n}\n";
}

// Whether the kernel's add (the instruction before its shared load) folds.
bool folds(const std::string& ptx) {
  test::PtxRunner r(ptx, "address_folding.ptx");
  const isa::FunctionCode& f = r.module().program.functions.at(0);
  std::unordered_set<const isa::Inst*> folded;
  addFolded(f, {}, folded);
  for (uint32_t pc = 0; pc + 1 < f.code.size(); ++pc)
    if (f.code[pc + 1].cls == isa::InsnClass::LoadShared) return folded.count(&f.code[pc]) == 1;
  ADD_FAILURE() << "no shared load";
  return false;
}

TEST(AddressFolding, AnAddOfASymbolsAddressThatOnlyAddressesFolds) {
  EXPECT_TRUE(folds(sharedLoad()));
  // Its result read as a value too: SASS computes it.
  EXPECT_FALSE(folds(sharedLoad("  st.global.u32 [%rd1+4], %r4;\n")));
  // The other operand a thread's own value, not the same in every thread: an IADD3.
  EXPECT_FALSE(folds(sharedLoad("", "mov.u32 %r3, %tid.y")));
}

TEST(AddressFolding, AFoldedAddCostsNoLatency) {
  // The chain tid -> shl -> add -> ld.shared -> st, in the PTX's order: folded, the add's
  // latency.int is gone from it, but for the one cycle of issue the model still gives each PTX
  // instruction (the load issues the cycle after the add).
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  TimingConfig off = c;
  off.ptxasFoldAddresses = 0;
  EXPECT_EQ(test::oneCtaCycles(sharedLoad(), off) - test::oneCtaCycles(sharedLoad(), c),
            c.latInt - 1);
}

// One warp's chain of `steps` rounds of `x = op(modifier(x))`: `modifier` (neg.f32, abs.f32,
// neg.s32) defines t from x, and `use` (with %f/%r registers x and t) reads it.
std::string modifierChain(const std::string& type, const std::string& modifier,
                          const std::string& use, int steps = 8) {
  const bool f = type == "f32";
  const std::string x = f ? "%f1" : "%r1", t = f ? "%f2" : "%r2";
  std::string body;
  for (int i = 0; i < steps; ++i)
    body += "  " + modifier + "." + type + " " + t + ", " + x + ";\n  " + use + ";\n";
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n") +
         ".visible .entry k(.param .u64 out) {\n  .reg .f32 %f<4>;\n  .reg .b32 %r<4>;\n"
         "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n  ld.global.b32 " +
         x + ", [%rd1];\n" + body + "  st.global.b32 [%rd1], " + x + ";\n  ret;\n}\n";
}

// Which instructions of `ptx`'s kernel fold.
size_t foldedCount(const std::string& ptx) {
  test::PtxRunner r(ptx, "modifier_folding.ptx");
  std::unordered_set<const isa::Inst*> folded;
  addFolded(r.module().program.functions.at(0), {}, folded);
  return folded.size();
}

TEST(ModifierFolding, ANegOrAbsReadOnlyByInstructionsWithOperandModifiersFolds) {
  EXPECT_EQ(foldedCount(modifierChain("f32", "neg", "ex2.approx.ftz.f32 %f1, %f2")), 8u);
  EXPECT_EQ(foldedCount(modifierChain("f32", "abs", "lg2.approx.ftz.f32 %f1, %f2")), 8u);
  EXPECT_EQ(foldedCount(modifierChain("f32", "neg", "fma.rn.f32 %f1, %f2, %f2, %f1")), 8u);
  EXPECT_EQ(foldedCount(modifierChain("f32", "abs", "max.f32 %f1, %f2, %f1")), 8u);
  EXPECT_EQ(foldedCount(modifierChain("s32", "neg", "add.s32 %r1, %r2, 3")), 8u);
  // A full-precision reciprocal or a division is a subroutine in SASS: the neg stays.
  EXPECT_EQ(foldedCount(modifierChain("f32", "neg", "rcp.rn.f32 %f1, %f2")), 0u);
  EXPECT_EQ(foldedCount(modifierChain("f32", "neg", "div.rn.f32 %f1, %f2, %f1")), 0u);
  // Stored, moved or compared as a value, or an integer multiplied: a register of its own.
  EXPECT_EQ(foldedCount(modifierChain("f32", "neg", "mov.f32 %f1, %f2")), 0u);
  EXPECT_EQ(foldedCount(modifierChain("s32", "neg", "mul.lo.s32 %r1, %r2, 3")), 0u);
  // An integer abs is IABS, an instruction of its own.
  EXPECT_EQ(foldedCount(modifierChain("s32", "abs", "add.s32 %r1, %r2, 3")), 0u);
}

TEST(ModifierFolding, AFoldedNegCostsNoLatency) {
  // neg + ex2 per step: folded, a step is the SFU's latency alone (the neg's one cycle of
  // issue counts from before the MUFU's issue, as ptxas's hoist window lets it); not folded,
  // the neg's latency.fp32 is added.
  const std::string ptx = modifierChain("f32", "neg", "ex2.approx.ftz.f32 %f1, %f2", 16);
  const std::string shorter = modifierChain("f32", "neg", "ex2.approx.ftz.f32 %f1, %f2", 8);
  TimingConfig c;
  TimingConfig off = c;
  off.ptxasFoldModifiers = 0;
  EXPECT_EQ((test::oneCtaCycles(ptx, c) - test::oneCtaCycles(shorter, c)) / 8, c.latSfu);
  EXPECT_EQ((test::oneCtaCycles(ptx, off) - test::oneCtaCycles(shorter, off)) / 8,
            c.latSfu + c.latFp32);
}

// One warp's chain of `steps` dependent `x = x + k` adds of `type` (`k` a register); `extra`
// goes after the chain's first add.
std::string addChain(int steps, const std::string& type = "u32", const std::string& extra = "") {
  const bool wide = type == "u64";
  const std::string x = wide ? "%rd2" : "%r1", k = wide ? "%rd3" : "%r2";
  std::string body;
  for (int i = 0; i < steps; ++i)
    body += "  add." + type + " " + x + ", " + x + ", " + k + ";\n" + (i == 0 ? extra : "");
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n") +
         ".visible .entry k(.param .u64 out) {\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
         "  ld.param.u64 %rd1, [out];\n  ld.global.b32 %r1, [%rd1];\n  ld.global.b32 %r2, "
         "[%rd1+4];\n  cvt.u64.u32 %rd2, %r1;\n  cvt.u64.u32 %rd3, %r2;\n" +
         body + "  st.global.b32 [%rd1], %r1;\n  st.global.b64 [%rd1+8], %rd2;\n  ret;\n}\n";
}

TEST(AddPairFolding, TwoDependentAddsAreOneIadd3) {
  // Pairs in program order: the second add of a pair holds three sources and takes no third.
  EXPECT_EQ(foldedCount(addChain(8)), 4u);
  EXPECT_EQ(foldedCount(addChain(7)), 3u);
  // The first add's result read by something else too (stored): SASS computes it, and the
  // pairing starts at the second.
  EXPECT_EQ(foldedCount(addChain(8, "u32", "  st.global.b32 [%rd1+4], %r1;\n")), 3u);
  // 64-bit adds are IADD3 and IADD3.X pairs: no third source to spare.
  EXPECT_EQ(foldedCount(addChain(8, "u64")), 0u);
}

TEST(AddPairFolding, AFoldedAddCostsNoLatency) {
  // 16 more adds are 8 more IADD3s: 8 latency.int, not 16.
  TimingConfig c;
  TimingConfig off = c;
  off.ptxasFoldAddPairs = 0;
  EXPECT_EQ((test::oneCtaCycles(addChain(32), c) - test::oneCtaCycles(addChain(16), c)) / 8,
            c.latInt);
  EXPECT_EQ((test::oneCtaCycles(addChain(32), off) - test::oneCtaCycles(addChain(16), off)) / 16,
            c.latInt);
}

// A kernel whose `body` runs between loads of %r1 and %r2 (the values) and %p0 (a predicate of
// them) and a store of %r3; `body` may use %r4-%r9 and %p1-%p5.
std::string predicateKernel(const std::string& body) {
  return std::string(".version 8.0\n.target sm_90\n.address_size 64\n") +
         ".visible .entry k(.param .u64 out) {\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<2>;\n"
         "  .reg .pred %p<6>;\n  ld.param.u64 %rd1, [out];\n  ld.global.b32 %r1, [%rd1];\n"
         "  ld.global.b32 %r2, [%rd1+4];\n  setp.lt.u32 %p0, %r2, %r1;\n" +
         body + "  st.global.b32 [%rd1], %r3;\n  ret;\n}\n";
}

// The collatz step of calls_noinline (its PTX as nvcc writes it) after `before`, then `extra`.
std::string collatzStep(const std::string& extra = "", const std::string& before = "") {
  return predicateKernel(
      before +
      "  and.b32 %r4, %r1, 1;\n  setp.eq.b32 %p2, %r4, 1;\n  mad.lo.s32 %r5, %r1, 3, 1;\n"
      "  shr.u32 %r6, %r1, 1;\n  selp.b32 %r3, %r5, %r6, %p2;\n  setp.ne.s32 %p3, %r3, 1;\n"
      "  add.s32 %r7, %r2, 1;\n  setp.lt.u32 %p4, %r7, 1000;\n  and.pred %p5, %p3, %p4;\n"
      "  @%p5 st.global.b32 [%rd1+8], %r7;\n" +
      extra);
}

// The texts of the instructions of `ptx`'s kernel that fold.
std::multiset<std::string> foldedTexts(const std::string& ptx, FoldRules rules = {}) {
  test::PtxRunner r(ptx, "predicate_folding.ptx");
  const isa::FunctionCode& f = r.module().program.functions.at(0);
  std::unordered_set<const isa::Inst*> folded;
  addFolded(f, rules, folded);
  std::multiset<std::string> out;
  for (const isa::Inst& in : f.code)
    if (folded.count(&in)) out.insert(in.text);
  return out;
}

TEST(PredicateFolding, AnAndOfACompareMadeForItAloneIsTheComparesCombiningOperand) {
  EXPECT_EQ(foldedTexts(collatzStep()), (std::multiset<std::string>{"and.pred", "selp.b32"}));
  FoldRules noPredicates;
  noPredicates.predicates = false;
  EXPECT_EQ(foldedTexts(collatzStep(), noPredicates), (std::multiset<std::string>{"selp.b32"}));
  // One source read elsewhere too: the other still folds into its compare.
  EXPECT_EQ(foldedTexts(collatzStep("  @%p3 st.global.b32 [%rd1+12], %r7;\n")).count("and.pred"),
            1u);
  // Both read elsewhere: a PLOP3 of its own.
  EXPECT_EQ(foldedTexts(collatzStep("  @%p3 st.global.b32 [%rd1+12], %r7;\n"
                                    "  @%p4 st.global.b32 [%rd1+16], %r7;\n"))
                .count("and.pred"),
            0u);
  // A read of the register before the block makes it again reads the earlier value: the
  // compare is still made for the and alone (only %p3 can fold here, %p4 being read after it).
  EXPECT_EQ(foldedTexts(collatzStep("  @%p4 st.global.b32 [%rd1+16], %r7;\n",
                                    "  setp.ne.s32 %p3, %r2, 7;\n"
                                    "  @%p3 st.global.b32 [%rd1+12], %r2;\n"))
                .count("and.pred"),
            1u);
  // Sources that no compare makes in its block (loaded before it, or combined already).
  EXPECT_TRUE(foldedTexts(predicateKernel("  and.pred %p1, %p0, %p0;\n  selp.b32 %r3, %r1, "
                                          "%r2, %p1;\n"))
                  .empty());
  EXPECT_TRUE(foldedTexts(predicateKernel("  setp.ne.and.s32 %p1, %r1, 1, %p0;\n"
                                          "  setp.ne.or.s32 %p2, %r2, 1, %p0;\n"
                                          "  xor.pred %p3, %p1, %p2;\n  selp.b32 %r3, %r1, "
                                          "%r2, %p3;\n"))
                  .empty());
}

TEST(SelectFolding, ASelectOfTwoValuesComputedForItAloneIsThoseComputations) {
  FoldRules noSelects;
  noSelects.selects = false;
  EXPECT_EQ(foldedTexts(collatzStep(), noSelects), (std::multiset<std::string>{"and.pred"}));
  // One source stored as well: SASS keeps both values and a SEL.
  EXPECT_EQ(foldedTexts(collatzStep("  st.global.b32 [%rd1+12], %r5;\n")).count("selp.b32"), 0u);
  // A source from another block (a kernel-wide value) or a load's result: SEL or a MOV stays.
  EXPECT_TRUE(foldedTexts(predicateKernel("  add.s32 %r4, %r1, 1;\n  selp.b32 %r3, %r4, %r2, "
                                          "%p0;\n"))
                  .empty());
  EXPECT_TRUE(foldedTexts(predicateKernel("  add.s32 %r4, %r1, 1;\n  ld.global.b32 %r5, "
                                          "[%rd1+8];\n  selp.b32 %r3, %r4, %r5, %p0;\n"))
                  .empty());
  EXPECT_EQ(foldedTexts(predicateKernel("  add.s32 %r4, %r1, 1;\n  mul.lo.s32 %r5, %r2, 3;\n"
                                        "  selp.b32 %r3, %r4, %r5, %p0;\n")),
            (std::multiset<std::string>{"selp.b32"}));
}

// `rounds` dependent rounds of `round` (reading and writing %r3).
std::string chain(const std::string& round, int rounds) {
  std::string body;
  for (int i = 0; i < rounds; ++i) body += round;
  return predicateKernel("  mov.b32 %r3, %r1;\n" + body);
}

// The cycles a round of `round` adds to its chain, with and without the fold `off` turns off.
std::pair<uint64_t, uint64_t> perRound(const std::string& round, TimingConfig off) {
  // No hoisting, and every dependent step latency.int whichever pipe it reads from.
  TimingConfig c;
  c.ptxasHoistWindow = off.ptxasHoistWindow = 0;
  c.latCrossPipe = off.latCrossPipe = 0;
  const auto cycles = [&](const TimingConfig& t) {
    return (test::oneCtaCycles(chain(round, 16), t) - test::oneCtaCycles(chain(round, 8), t)) / 8;
  };
  return {cycles(c), cycles(off)};
}

TEST(PredicateFolding, AFoldedAndCostsNoLatency) {
  // compare -> and -> select (of values from before: a SEL) a round. Folded, the and issues when
  // its sources are ready and its result counts from there: latency.int - 1 less a round (the
  // issue cycle stays, as for AddressFolding's add).
  TimingConfig off;
  off.ptxasFoldPredicates = 0;
  const auto [on, without] = perRound(
      "  setp.ne.s32 %p1, %r3, 1;\n  and.pred %p3, %p1, %p0;\n  selp.b32 %r3, %r1, %r2, %p3;\n",
      off);
  EXPECT_EQ(without, 3 * TimingConfig{}.latInt);
  EXPECT_EQ(without - on, TimingConfig{}.latInt - 1);
}

TEST(SelectFolding, AFoldedSelectCostsNoLatency) {
  // mad and shift of x, then the select of the two a round: folded, the select's result counts
  // from its sources' (the shift's, issued second), latency.int - 1 less a round.
  TimingConfig off;
  off.ptxasFoldSelects = 0;
  const auto [on, without] = perRound(
      "  mad.lo.s32 %r5, %r3, 3, 1;\n  shr.u32 %r6, %r3, 1;\n  selp.b32 %r3, %r5, %r6, %p0;\n",
      off);
  EXPECT_EQ(without - on, TimingConfig{}.latInt - 1);
}

TEST(SelectFolding, AFoldedSelectWaitsForItsPredicateToGuard) {
  // x's own compare selects between its mad and shift (the collatz step): in SASS the shift is
  // written under the compare's predicate (@P0 SHF), which guards latency.predicate_guard after
  // the ISETP issues; the round is that and the shift's latency.int.
  TimingConfig off;
  off.ptxasFoldSelects = 0;
  const auto [on, without] = perRound(
      "  setp.eq.s32 %p1, %r3, 7;\n  mad.lo.s32 %r5, %r3, 3, 1;\n"
      "  shr.u32 %r6, %r3, 1;\n  selp.b32 %r3, %r5, %r6, %p1;\n",
      off);
  const TimingConfig c;
  EXPECT_EQ(on, c.latPredicateGuard + c.latInt);
  // Not folded, the SEL reads the predicate as data: the round is the compare's and the SEL's
  // latencies and the ALU's issue, shorter than the chip's.
  EXPECT_LT(without, on);
}

TEST(PredicateFolding, AFoldedAndGuardsWhenItsComparesMay) {
  // Two compares of x, their and guarding the branch that loops: @P0 BRA P1 waits for both
  // ISETPs' latency.predicate_guard, folded or not.
  const std::string ptx = predicateKernel(
      "  mov.b32 %r3, 0;\n$L:\n  add.s32 %r3, %r3, 1;\n  setp.ne.s32 %p1, %r3, %r1;\n"
      "  setp.lt.u32 %p2, %r3, 1000;\n  and.pred %p3, %p1, %p2;\n  @%p3 bra $L;\n");
  TimingConfig c;
  c.ptxasHoistWindow = 0;
  TimingConfig off = c;
  off.ptxasFoldPredicates = 0;
  test::PtxRunner r(ptx, "guarded_loop.ptx");
  const auto tripCycles = [&](const TimingConfig& t, uint32_t trips) {
    TimingModel model{t};
    LaunchOptions o;
    o.runner = &model;
    const uint64_t buf = r.buffer<uint32_t>(8, {trips, 5000, 0, 0, 0, 0, 0, 0});
    EXPECT_FALSE(r.launch("k", {1, 1, 1}, {32, 1, 1}, {test::PtxRunner::ptr(buf)}, o).fault);
    return model.lastReport()->cycles;
  };
  const uint64_t on = (tripCycles(c, 40) - tripCycles(c, 20)) / 20;
  const uint64_t without = (tripCycles(off, 40) - tripCycles(off, 20)) / 20;
  // Folded, the branch waits the second compare's guard latency (it issues a cycle after the
  // first); not folded, the and's latency.int after the compares' data latency, and its own
  // guard latency.
  EXPECT_EQ(without - on, c.latInt);
}

}  // namespace
}  // namespace warpsim::sim::timing
