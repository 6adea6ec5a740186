// The micro cards of kernels/micro/wgmma_chains_sm90a.cu: wgmma's latency and rate by N.
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = rounds of 8 wgmma; launches per N (64, 128, 256): each wgmma waited for, by one
// warpgroup; 8 at a time, by one and by two warpgroups.
Problem makeWgmmaChain(uint64_t rounds, uint64_t seed);
void referenceWgmmaChain(Problem& p);

}  // namespace warpsim::kernels
