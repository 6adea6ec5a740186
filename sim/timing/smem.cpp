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

AccessTiming sharedAccessMerged(const TimingConfig& c, const MemoryEvent& e, uint64_t now,
                                uint64_t& mioFree, MemoryCounters& m, SharedVectors& v) {
  if (e.kind != AccessKind::Load || !e.mask) {
    v.reset();
    return sharedAccess(c, e, now, mioFree, m);
  }
  if (e.bytes != 4 && e.bytes != 8) return sharedAccess(c, e, now, mioFree, m);
  const unsigned first = unsigned(__builtin_ctz(e.mask));
  for (SharedVectors::Group& g : v.groups) {
    if (!g.offset || g.mask != e.mask || e.addresses[first] != g.next || g.offset + e.bytes > 16)
      continue;
    uint64_t base[32] = {};
    bool ok = true;
    for (uint32_t mask = e.mask; mask && ok; mask &= mask - 1) {
      const unsigned l = unsigned(__builtin_ctz(mask));
      base[l] = e.addresses[l] - g.offset;
      ok = base[l] % 16 == 0;
    }
    if (!ok) continue;
    const SharedCost cost = sharedAccessCost(base, e.mask, g.offset + e.bytes);
    const unsigned extra = cost.wavefronts > g.charged ? cost.wavefronts - g.charged : 0;
    m.sharedWavefronts += extra;
    m.sharedIdealWavefronts += cost.ideal > g.chargedIdeal ? cost.ideal - g.chargedIdeal : 0;
    uint64_t ready = g.ready;
    if (extra) {
      const uint64_t start = std::max(now, mioFree);
      mioFree = start + uint64_t(extra) * c.sharedCyclesPerWavefront;
      ready = std::max(ready,
                       start + uint64_t(extra - 1) * c.sharedCyclesPerWavefront + c.sharedLatency);
    }
    g.charged = std::max(g.charged, cost.wavefronts);
    g.chargedIdeal = std::max(g.chargedIdeal, cost.ideal);
    g.offset += e.bytes;
    g.next += e.bytes;
    g.ready = ready;
    if (g.offset == 16) g.offset = 0;
    return {ready, Stall::ShortScoreboard};
  }
  const uint64_t wavesBefore = m.sharedWavefronts, idealBefore = m.sharedIdealWavefronts;
  const AccessTiming a = sharedAccess(c, e, now, mioFree, m);
  bool aligned = true;
  for (uint32_t mask = e.mask; mask && aligned; mask &= mask - 1)
    aligned = e.addresses[__builtin_ctz(mask)] % 16 == 0;
  if (aligned) {
    // It may be the first part of a vector: open one in place of the older.
    SharedVectors::Group& g = v.groups[v.victim];
    v.victim = (v.victim + 1) % v.groups.size();
    g.next = e.addresses[first] + e.bytes;
    g.ready = a.ready;
    g.mask = e.mask;
    g.offset = e.bytes;
    g.charged = unsigned(m.sharedWavefronts - wavesBefore);
    g.chargedIdeal = unsigned(m.sharedIdealWavefronts - idealBefore);
  }
  return a;
}

}  // namespace warpsim::sim::timing
