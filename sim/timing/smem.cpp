#include "sim/timing/smem.h"

#include <algorithm>

#include "sim/observers/access_cost.h"

namespace warpsim::sim::timing {

AccessTiming sharedAccess(const TimingConfig& c, const MemoryEvent& e, uint64_t now,
                          uint64_t& mioFree, MemoryCounters& m) {
  const SharedCost cost = sharedAccessCost(e.addresses, e.mask, e.bytes);
  const unsigned waves = std::max(1u, cost.wavefronts);
  ++m.sharedRequests;
  m.sharedWavefronts += cost.wavefronts;
  m.sharedIdealWavefronts += cost.ideal;
  if (e.kind == AccessKind::Atomic) m.sharedAtomicWavefronts += cost.wavefronts;
  const uint64_t start = std::max(now, mioFree);
  mioFree = start + uint64_t(waves) * c.sharedCyclesPerWavefront;
  const uint64_t last = start + uint64_t(waves - 1) * c.sharedCyclesPerWavefront;
  const uint32_t lat = e.kind == AccessKind::Atomic ? c.sharedAtomicLatency : c.sharedLatency;
  return {last + lat, Stall::ShortScoreboard};
}

}  // namespace warpsim::sim::timing
