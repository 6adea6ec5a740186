#include "sim/timing/heap_timing.h"

#include <algorithm>
#include <cmath>

namespace warpsim::sim::timing {

uint64_t HeapTiming::call(const HeapCallCosts& c, unsigned sm, unsigned lanes, uint64_t live,
                          uint64_t t) {
  const uint64_t n = lanes;
  uint64_t& smFree = smFree_[sm];
  smFree = std::max(smFree, t) + n * c.sm;
  deviceFree_ =
      std::max(deviceFree_, t) + uint64_t(std::llround(double(n) * c.deviceEach(lanes, live)));
  return std::max({t + c.warp + n * c.lane, smFree, deviceFree_});
}

}  // namespace warpsim::sim::timing
