// The instruction table: every opcode warpsim knows, derived from the families in isa/insns/.
// Each family contributes OpcodeSpecs; one opcode may have several specs, told apart by type
// (add.s32 is integer arithmetic, add.f32 floating point, add.f16x2 half precision).
// The parser's validator, the binder and the table's self-check all read this one list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "isa/ir.h"
#include "isa/program.h"

namespace warpsim::isa {

struct OpcodeSpec {
  std::string_view opcode;
  std::string_view family;             // the isa/insns file that defines it
  InsnClass cls = InsnClass::Misc;     // the class of work (bind may refine it)
  std::vector<Type> types;             // the primary types it accepts; empty = untyped
  std::vector<std::string_view> mods;  // other modifier words it accepts; "L2::*" = prefix
  // Binds a lowered instruction: sets in.run (and may refine in.cls). Returns "" on success
  // or what is wrong ("add.f32 takes 3 operands"), which lowering reports at the instruction.
  std::string (*bind)(Inst& in) = nullptr;
};

const std::vector<OpcodeSpec>& instructionTable();

// The spec that executes `in` (by opcode and primary type), nullptr when none.
const OpcodeSpec* findSpec(const std::string& opcode, const Mods& mods);

// For the parser: "" when the opcode exists and every modifier is accepted by some spec of it.
std::string validateInstruction(const ir::Instruction& instr);

}  // namespace warpsim::isa
