// Facts about instructions that the SIMT core, the CFG, the timing model and the checkers read
// instead of comparing opcode strings: an instruction's Flow and the registers it defines and
// uses, derived in one place from the Role its spec declares (isa/insn_table.h).
#pragma once

#include <string>

#include "isa/insn_table.h"

namespace warpsim::isa {

// Fills in.flow, in.defs and in.uses of a bound instruction from its spec's role.
void deriveFacts(Inst& in, Role role);

// The longest loop, and the most registers and predicates its body may write, that
// markPureLoops marks (a spin loop on a flag is 3 to 6 instructions).
inline constexpr uint32_t kPureLoopMaxLength = 16, kPureLoopMaxDefs = 8;

// Sets closesPureLoop on each uniform-able backward bra (no brx) of `fn` whose loop, its target
// up to it, is at most kPureLoopMaxLength instructions that all run in sequence (Flow::Next)
// and compute (Role::Compute) registers from registers and memory reads: no stores, atomics,
// barriers, warp exchanges or collectives, tensor or miscellaneous work, synchronization roles
// or dynamic special registers (%clock); their definitions at most kPureLoopMaxDefs registers.
// Executed again from the same registers and memory, such a loop does the same again.
void markPureLoops(FunctionCode& fn);

// Whether the instruction does nothing but write its registers: arithmetic, conversions, moves
// and comparisons (no memory, control, warp-wide exchange or fault).
bool onlyWritesRegisters(const Inst& in);

// The role of an opcode ("st", "bar", ...) as its specs declare it; Role::Unset when unknown.
Role roleOf(std::string_view opcode);

// Whether an instruction written as `opcode.mod.mod` (e.g. "bar.red.popc.u32") writes its first
// operand: for tools that read PTX text, such as the ISA program tracer.
bool writesFirstOperand(const std::string& fullOpcode);

// Whether lanes that reach the instruction unguarded leave their path there for good: exit,
// trap, and ret (which leaves a device function, or the kernel in its own frame).
inline bool endsPath(const Inst& in) {
  return in.flow == Flow::Exit || in.flow == Flow::Return || in.flow == Flow::Trap;
}

}  // namespace warpsim::isa
