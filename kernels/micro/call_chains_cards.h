// The micro card of kernels/micro/call_chains.cu: a warp's chain of calls (issue 9).
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = dependent calls per lane; one launch per (mode, lanes): leaf by 32 and 16 lanes,
// a frame by 32 and 16 lanes, divergent depths by 32 lanes.
Problem makeCallChain(uint64_t iters, uint64_t seed);
void referenceCallChain(Problem& p);

}  // namespace warpsim::kernels
