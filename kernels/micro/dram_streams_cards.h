// The micro cards of kernels/micro/dram_streams.cu: the same bytes read from HBM as 1 to 8,192
// concurrent streams (issue 9: a bank and row-buffer model of HBM against one queue), and with
// 135 KB to 8.4 MB in flight (HBM's latency under load).
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = MiB read; one launch per stream count (1, 4, 16, 64, 256, 1024, 8192), each by 1,024
// CTAs of 256 threads (8,192 warps, one wave of 132 SMs at 8 CTAs each), each into its own out.
Problem makeDramStreams(uint64_t mib, uint64_t seed);
void referenceDramStreams(Problem& p);

// size = MiB read; one launch per (CTAs an SM, loads a warp keeps in flight), CTAs 1, 2, 4, 8
// of 256 threads on each of 132 SMs, loads 1, 2, 4, 8 of 128-byte lines: HBM's latency against
// the bytes in flight (a Little's-law sweep).
Problem makeDramInflight(uint64_t mib, uint64_t seed);
void referenceDramInflight(Problem& p);

}  // namespace warpsim::kernels
