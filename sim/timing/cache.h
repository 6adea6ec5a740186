// A sectored, set-associative cache with LRU replacement: lines of `lineBytes`, 32-byte
// sectors each valid on its own, each with the cycle its data arrives (a sector still in flight
// counts as present: later requests wait for it, as MSHR merging does). The L1 and the L2 are
// instances.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace warpsim::sim::timing {

class SectorCache {
 public:
  SectorCache() = default;
  SectorCache(uint64_t capacityBytes, uint32_t lineBytes, uint32_t ways);

  // The cycle the sector holding `addr` is ready, or ~0 when it misses. A hit refreshes LRU.
  uint64_t lookup(uint64_t addr, uint64_t now);
  // Installs the sector (ready at `readyAt`; dirty for a write). Returns the number of dirty
  // sectors of the line it evicted (write-backs).
  uint32_t fill(uint64_t addr, uint64_t readyAt, bool dirty, uint64_t now);
  bool enabled() const { return sets_ > 0; }

 private:
  // All zero is an empty line, so the array comes from calloc: pages the launch never touches
  // cost nothing (a 60 MB L2 would otherwise be 27 MB to clear per launch).
  struct Line {
    uint64_t tag;  // line number + 1; 0 = empty
    uint64_t lru;
    uint32_t valid, dirty;          // sector masks
    std::array<uint64_t, 4> ready;  // per sector (lines of at most 128 bytes)
  };
  struct Free {
    void operator()(Line* p) const { std::free(p); }
  };
  Line* find(uint64_t line, uint64_t set);
  uint64_t setOf(uint64_t line) const;
  uint32_t lineBytes_ = 128, ways_ = 1, sectorsPerLine_ = 4;
  uint64_t sets_ = 0;
  std::unique_ptr<Line[], Free> lines_;  // sets_ x ways_, made on first fill
};

}  // namespace warpsim::sim::timing
