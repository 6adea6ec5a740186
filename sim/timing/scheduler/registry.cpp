#include "sim/timing/scheduler/gto.h"
#include "sim/timing/scheduler/lrr.h"

namespace warpsim::sim::timing {

const std::vector<SchedulerEntry>& schedulers() {
  static const std::vector<SchedulerEntry> s = {
      {"gto", "greedy-then-oldest", [] { return std::unique_ptr<Scheduler>(new GtoScheduler); }},
      {"lrr", "loose round-robin", [] { return std::unique_ptr<Scheduler>(new LrrScheduler); }},
  };
  return s;
}

const SchedulerEntry* findScheduler(const std::string& name) {
  for (const SchedulerEntry& e : schedulers())
    if (name == e.name) return &e;
  return nullptr;
}

std::string schedulerNames() {
  std::string s;
  for (const SchedulerEntry& e : schedulers()) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

}  // namespace warpsim::sim::timing
