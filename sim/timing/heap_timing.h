// Device-side malloc and free on the timing model. The driver's allocator is thousands of SASS
// instructions that spin on locks; measured alone and under contention (micro_heap_calls on an
// H100, docs/FIDELITY.md "Bulk copy chains and device malloc alone, measured") a call's cost
// reads as three resources working at once, and a warp's call ends when the slowest is done:
// - the calling warp's own time: a fixed part, then its lanes' calls one after another;
// - its SM's allocator slot, which every lane's call holds for a while (four warps of one SM
//   take 1.9 times one warp's round, not the same time);
// - the device's slot, held likewise by every SM's calls (32 SMs saturate it: heap_list).
// The slots are kept as backlogs (the cycle each is free again): a warp's lanes queue behind
// the calls charged before them, so throughput under contention is the slot's, whatever the
// order the warps were issued in.
//
// What a malloc holds the device's slot grows with the mallocs its thread made before in the
// launch, and each warp's first call of a kind in a launch holds it longer (docs/FIDELITY.md
// "Device malloc: a thread's earlier calls, a warp's first"): on the H100, 32 CTAs of 128 threads
// pay about 150 cycles a call for a thread's first malloc and 1,500-2,200 for its ninth to
// sixteenth, whether 1, 4, 16, 31 or all 32 lanes of each warp call (micro_heap_lanes), so the
// cost follows neither the warp's mask nor the blocks on the heap (one calling lane a warp
// leaves a 32nd of the blocks at the same cost); and a launch of 32 CTAs spends about 450,000
// cycles on its mallocs (1.2M on its frees) beyond what its calls cost one by one.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::sim::timing {

// One kind of call's costs in cycles (heap.malloc_* or heap.free_*).
struct HeapCallCosts {
  uint32_t warp = 0;         // the calling warp's fixed part
  uint32_t lane = 0;         // the calling warp's time per calling lane
  uint32_t sm = 0;           // what each lane's call holds its SM's slot
  uint32_t device = 0;       // what each lane's call holds the device's slot
  double deviceRepeat = 0;   // ... more per call its thread made before in the launch
  uint32_t firstOfWarp = 0;  // what a warp's first call of this kind holds the device's slot more
};

class HeapTiming {
 public:
  explicit HeapTiming(unsigned smCount) : smFree_(smCount, 0) {}
  // The cycle a warp's call ends: issued at `t` on SM `sm` by `lanes` lanes, whose threads made
  // `earlierCalls` calls of this kind before it in the launch, all told (`firstOfWarp`: the
  // warp made none). malloc and free share the slots (one allocator).
  uint64_t call(const HeapCallCosts& c, unsigned sm, unsigned lanes, uint64_t earlierCalls,
                bool firstOfWarp, uint64_t t);

 private:
  std::vector<uint64_t> smFree_;
  uint64_t deviceFree_ = 0;
};

}  // namespace warpsim::sim::timing
