// ir::Module -> Program: registers resolved to slots (immediates and special registers get
// slots of their own, so every source operand is a slot), symbols resolved to addresses,
// labels to pcs, handlers bound from the instruction table, reconvergence points computed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "isa/diagnostic.h"
#include "isa/ir.h"
#include "isa/program.h"

namespace warpsim::isa {

// Where module-scope .global/.const variables live in device memory (the simulator allocates
// and initializes them before lowering).
using GlobalAddressFn = std::function<uint64_t(const ir::VarDecl& var)>;

// Lowers every function with a body. Throws PtxError at the offending instruction or
// declaration (unknown register, unsupported operand form, bad operand count, ...).
Program lower(const ir::Module& module, const GlobalAddressFn& globalAddress);

}  // namespace warpsim::isa
