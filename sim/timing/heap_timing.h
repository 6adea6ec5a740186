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
// What a malloc holds the device's slot depends on its warp's mask (docs/FIDELITY.md "Device
// malloc: full warps and partial ones"): a call by all 32 lanes holds it briefly on an empty
// heap and longer as blocks accumulate (on the H100, 32 CTAs of full warps pay 243 cycles a call
// over their first 4,096 calls and 2,088 over calls 32,768-65,536, with the L2 atomics a call
// makes growing alike: 77 to 1,362), while heap_list's warps, whose lanes leave the loop one by
// one, pay 1,660-1,760 a call from their first calls on, at 8 SMs as at 32.
#pragma once

#include <cstdint>
#include <vector>

namespace warpsim::sim::timing {

// One kind of call's costs in cycles (heap.malloc_* or heap.free_*).
struct HeapCallCosts {
  uint32_t warp = 0;    // the calling warp's fixed part
  uint32_t lane = 0;    // the calling warp's time per calling lane
  uint32_t sm = 0;      // what each lane's call holds its SM's slot
  uint32_t device = 0;  // what each lane's call holds the device's slot (a partial warp's call)
  // A full warp's call: what each lane holds the device's slot on an empty heap, and more per
  // block live on the heap.
  uint32_t deviceFullWarp = 0;
  double deviceFullWarpPerLive = 0;
  // What each of `lanes` lanes' calls holds the device's slot, with `live` blocks on the heap.
  double deviceEach(unsigned lanes, uint64_t live) const {
    return lanes == 32 ? deviceFullWarp + deviceFullWarpPerLive * double(live) : device;
  }
};

class HeapTiming {
 public:
  explicit HeapTiming(unsigned smCount) : smFree_(smCount, 0) {}
  // The cycle a warp's call ends: issued at `t` on SM `sm` by `lanes` lanes, with `live` blocks
  // on the heap. malloc and free share the slots (one allocator).
  uint64_t call(const HeapCallCosts& c, unsigned sm, unsigned lanes, uint64_t live, uint64_t t);

 private:
  std::vector<uint64_t> smFree_;
  uint64_t deviceFree_ = 0;
};

}  // namespace warpsim::sim::timing
