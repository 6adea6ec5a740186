// What ptxas folds into another SASS instruction (sim/timing/folds.h), so that the timing model
// gives it no latency and no unit: an add whose result only addresses memory, of an immediate or
// of a shared variable's address, is part of the access (micro_lds_chain's `LDS R6, [R6+UR4]`,
// ptxas.fold_addresses); a neg or abs read only by instructions with operand modifiers is one of
// theirs (micro_mufu_chain's `MUFU.EX2 R4, -R5`, ptxas.fold_modifiers); two dependent 32-bit
// adds are one IADD3 (micro_iadd_chain's 16 SASS instructions for 32 adds, ptxas.fold_add_pairs).
#include <gtest/gtest.h>

#include <string>
#include <unordered_set>

#include "sim/timing/folds.h"
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

}  // namespace
}  // namespace warpsim::sim::timing
