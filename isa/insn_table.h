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

// What an instruction does with its operands and with control. Every spec declares it; the
// registers an instruction defines and uses and its Flow follow from it (isa/facts.cpp).
enum class Role : uint8_t {
  Unset,           // not declared: the table's self-check fails
  Compute,         // writes its first operand (a register, {vector} or p|q), reads the others
  ComputeCarryIn,  // as Compute, and reads the carry flag (addc, subc, madc)
  Effect,          // writes no register: stores, reductions, fences, prefetches, nanosleep
  Branch,          // bra
  Call,            // call: arguments and returns travel through .param memory
  Return,          // ret
  Exit,            // exit
  Trap,            // trap, brkpt
  Barrier,         // bar / barrier (bar.red writes its first operand), bar.warp.sync
  Unmodelled,      // parsed, never executed (faults "not supported yet"): reads every operand
};

// The operation an instruction performs, for the passes that ask what it computes instead of
// reading its opcode: the contraction pass (fusionOf), the timing model's FLOP counts, address
// folding and stride analysis, and its fences. Every spec declares it; Other is everything
// none of them asks about. With the role it tells add (Role::Compute) from addc
// (Role::ComputeCarryIn), and with the class the integer add from the floating-point one.
enum class Operation : uint8_t {
  Unset,           // not declared: the table's self-check fails
  Other,           // none of the below
  Add,             // add, addc
  Subtract,        // sub, subc
  Multiply,        // mul, mul24
  MultiplyAdd,     // fma, mad, mad24, madc
  Divide,          // div
  Negate,          // neg
  Absolute,        // abs (the timing model: ptxas folds a float's into its reader's operand)
  ShiftLeft,       // shl (the timing model: ptxas makes a shift by a constant IMAD.SHL)
  Min,             // min (the timing model: FMNMX and VIMNMX are ALU instructions)
  Max,             // max
  Membar,          // membar.{cta,gl,sys}: the older fence (sequentially consistent at its level)
  Fence,           // fence: .sc, .acq_rel (with a scope), and the .proxy forms
  Load,            // ld (isa/invariants.h: a kernel parameter's ld.param)
  Move,            // mov
  ConvertAddress,  // cvta
  // and, or, xor (the timing model: ptxas folds a predicate's into the compare that makes one
  // of its sources, ISETP's combining operand)
  And,
  Or,
  Xor,
  Compare,  // setp
  Select,   // selp (the timing model: ptxas writes its sources' results under its predicate)
};

// What an instruction is to the contraction pass (isa/contract.h), which fuses a multiply into
// the add or subtract that consumes it, as ptxas does (docs/FIDELITY.md, "Contraction").
enum class Fusion : uint8_t {
  None,
  Multiply,  // mul of a floating-point type: a product that may be fused
  Divide,    // div (.approx/.full .f32 without .ftz): its quotient fuses as a product
  Add,       // add: may absorb a product
  Subtract,  // sub: may absorb a product (as minuend or subtrahend)
  Negate,    // neg: folded into the product it negates
};

// Operand forms an opcode accepts beyond registers, immediates, addresses and {vectors}; the
// lowering refuses them elsewhere.
struct OperandForms {
  bool selectors = false;         // `%r1.b0`, `%r2.h10`: byte/half selectors (video)
  bool negatedRegisters = false;  // `-%r1` (vmad)
  // `{%r1}` stays a one-element vector (texture coordinates) instead of standing for %r1, as
  // it does elsewhere (Triton writes `ld.global.b32 { %r1 }, [ %rd1 + 0 ];`).
  bool oneElementVectors = false;
};

// Thrown by a binder for a form the chip's driver refuses to load (isa/diagnostic.h): lowering
// reports `message` at the instruction, with the driver's answer.
struct Refused {
  Refusal refusal;
  std::string message;
};

struct OpcodeSpec {
  std::string_view opcode;
  std::string_view family;          // the isa/insns file that defines it
  InsnClass cls = InsnClass::Misc;  // the class of work (bind may refine it)
  Role role = Role::Unset;
  Operation operation = Operation::Unset;
  std::vector<Type> types;             // the primary types it accepts; empty = untyped
  std::vector<std::string_view> mods;  // other modifier words it accepts; "L2::*" = prefix
  // Binds a lowered instruction: sets in.run (and may refine in.cls). Returns "" on success
  // or what is wrong ("add.f32 takes 3 operands"), which lowering reports at the instruction;
  // throws Refused for a form the chip's driver refuses.
  std::string (*bind)(Inst& in) = nullptr;
  // Immediates take the last type word; operands 1..firstTypedOperands take the first instead
  // (slct.dtype.ctype d, a, b, c: a and b are of dtype).
  uint8_t firstTypedOperands = 0;
  OperandForms forms = {};
};

// What the contraction pass makes of a spec: the floating-point (Fp32, Half) multiply, add,
// subtract and negate, and the f32/f64 divide (its .approx/.full quotient fuses as a product;
// lowering checks the modifiers); Fusion::None for everything else.
Fusion fusionOf(const OpcodeSpec& s);

const std::vector<OpcodeSpec>& instructionTable();

// The spec that executes `in` (by opcode and primary type), nullptr when none.
const OpcodeSpec* findSpec(const std::string& opcode, const Mods& mods);

// For the parser: "" when the opcode exists and every modifier is accepted by some spec of it.
std::string validateInstruction(const ir::Instruction& instr);

}  // namespace warpsim::isa
