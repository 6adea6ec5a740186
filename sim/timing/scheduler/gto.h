#pragma once
#include "sim/timing/scheduler/interface.h"

namespace warpsim::sim::timing {

class GtoScheduler final : public Scheduler {
 public:
  int pick(const std::vector<Candidate>& warps, int last) const override;
};

}  // namespace warpsim::sim::timing
