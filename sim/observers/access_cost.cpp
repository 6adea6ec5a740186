#include "sim/observers/access_cost.h"

#include <algorithm>
#include <bit>

namespace warpsim::sim {

namespace {

// Distinct values among `n` in a small set: linear search, because a warp's accesses usually
// hit few distinct words per bank (or few sectors), where this beats sorting by far.
struct SmallSet {
  uint64_t values[128];
  unsigned n = 0;
  bool insert(uint64_t v) {
    for (unsigned i = 0; i < n; ++i)
      if (values[i] == v) return false;
    values[n++] = v;
    return true;
  }
};

}  // namespace

SharedCost sharedAccessCost(const uint64_t* addrs, uint32_t mask, unsigned bytes) {
  SharedCost c;
  // Wider accesses go a half-warp at a time, 16-byte ones too: the H200 serves an LDS.128 whose
  // half-warps each read one vector in 2 wavefronts (sgemm_tiled's As[ty][k..k+3], 24 wavefronts
  // per warp and tile in ncu), where quarter-warp phases would take 4.
  const unsigned lanesPerPhase = bytes <= 4 ? 32 : 16;
  const unsigned wordsPerLane = bytes <= 4 ? 1 : bytes / 4;
  for (unsigned first = 0; first < 32; first += lanesPerPhase) {
    const uint32_t phaseMask = lanesPerPhase == 32 ? ~0u : ((1u << lanesPerPhase) - 1) << first;
    const uint32_t phase = mask & phaseMask;
    if (!phase) continue;
    // Per bank: the distinct 4-byte words asked for. The first word of each bank is kept in
    // `firstWord`; further distinct words of a bank go to `others` (rare: they are conflicts).
    uint64_t firstWord[kSharedBanks];
    uint32_t used = 0;
    unsigned perBank[kSharedBanks] = {};
    SmallSet others;  // (word) for second and later distinct words
    unsigned worst = 1;
    for (uint32_t m = phase; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      for (unsigned w = 0; w < wordsPerLane; ++w) {
        const uint64_t word = addrs[lane] / 4 + w;
        const unsigned bank = unsigned(word % kSharedBanks);
        if (!(used & (1u << bank))) {
          used |= 1u << bank;
          firstWord[bank] = word;
          perBank[bank] = 1;
        } else if (firstWord[bank] != word && others.insert(word)) {
          worst = std::max(worst, ++perBank[bank]);
        }
      }
    }
    c.wavefronts += worst;
    // Conflict-free, a phase takes one wavefront per 32 distinct words (a half-warp of
    // distinct 16-byte vectors: 2).
    const unsigned words = unsigned(std::popcount(used)) + others.n;
    c.ideal += std::max(1u, (words + kSharedBanks - 1) / kSharedBanks);
  }
  return c;
}

unsigned sectorsTouched(const uint64_t* addrs, uint32_t mask, unsigned bytes) {
  SmallSet sectors;
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    const uint64_t first = addrs[lane] / kSectorBytes;
    const uint64_t last = (addrs[lane] + std::max(bytes, 1u) - 1) / kSectorBytes;
    // Consecutive lanes mostly share the last sector seen: test it first.
    for (uint64_t s = first; s <= last; ++s)
      if (sectors.n == 0 || sectors.values[sectors.n - 1] != s) sectors.insert(s);
  }
  return sectors.n;
}

}  // namespace warpsim::sim
