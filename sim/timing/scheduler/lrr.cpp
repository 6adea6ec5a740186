// Loose round-robin: the first eligible warp after the one that issued last, in slot order.
#include "sim/timing/scheduler/lrr.h"

namespace warpsim::sim::timing {

int LrrScheduler::pick(const std::vector<Candidate>& warps, int last) const {
  const size_t n = warps.size();
  const size_t start = last >= 0 ? size_t(last) + 1 : 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    if (warps[i].eligible) return int(i);
  }
  return -1;
}

}  // namespace warpsim::sim::timing
