// Shared memory on one SM: an access takes one wavefront per distinct bank row its lanes touch
// (sharedAccessCost: bank conflicts replay, one word broadcasts), served one wavefront per
// shared.cycles_per_wavefront on the SM's MIO pipe, its data back shared.latency cycles after
// the last wavefront starts.
#pragma once

#include <cstdint>

#include "sim/observer.h"
#include "sim/timing/config.h"
#include "sim/timing/report.h"

namespace warpsim::sim::timing {

struct AccessTiming {
  uint64_t ready = 0;  // the cycle a load's (or atomic's) result may be used
  Stall kind = Stall::ShortScoreboard;
};

// `mioFree`: the cycle the SM's MIO pipe is free (advanced by the access).
AccessTiming sharedAccess(const TimingConfig& c, const MemoryEvent& e, uint64_t now,
                          uint64_t& mioFree, MemoryCounters& m);

}  // namespace warpsim::sim::timing
