// A sub-partition's warp scheduler: each cycle it picks one of the warps that can issue.
// Implementations register by name (registry.cpp); the config's "scheduler" key selects one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace warpsim::sim::timing {

// A warp resident on the sub-partition, in slot order (the order warps arrived).
struct Candidate {
  uint64_t age = 0;       // dispatch order: smaller is older
  bool eligible = false;  // can issue this cycle
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // The index of the warp to issue among `warps` (at least one eligible); `last` is the index
  // of the warp that issued last on this sub-partition (-1: none, or it left).
  virtual int pick(const std::vector<Candidate>& warps, int last) const = 0;
};

struct SchedulerEntry {
  const char* name;
  const char* description;
  std::unique_ptr<Scheduler> (*make)();
};

// The registered schedulers, and lookup by name (nullptr when unknown).
const std::vector<SchedulerEntry>& schedulers();
const SchedulerEntry* findScheduler(const std::string& name);
std::string schedulerNames();  // "gto, lrr"

}  // namespace warpsim::sim::timing
