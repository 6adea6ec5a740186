// Greedy-then-oldest: keep issuing from the warp that issued last while it can; otherwise the
// oldest eligible warp (Rogers et al., MICRO 2012; Accel-Sim's default for Volta onwards).
#include "sim/timing/scheduler/gto.h"

namespace warpsim::sim::timing {

int GtoScheduler::pick(const std::vector<Candidate>& warps, int last) const {
  if (last >= 0 && size_t(last) < warps.size() && warps[size_t(last)].eligible) return last;
  int best = -1;
  for (size_t i = 0; i < warps.size(); ++i)
    if (warps[i].eligible && (best < 0 || warps[i].age < warps[size_t(best)].age)) best = int(i);
  return best;
}

}  // namespace warpsim::sim::timing
