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

// Predicates to zero when a frame of `fn` starts, sorted: the same liveness over predicates, and
// every predicate a warp-wide instruction or a barrier reads (it may read other lanes' bits).
std::vector<uint32_t> predicatesToZeroAtEntry(const FunctionCode& fn);

struct Cfg;

// Liveness with dead code left out, as a compiler sees it (the contraction pass asks it which
// uses of a product count): an instruction is dead when it has no effect but its results and
// none of them is read by a live instruction, transitively; dead instructions' reads do not
// make a register live.
struct LiveRegisters {
  std::vector<bool> dead;  // per pc
  // Per block of the CFG: the registers and predicates live at its end (predicate p at index
  // numSlots + p).
  std::vector<std::vector<bool>> liveOut;
  uint32_t numSlots = 0;
  bool liveAtEnd(uint32_t block, RegRef r) const {
    return liveOut[block][r.pred ? numSlots + r.slot : r.slot];
  }
};
LiveRegisters liveRegisters(const FunctionCode& fn, const Cfg& cfg);

}  // namespace warpsim::isa
