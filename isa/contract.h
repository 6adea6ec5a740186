// The contraction pass: fuses a mul and the add/sub that consumes it into one fused multiply-add
// where ptxas does, so that warpsim rounds once where the chip rounds once. PTX leaves the
// choice to the code generator (a mul and an add without a rounding modifier "may be
// optimized aggressively", PTX ISA 9.7.3); ptxas 13 for sm_90 makes it by the rule that
// docs/FIDELITY.md ("Contraction") derives from its SASS:
//   - a mul and an add/sub of the same type (.f32 .f64 .f16 .f16x2 .bf16 .bf16x2: FFMA, DFMA,
//     HFMA2), neither with a rounding modifier, the same .ftz, no .sat on the mul (the add's
//     .sat is kept), the mul unguarded;
//   - in one basic block, whatever lies between them;
//   - only when every use of the product that is not dead code is such an add/sub, taking it
//     as one operand (a product also stored, live into another block, used as an addend of a
//     fused pair or as both operands of one add stays a mul); an add whose two operands are
//     both such products takes the first; a product used by several adds is fused into each;
//   - a `neg` of such a product is folded in (the product's sign flips) under the same terms.
// Fused pairs become one instruction at the add's place (its line, guard and text); the muls
// (and negs) whose every use was fused are removed. Where a source of the mul is overwritten
// before the add reads the product, the pair is not fused (ptxas, which renames registers,
// would fuse it; nvcc's PTX does not write such code).
#pragma once

#include <vector>

#include "isa/insn_table.h"
#include "isa/program.h"

namespace warpsim::isa {

// Whether lowering contracts: on by default (what the chip runs); off executes PTX literally,
// each mul and add rounded on its own.
struct LowerOptions {
  bool contract = true;
};

// Contracts `fn.code` (branch targets resolved, reconvergence points not yet computed):
// `fusion[pc]` is fusionOf(each instruction's spec). Returns how many pairs it fused.
size_t contractMultiplyAdds(FunctionCode& fn, const std::vector<Fusion>& fusion);

}  // namespace warpsim::isa
