// The micro card of kernels/micro/heap_calls.cu: device-side malloc and free by 1 to 4,096
// threads at once (issue 9: heap.malloc_cycles, heap.free_cycles).
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

// size = mallocs (then frees) per thread; a malloc launch and a free launch per shape, the
// blocks holding values of each thread's seeded sequence and the free launch summing them.
Problem makeHeapCalls(uint64_t calls, uint64_t seed);
void referenceHeapCalls(Problem& p);

// micro_heap_lanes: size mallocs (then frees) by the first 32, 31, 16, 4 and 1 lanes of every
// warp of 32 CTAs of 128 threads, a malloc and a free launch per lane count.
Problem makeHeapLanes(uint64_t calls, uint64_t seed);
void referenceHeapLanes(Problem& p);

// micro_heap_shrink: lane l of every warp of 32 CTAs of 128 threads mallocs size - size * l / 32
// blocks (then frees them), so each warp's mask shrinks from round to round.
Problem makeHeapShrink(uint64_t calls, uint64_t seed);
void referenceHeapShrink(Problem& p);

}  // namespace warpsim::kernels
