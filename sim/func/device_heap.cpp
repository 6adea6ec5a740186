#include "sim/func/device_heap.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace warpsim::sim {

DeviceHeap::DeviceHeap(uint64_t base, uint64_t size) : base_(base), size_(size) {
  if (size % kHeapUnitBytes != 0 || base % kHeapAlign != 0)
    throw std::invalid_argument("a device heap is whole units of 4 MiB at a 16-byte aligned base");
  pages_ = size / kHeapUnitBytes * kHeapPagesPerUnit;
}

uint64_t DeviceHeap::pageStart(uint32_t page) const {
  return base_ + page / kHeapPagesPerUnit * kHeapUnitBytes +
         page % kHeapPagesPerUnit * kHeapPagePitch;
}

uint32_t DeviceHeap::usableSlots(uint32_t page) const {
  return page % kHeapPagesPerUnit == kHeapPagesPerUnit - 1 ? kHeapSlotsInLastPage
                                                           : kHeapSlotsPerPage;
}

std::pair<uint64_t, uint64_t> DeviceHeap::extent(const Place& p) const {
  const uint64_t lo = pageStart(p.firstPage);
  if (p.slots) return {lo + p.firstSlot * kHeapSlot, lo + (p.firstSlot + p.slots) * kHeapSlot};
  return {lo, pageStart(p.lastPage) + usableSlots(p.lastPage) * kHeapSlot};
}

DeviceHeap::Place DeviceHeap::placeOf(uint64_t address, uint64_t bytes) const {
  const uint64_t offset = address - kHeapAlign - base_, inUnit = offset % kHeapUnitBytes;
  Place p;
  p.firstPage =
      static_cast<uint32_t>(offset / kHeapUnitBytes * kHeapPagesPerUnit + inUnit / kHeapPagePitch);
  const uint64_t slots = (kHeapAlign + bytes + kHeapSlot - 1) / kHeapSlot;
  if (slots <= kHeapSlotsPerPage) {
    p.firstSlot = static_cast<uint32_t>(inUnit % kHeapPagePitch / kHeapSlot);
    p.slots = static_cast<uint32_t>(slots);
    p.lastPage = p.firstPage;
    return p;
  }
  p.lastPage = p.firstPage;
  while (extent(p).second - pageStart(p.firstPage) < kHeapAlign + bytes) ++p.lastPage;
  return p;
}

uint32_t DeviceHeap::longestFreeRun(uint32_t page) const {
  // The free slots as ones; each step shortens every run of ones by one, so the steps until
  // none is left are the longest run's length.
  uint32_t free = ~used_[page] & ((uint32_t(1) << usableSlots(page)) - 1), best = 0;
  for (; free; ++best) free &= free >> 1;
  return best;
}

bool DeviceHeap::findSmall(uint32_t slots, Place& out) const {
  // The lowest page used so far with a free run that long, then its lowest such run.
  uint64_t page = used_.size();
  for (uint32_t r = slots; r <= kHeapSlotsPerPage; ++r)
    if (!byRun_[r].empty()) page = std::min<uint64_t>(page, *byRun_[r].begin());
  if (page < used_.size()) {
    const uint32_t run = (1u << slots) - 1, used = used_[page];
    for (uint32_t s = 0;; ++s)
      if (((used >> s) & run) == 0) {
        out = {static_cast<uint32_t>(page), static_cast<uint32_t>(page), s, slots};
        return true;
      }
  }
  // The first page never used (the last page of a unit holds fewer slots: then the next one).
  for (; page < pages_ && page <= used_.size() + 1; ++page)
    if (slots <= usableSlots(static_cast<uint32_t>(page))) {
      out = {static_cast<uint32_t>(page), static_cast<uint32_t>(page), 0, slots};
      return true;
    }
  return false;
}

uint64_t DeviceHeap::nextEmptyPage(uint64_t from) const {
  auto it = empty_.lower_bound(static_cast<uint32_t>(std::min<uint64_t>(from, UINT32_MAX)));
  return it != empty_.end() ? *it : std::max<uint64_t>(from, used_.size());
}

bool DeviceHeap::findLarge(uint64_t bytes, Place& out) const {
  // The lowest empty page from which empty pages reach far enough; a page in use on the way
  // moves the search past it.
  for (uint64_t first = nextEmptyPage(0); first < pages_;) {
    Place p{static_cast<uint32_t>(first), static_cast<uint32_t>(first), 0, 0};
    for (;;) {
      if (extent(p).second - pageStart(p.firstPage) >= kHeapAlign + bytes) {
        out = p;
        return true;
      }
      if (++p.lastPage == pages_) return false;  // a later start reaches less far
      if (p.lastPage < used_.size() && used_[p.lastPage] != 0) break;
    }
    first = nextEmptyPage(p.lastPage + 1ull);
  }
  return false;
}

