// The micro card of kernels/micro/store_pitch.cu: the L2's rate for a warp's stores of one word
// in each of 32 rows, against the rows' pitch.
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = the region's words; one launch per pitch, each on a region of its own.
Problem makeStorePitch(uint64_t words, uint64_t seed);
void referenceStorePitch(Problem& p);

}  // namespace warpsim::kernels
