// The micro card of kernels/micro/l1_lines.cu: an L1 hit's cost against the lines and sectors
// a warp's request touches, alone and beside other warps.
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = dependent loads per lane; one launch per (lane stride, warps).
Problem makeL1Lines(uint64_t iters, uint64_t seed);
void referenceL1Lines(Problem& p);

}  // namespace warpsim::kernels
