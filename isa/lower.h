// ir::Module -> Program: registers resolved to slots (immediates and special registers get
// slots of their own, so every source operand is a slot), symbols resolved to addresses,
// labels to pcs, handlers bound from the instruction table, reconvergence points computed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "isa/contract.h"
#include "isa/diagnostic.h"
#include "isa/ir.h"
#include "isa/program.h"

namespace warpsim::isa {

// What a function's name stands for as a value (`mov.u64 %rd, f;`, a `.global` initializer
// `{f, g}`): an address in a window that no memory occupies, so that a load or store through it
// faults; one 16-byte slot per function of the module, in declaration order. A call through
// such a value (`call (...), %rd, (...), proto;`) enters the function (isa/indirect.h).
inline constexpr uint64_t kFunctionWindow = 0x00007D0000000000ull;
inline uint64_t functionAddress(size_t index) { return kFunctionWindow + 16 * uint64_t(index); }

// Where module-scope .global/.const variables live in device memory (the simulator allocates
// and initializes them before lowering).
using GlobalAddressFn = std::function<uint64_t(const ir::VarDecl& var)>;

// Lowers every function with a body. Throws PtxError at the offending instruction or
// declaration (unknown register, unsupported operand form, bad operand count, ...).
// `options.contract` (on by default) fuses mul + add pairs as ptxas does (isa/contract.h).
Program lower(const ir::Module& module, const GlobalAddressFn& globalAddress,
              const LowerOptions& options = {});

}  // namespace warpsim::isa