void DeviceHeap::take(const Place& p, bool taken) {
  // Pages never used before become known: empty.
  while (used_.size() <= p.lastPage) {
    const uint32_t page = static_cast<uint32_t>(used_.size());
    used_.push_back(0);
    byRun_[usableSlots(page)].insert(page);
    empty_.insert(page);
  }
  for (uint32_t page = p.firstPage; page <= p.lastPage; ++page) {
    byRun_[longestFreeRun(page)].erase(page);
    const uint32_t bits = p.slots ? ((1u << p.slots) - 1) << p.firstSlot : fullMask(page);
    used_[page] = taken ? used_[page] | bits : used_[page] & ~bits;
    if (const uint32_t run = longestFreeRun(page)) byRun_[run].insert(page);
    if (used_[page] == 0)
      empty_.insert(page);
    else
      empty_.erase(page);
  }
}

FaultInfo HeapBlock::allocatedBy() const {
  FaultInfo f = site->at;
  f.thread = thread;
  f.cta = cta;
  f.lane = lane;
  f.warp = warp;
  return f;
}

uint64_t DeviceHeap::allocate(uint64_t bytes, const FaultInfo& site, uint32_t gridId,
                              const std::string& kernel) {
  return allocate(bytes, std::make_shared<const HeapSite>(HeapSite{site, gridId, kernel}),
                  HeapThread{site.thread, site.cta, site.lane, site.warp});
}

uint64_t DeviceHeap::allocate(uint64_t bytes, std::shared_ptr<const HeapSite> site,
                              const HeapThread& by) {
  if (bytes > size_) return 0;
  const uint64_t slots = (kHeapAlign + bytes + kHeapSlot - 1) / kHeapSlot;
  Place place;
  if (!(slots <= kHeapSlotsPerPage ? findSmall(static_cast<uint32_t>(slots), place)
                                   : findLarge(bytes, place)))
    return 0;
  take(place, true);
  const auto [start, end] = extent(place);
  // The freed blocks whose bytes this one takes are no longer "freed": an access there now
  // reaches the new block. Freed blocks do not overlap: only the one below may reach in.
  auto f = freed_.upper_bound(start);
  if (f != freed_.begin()) --f;
  while (f != freed_.end() && f->first - kHeapAlign < end) {
    const uint64_t fEnd = extent(placeOf(f->first, f->second.size)).second;
    f = fEnd > start ? freed_.erase(f) : std::next(f);
  }
  HeapBlock b;
  b.address = start + kHeapAlign;
  b.size = bytes;
  b.site = std::move(site);
  b.thread = by.thread;
  b.cta = by.cta;
  b.lane = by.lane;
  b.warp = by.warp;
  inUse_ += bytes;
  live_.emplace(b.address, b);
  return b.address;
}

FreeOutcome DeviceHeap::free(uint64_t address) {
  if (address == 0) return FreeOutcome::Null;
  auto it = live_.find(address);
  if (it == live_.end())
    return freed_.count(address) ? FreeOutcome::DoubleFree : FreeOutcome::NotHeapPointer;
  take(placeOf(address, it->second.size), false);
  inUse_ -= it->second.size;
  freed_.insert_or_assign(address, std::move(it->second));
  live_.erase(it);
  return FreeOutcome::Freed;
}

const HeapBlock* DeviceHeap::holding(const std::map<uint64_t, HeapBlock>& blocks,
                                     uint64_t address) {
  auto it = blocks.upper_bound(address);
  if (it == blocks.begin()) return nullptr;
  const HeapBlock& b = std::prev(it)->second;
  return address - b.address < b.size ? &b : nullptr;
}

const HeapBlock* DeviceHeap::liveBlock(uint64_t address) const { return holding(live_, address); }
const HeapBlock* DeviceHeap::freedBlock(uint64_t address) const { return holding(freed_, address); }

const HeapBlock* DeviceHeap::liveBlockBelow(uint64_t address) const {
  auto it = live_.upper_bound(address);
  return it == live_.begin() ? nullptr : &std::prev(it)->second;
}

std::vector<HeapBlock> DeviceHeap::liveBlocks() const {
  std::vector<HeapBlock> out;
  out.reserve(live_.size());
  for (const auto& [a, b] : live_) out.push_back(b);
  return out;
}

}  // namespace warpsim::sim
