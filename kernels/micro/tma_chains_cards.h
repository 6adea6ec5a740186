// The micro card of kernels/micro/tma_chains.cu: a bulk copy's (TMA's) round trip.
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = copies, one after the other, by one warp; launches: through the tensor map with the
// barrier-init fence, with prefetch.tensormap and the fence, with neither; a plain bulk copy with
// the fence.
Problem makeTmaChain(uint64_t rounds, uint64_t seed);
void referenceTmaChain(Problem& p);

}  // namespace warpsim::kernels
