// Facts about instructions that the SIMT core, the CFG, the timing model and the checkers read
// instead of comparing opcode strings: an instruction's Flow and the registers it defines and
// uses, derived in one place from the Role its spec declares (isa/insn_table.h).
#pragma once

#include <string>

#include "isa/insn_table.h"

namespace warpsim::isa {

// Fills in.flow, in.defs and in.uses of a bound instruction from its spec's role.
void deriveFacts(Inst& in, Role role);

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
