// The micro cards of kernels/micro/lds_width.cu: shared loads by width (sgemm_regblock's
// LDS.128) and regblock's inner loop alone.
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = dependent loads per lane; one launch per (width, lane pattern, warps).
Problem makeLdsChain(uint64_t iters, uint64_t seed);
void referenceLdsChain(Problem& p);

// size = rounds of 8 k-steps; one launch per CTA size (1, 4, 8, 16 warps).
Problem makeLdsFma(uint64_t rounds, uint64_t seed);
void referenceLdsFma(Problem& p);

}  // namespace warpsim::kernels
