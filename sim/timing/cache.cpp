#include "sim/timing/cache.h"

#include <new>

#include "sim/observers/access_cost.h"

namespace warpsim::sim::timing {

SectorCache::SectorCache(uint64_t capacity, uint32_t lineBytes, uint32_t ways)
    : lineBytes_(lineBytes),
      ways_(ways),
      sectorsPerLine_(lineBytes / kSectorBytes),
      sets_(capacity / (uint64_t(lineBytes) * ways)) {}

uint64_t SectorCache::setOf(uint64_t line) const {
  // A multiplicative hash spreads strided lines over sets that are not a power of two.
  return ((line * 0x9E3779B97F4A7C15ull) >> 20) % sets_;
}

SectorCache::Line* SectorCache::find(uint64_t line, uint64_t set) {
  if (!lines_) return nullptr;
  Line* base = &lines_[set * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (base[w].tag == line + 1) return &base[w];
  return nullptr;
}

uint64_t SectorCache::lookup(uint64_t addr, uint64_t now) {
  if (!sets_) return ~0ull;
  const uint64_t line = addr / lineBytes_;
  const unsigned sector = unsigned(addr % lineBytes_ / kSectorBytes);
  Line* l = find(line, setOf(line));
  if (!l || !(l->valid >> sector & 1)) return ~0ull;
  l->lru = now + 1;
  return l->ready[sector];
}

uint32_t SectorCache::fill(uint64_t addr, uint64_t readyAt, bool dirty, uint64_t now) {
  if (!sets_) return 0;
  if (!lines_) {
    lines_.reset(static_cast<Line*>(std::calloc(sets_ * ways_, sizeof(Line))));
    if (!lines_) throw std::bad_alloc();
  }
  const uint64_t line = addr / lineBytes_;
  const unsigned sector = unsigned(addr % lineBytes_ / kSectorBytes);
  const uint64_t set = setOf(line);
  Line* l = find(line, set);
  uint32_t writeBacks = 0;
  if (!l) {
    Line* base = &lines_[set * ways_];
    l = base;
    for (uint32_t w = 1; w < ways_; ++w)
      if (base[w].lru < l->lru) l = &base[w];
    writeBacks = unsigned(__builtin_popcount(l->dirty));
    l->tag = line + 1;
    l->valid = l->dirty = 0;
    l->ready = {};
  }
  l->valid |= 1u << sector;
  if (dirty) l->dirty |= 1u << sector;
  l->ready[sector] = readyAt;
  l->lru = now + 1;
  return writeBacks;
}

}  // namespace warpsim::sim::timing
