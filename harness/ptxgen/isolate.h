// One instruction of a generated program run alone: a one-thread kernel that loads the
// instruction's operands with given values, runs it, and stores its destination. A first
// divergence whose instruction gives the simulator's result when it runs alone on the GPU is
// not a difference in the instruction's semantics but in how ptxas compiled its context.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/backend.h"

namespace warpsim::ptxgen {

// The value of `reg` after `insn` runs with `operands` (register -> value; registers the
// instruction writes without reading start at 0). nullopt when the instruction cannot run
// alone: it names a register outside the generator's pool, memory, a label or a warp primitive.
std::optional<uint64_t> runIsolated(harness::Backend& backend, const std::string& insn,
                                    const std::vector<std::pair<std::string, uint64_t>>& operands,
                                    const std::string& reg);

}  // namespace warpsim::ptxgen
