#include "sim/func/access_stats.h"

#include <algorithm>
#include <bit>

namespace warpsim::sim {

SharedCost sharedAccessCost(const uint64_t* addrs, uint32_t mask, unsigned bytes) {
  SharedCost c;
  const unsigned lanesPerPhase = bytes <= 4 ? 32 : bytes == 8 ? 16 : 8;
  const unsigned wordsPerLane = bytes <= 4 ? 1 : bytes / 4;
  for (unsigned first = 0; first < 32; first += lanesPerPhase) {
    const uint32_t phase = mask & (lanesPerPhase == 32 ? ~0u : ((1u << lanesPerPhase) - 1) << first);
    if (!phase) continue;
    ++c.ideal;
    // Distinct words per bank: at most 32 lanes x 4 words = 128 words per phase.
    uint64_t words[128];
    unsigned n = 0;
    for (uint32_t m = phase; m; m &= m - 1) {
      const unsigned lane = unsigned(std::countr_zero(m));
      for (unsigned w = 0; w < wordsPerLane; ++w) words[n++] = addrs[lane] / 4 + w;
    }
    std::sort(words, words + n);
    n = unsigned(std::unique(words, words + n) - words);
    unsigned perBank[kSharedBanks] = {};
    unsigned worst = 0;
    for (unsigned i = 0; i < n; ++i) worst = std::max(worst, ++perBank[words[i] % kSharedBanks]);
    c.wavefronts += worst;
  }
  return c;
}

unsigned sectorsTouched(const uint64_t* addrs, uint32_t mask, unsigned bytes) {
  uint64_t sectors[64];
  unsigned n = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned lane = unsigned(std::countr_zero(m));
    const uint64_t first = addrs[lane] / kSectorBytes;
    const uint64_t last = (addrs[lane] + std::max(bytes, 1u) - 1) / kSectorBytes;
    for (uint64_t s = first; s <= last && n < 64; ++s) sectors[n++] = s;
  }
  std::sort(sectors, sectors + n);
  return unsigned(std::unique(sectors, sectors + n) - sectors);
}

}  // namespace warpsim::sim
