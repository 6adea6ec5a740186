// ptxas's addressing modes: an add whose result only addresses memory, of an immediate or of a
// shared variable's address, is part of the access in SASS (micro_lds_chain's `LDS R6,
// [R6+UR4]`), so the timing model gives it no latency and no unit (ptxas.fold_addresses).
#include <gtest/gtest.h>

#include <string>
#include <unordered_set>

#include "sim/timing/if_convert.h"
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
  addFoldedAdds(f, folded);
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

}  // namespace
}  // namespace warpsim::sim::timing
