// What ptxas folds into another SASS instruction, so that it has no instruction of its own: the
// timing model gives such a PTX instruction no latency and no unit (its result counts from when
// its operands were ready), and an if-converted body does not count it.
// - An add whose result only addresses memory, of an immediate or of a shared variable's address,
//   is part of the access (ptxas.fold_addresses): micro_lds_chain's `add %r, %idx, table;
//   ld.shared [%r]` is `LDS R6, [R6+UR4]` in cuobjdump -sass.
// - A float's neg or abs whose result only feeds float arithmetic or the SFU is an operand
//   modifier of its readers, and an integer neg read only by 32-bit adds is IADD3's negated
//   operand (ptxas.fold_modifiers): micro_mufu_chain's `neg.f32 t, x; ex2.approx.ftz.f32 x, t`
//   is `MUFU.EX2 R4, -R5` (tests/recorded/sass/h200_suite_sm90.tar.xz, alu_chains.sass).
// - Two dependent 32-bit adds, the first read by nothing but the second, are one three-input
//   IADD3 (or LEA / IMAD x, k, 2 when both add the same k) (ptxas.fold_add_pairs):
//   micro_iadd_chain's 32 `add.u32 x, x, k` a round are 16 SASS instructions (alu_chains.sass),
//   and its chip executes 2,166 warp-instructions where the PTX has 4,219.
// - A predicates' and/or/xor, one of whose sources is a compare's result that nothing else
//   reads, is that compare's combining operand (ISETP.NE.AND P0, PT, R3, 0x1, P1)
//   (ptxas.fold_predicates): calls_noinline's collatz loop `setp.ne.s32 %p3, %r13, 1; ...;
//   and.pred %p5, %p3, %p4; @%p5 bra` is two ISETPs and `@P0 BRA P1` (calls_noinline.sass).
// - A selp both of whose register sources are computed in its block for it alone is the two
//   computations, the second written under the predicate (ptxas.fold_selects): the same loop's
//   `mad.lo.s32 %r10, %r13, 3, 1; shr.u32 %r11, %r13, 1; selp.b32 %r13, %r10, %r11, %p2` is
//   `IMAD R3, R5, 0x3, R6; @P0 SHF.R.U32.HI R3, RZ, 0x1, R5`.
#pragma once

#include <cstdint>
#include <unordered_set>

#include "isa/program.h"

namespace warpsim::sim::timing {

// Whether ptxas folds `f`'s add at `pc` into the addressing mode of the accesses that read its
// result between `pc` and `end` ([R+imm], [R+UR]).
bool foldedIntoAddress(const isa::FunctionCode& f, uint32_t pc, uint32_t end);

// Whether ptxas folds `f`'s neg or abs at `pc` into the operands of the instructions that read
// its result between `pc` and `end` (-R, |R|).
bool foldedIntoOperand(const isa::FunctionCode& f, uint32_t pc, uint32_t end);

// Whether `f`'s and/or/xor of predicates at `pc` (its block [begin, end)) is a compare's
// combining operand: one of its sources made in the block by a setp that combines nothing, for
// it alone.
bool foldedIntoCompare(const isa::FunctionCode& f, uint32_t begin, uint32_t pc, uint32_t end);

// Whether `f`'s selp at `pc` (its block [begin, end)) is its two sources' computations, one
// written under its predicate: both made in the block by arithmetic, for it alone.
bool foldedIntoSources(const isa::FunctionCode& f, uint32_t begin, uint32_t pc, uint32_t end);

// Which folds to look for.
struct FoldRules {
  bool addresses = true;   // ptxas.fold_addresses
  bool modifiers = true;   // ptxas.fold_modifiers
  bool addPairs = true;    // ptxas.fold_add_pairs
  bool predicates = true;  // ptxas.fold_predicates
  bool selects = true;     // ptxas.fold_selects
};

// Whether the instruction at `pc` folds under `rules`, its readers looked for up to `end`.
bool foldedAway(const isa::FunctionCode& f, uint32_t pc, uint32_t end, FoldRules rules = {});

// Adds every instruction of `f` that folds under `rules` to `out`: its readers looked for up to
// the end of its basic block, and none elsewhere (another block needs the register itself).
// Adds pair up in program order: an add that takes a folded one holds three sources already and
// does not fold into the next. A predicate's and/or/xor and a selp fold where the sources they
// absorb are made in their block for them alone.
void addFolded(const isa::FunctionCode& f, FoldRules rules,
               std::unordered_set<const isa::Inst*>& out);

}  // namespace warpsim::sim::timing
