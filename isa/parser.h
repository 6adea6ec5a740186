// PTX text -> ir::Module. Opcode-agnostic: `@%p op.mod.mod operands;` is parsed generically;
// whether the opcode and its modifiers exist is checked against the instruction table
// (isa/insns) by the caller-supplied validator, so the grammar never lists opcodes.
//
// Nested `{ }` scopes (e.g. nvcc's `{ // callseq N` blocks) may redeclare names; the parser
// renames a declaration that shadows or repeats an outer one to "name$N" (N = the count of
// nested `{` opened so far in the function; a register range %r<4> becomes %r$N_<4>, members
// %r$N_0 ..., so that range members stay unambiguous) and rewrites every use inside that
// scope, so a Function's names are unique.
#pragma once

#include <functional>
#include <string>

#include "isa/diagnostic.h"
#include "isa/ir.h"

namespace warpsim::isa {

// Returns an empty string when `instr`'s opcode and modifiers are valid, else what is wrong
// (e.g. "unknown opcode 'foo'" or "'ld' does not take modifier '.bogus'"); the parser turns a
// non-empty answer into a PtxError at the instruction.
using OpcodeValidator = std::function<std::string(const ir::Instruction& instr)>;

// Parses a whole module. Throws PtxError (file:line:col, the line, a caret) on malformed input.
// Never crashes or hangs on any input: every loop consumes a token, nesting depth is bounded.
ir::Module parseModule(const std::string& text, const std::string& path,
                       const OpcodeValidator& validate = {});

}  // namespace warpsim::isa
