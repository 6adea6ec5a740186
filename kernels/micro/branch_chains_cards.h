// The micro card of kernels/micro/branch_chains.cu: a warp's chain of rounds through an
// if/else that stays a branch in SASS (issue 9).
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = rounds; one launch per mode: every lane left, all lanes one way by the round, the
// lanes split by parity.
Problem makeBranchChain(uint64_t iters, uint64_t seed);
void referenceBranchChain(Problem& p);

}  // namespace warpsim::kernels
