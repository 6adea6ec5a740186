// The micro cards of kernels/micro/mma_chains.cu: the tensor cores' latency and throughput.
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = rounds of 32 mma per chain; launches per kind: one chain by one warp, then four chains
// by 1, 4 and 16 warps.
Problem makeMmaChain(uint64_t rounds, uint64_t seed);
void referenceMmaChain(Problem& p);

}  // namespace warpsim::kernels
