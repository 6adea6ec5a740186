#include "sim/timing/heap_timing.h"

#include <algorithm>
#include <cmath>

namespace warpsim::sim::timing {

uint64_t HeapTiming::call(const HeapCallCosts& c, unsigned sm, unsigned lanes,
                          uint64_t earlierCalls, bool firstOfWarp, uint64_t t) {
  const uint64_t n = lanes;
  uint64_t& smFree = smFree_[sm];
  smFree = std::max(smFree, t) + n * c.sm;
  deviceFree_ = std::max(deviceFree_, t) + (firstOfWarp ? c.firstOfWarp : 0) + n * c.device +
                uint64_t(std::llround(c.deviceRepeat * double(earlierCalls)));
  return std::max({t + c.warp + n * c.lane, smFree, deviceFree_});
}

}  // namespace warpsim::sim::timing
