#include "sim/timing/smem.h"

#include <algorithm>

#include "sim/observers/access_cost.h"

namespace warpsim::sim::timing {

namespace {
// Cycles from a request's first wavefront to its last on the way to its data: conflict-free
// wavefronts follow one another shared.cycles_per_wavefront apart, each replayed one (beyond
// the conflict-free count) shared.replay_latency apart. The pipe's throughput is the former
// for both: other requests' wavefronts fill the gaps of a conflicted one.
uint64_t lastWavefrontOffset(const TimingConfig& c, unsigned plain, unsigned replays) {
  const uint64_t steps =
      uint64_t(plain) * c.sharedCyclesPerWavefront + uint64_t(replays) * c.sharedReplayLatency;
  const uint32_t first = plain ? c.sharedCyclesPerWavefront : c.sharedReplayLatency;
  return steps ? steps - first : 0;
}
unsigned replaysOf(unsigned wavefronts, unsigned ideal) {
  return wavefronts > std::max(1u, ideal) ? wavefronts - std::max(1u, ideal) : 0;
}
}  // namespace

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
  const unsigned replays = replaysOf(waves, cost.ideal);
  const uint64_t last = start + lastWavefrontOffset(c, waves - replays, replays);
  const uint32_t lat = e.kind == AccessKind::Atomic ? c.sharedAtomicLatency : c.sharedLatency;
  return {last + lat, Stall::ShortScoreboard,
          mioFree - c.sharedCyclesPerWavefront + c.sharedStoreLatency,
          std::max(now + (last - start), mioFree - c.sharedCyclesPerWavefront)};
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
    uint64_t ready = g.ready, paced = 0;
    if (extra) {
      const uint64_t start = std::max(now, mioFree);
      mioFree = start + uint64_t(extra) * c.sharedCyclesPerWavefront;
      const unsigned before = replaysOf(g.charged, g.chargedIdeal),
                     after = replaysOf(cost.wavefronts, cost.ideal);
      const unsigned replays = std::min(extra, after > before ? after - before : 0u);
      paced = start + lastWavefrontOffset(c, extra - replays, replays);
      ready = std::max(ready, paced + c.sharedLatency);
    }
    g.charged = std::max(g.charged, cost.wavefronts);
    g.chargedIdeal = std::max(g.chargedIdeal, cost.ideal);
    g.offset += e.bytes;
    g.next += e.bytes;
    g.ready = ready;
    if (g.offset == 16) g.offset = 0;
    return {ready, Stall::ShortScoreboard, 0, paced};
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
