// Which registers a function may read before it writes them: the registers live at its entry
// (backward liveness over the CFG, per thread: a guarded write does not kill, since lanes whose
// guard is false keep the old value). A frame must start with these zeroed; every other register
// is written before it is read on every path, so a recycled frame may hold anything there. The
// sources of shfl, which reads other lanes' registers (lanes that may not have written them),
// are added to the set.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace warpsim::isa {

// Register slots (not predicates) to zero when a frame of `fn` starts, sorted.
std::vector<uint32_t> registersToZeroAtEntry(const FunctionCode& fn);

}  // namespace warpsim::isa
