#include "sim/func/device_heap.h"

#include <algorithm>
#include <stdexcept>

namespace warpsim::sim {

DeviceHeap::DeviceHeap(uint64_t base, uint64_t size) : base_(base), size_(size) {
  if (size % kHeapUnitBytes != 0 || base % kHeapAlign != 0)
    throw std::invalid_argument("a device heap is whole units of 4 MiB at a 16-byte aligned base");
  pages_ = size / kHeapUnitBytes * kHeapPagesPerUnit;
  reservePages(0);
}

void DeviceHeap::reservePages(uint64_t used) {
  // Two pages past the used ones, so that the first page never used is in the tree (the last
  // page of a unit holds fewer slots: then the one after it); pages past the heap hold none.
  runs_.reserve(static_cast<uint32_t>(std::min<uint64_t>(used + 2, pages_)),
                [&](uint32_t p) { return static_cast<uint8_t>(p < pages_ ? usableSlots(p) : 0); });
}

std::pair<uint64_t, uint64_t> DeviceHeap::extent(const Place& p) const {
  const uint64_t lo = pageStart(p.firstPage);
  if (p.slots) return {lo + p.firstSlot * kHeapSlot, lo + (p.firstSlot + p.slots) * kHeapSlot};
  return {lo, pageStart(p.lastPage) + usableSlots(p.lastPage) * kHeapSlot};
}

// Inline (take, its only caller, is here): a call for it was a third of take's time.
inline uint32_t DeviceHeap::longestFreeRun(uint32_t page) const {
  static_assert(kHeapSlotsPerPage <= 24 && kHeapSlotsPerPage <= PageRuns::kMaxRun,
                "LongestRun reads 24 bits");
  return LongestRun::of(~used_[page] & fullMask(page));
}

// Inlined into allocate, its only caller.
[[gnu::always_inline]] inline bool DeviceHeap::findSmall(uint32_t slots, Place& out) {
  // The lowest page with a free run that long (pages never used included), then its lowest
  // such run.
  const uint32_t page = runs_.firstAtLeast(static_cast<uint8_t>(slots));
  if (page >= pages_ || page >= runs_.capacity()) return false;
  const uint32_t starts = runStarts(page < used_.size() ? used_[page] : 0, page, slots);
  out = {page, page, static_cast<uint32_t>(__builtin_ctz(starts)), slots};
  return true;
}

inline uint32_t DeviceHeap::runStarts(uint32_t used, uint32_t page, uint32_t slots) const {
  // Bit s of `starts`: slots s .. s + len - 1 are free; doubling len to `slots` takes a few
  // steps where trying each s took up to 24.
  uint32_t starts = ~used & fullMask(page);
  for (uint32_t len = 1; len < slots;) {
    const uint32_t k = std::min(len, slots - len);
    starts &= starts >> k;
    len += k;
  }
  return starts;
}

void DeviceHeap::settleLastPage() {
  if (!lastRunStale_) return;
  runs_.set(lastPage_, static_cast<uint8_t>(longestFreeRun(lastPage_)));
  lastRunStale_ = false;
}

uint64_t DeviceHeap::nextEmptyPage(uint64_t from) const {
  if (from >= used_.size()) return from;
  uint64_t word = from / 64, bits = empty_[word] & (~uint64_t(0) << from % 64);
  while (!bits) {
    if (++word == empty_.size()) return used_.size();
    bits = empty_[word];
  }
  return word * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
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

void DeviceHeap::knowPages(uint32_t lastPage) {
  // Pages never used before become known: empty.
  while (used_.size() <= lastPage) {
    const uint32_t page = static_cast<uint32_t>(used_.size());
    used_.push_back(0);  // runs_ holds it already, as empty
    if (page % 64 == 0) empty_.push_back(0);
    empty_[page / 64] |= uint64_t(1) << page % 64;
  }
  reservePages(used_.size());
  startsAt_.resize(used_.size() * kHeapSlotsPerPage, kNone);
  largeOn_.resize(used_.size(), kNone);
  freedStarts_.resize(used_.size(), 0);
}

[[gnu::always_inline]] inline void DeviceHeap::setUsed(uint32_t page, uint32_t used) {
  used_[page] = used;
  runs_.set(page, static_cast<uint8_t>(longestFreeRun(page)));
  const uint64_t bit = uint64_t(1) << page % 64;
  empty_[page / 64] = used == 0 ? empty_[page / 64] | bit : empty_[page / 64] & ~bit;
}

// Inlined into allocate and free, its callers (a call was a tenth of take's cost); the first
// use of a page, once per page, is out of line.
[[gnu::always_inline]] inline void DeviceHeap::take(const Place& p, bool taken) {
  if (used_.size() <= p.lastPage) [[unlikely]]
    knowPages(p.lastPage);
  for (uint32_t page = p.firstPage; page <= p.lastPage; ++page) {
    const uint32_t bits = p.slots ? ((1u << p.slots) - 1) << p.firstSlot : fullMask(page);
    setUsed(page, taken ? used_[page] | bits : used_[page] & ~bits);
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

uint64_t DeviceHeap::allocate(uint64_t bytes, const std::shared_ptr<const HeapSite>& site,
                              const HeapThread& by) {
  if (bytes > size_) return 0;
  const uint64_t slots = (kHeapAlign + bytes + kHeapSlot - 1) / kHeapSlot;
  Place place;
  uint32_t starts;
  if (slots == lastSlots_ &&
      (starts = runStarts(used_[lastPage_], lastPage_, static_cast<uint32_t>(slots))) != 0) {
    // The last small malloc's page, the lowest with a run of this many slots then, still has
    // one, and nothing but mallocs there has happened since: it is still the lowest. Its slots
    // are taken without the search, and its run in runs_ is left until a malloc moves on.
    place = {lastPage_, lastPage_, static_cast<uint32_t>(__builtin_ctz(starts)), lastSlots_};
    used_[lastPage_] |= ((1u << place.slots) - 1) << place.firstSlot;  // was not empty
    lastRunStale_ = true;
  } else {
    settleLastPage();
    if (!(slots <= kHeapSlotsPerPage ? findSmall(static_cast<uint32_t>(slots), place)
                                     : findLarge(bytes, place)))
      return 0;
    take(place, true);
    lastPage_ = place.firstPage;
    lastSlots_ = place.slots;  // 0 for a large block: no malloc follows on its page
  }
  // A small block on a page with no freed block and no large one has nothing to forget.
  if (place.slots == 0 || freedStarts_[place.firstPage] != 0 || largeOn_[place.firstPage] != kNone)
    eraseFreedUnder(place);
  // Written in its record: a HeapBlock built and moved in cost a tenth of a malloc.
  HeapBlock& b = addRecord(place);
  b.address = pageStart(place.firstPage) + place.firstSlot * kHeapSlot + kHeapAlign;
  b.size = bytes;
  b.site = site;
  b.thread = by.thread;
  b.cta = by.cta;
  b.lane = by.lane;
  b.warp = by.warp;
  inUse_ += bytes;
  return b.address;
}

[[gnu::always_inline]] inline FreeOutcome DeviceHeap::locate(uint64_t address,
                                                             uint32_t& ref) const {
  if (address == 0) return FreeOutcome::Null;
  // A block's address is 16 bytes after the start of a slot of a page.
  const uint64_t offset = address - kHeapAlign - base_, inUnit = offset % kHeapUnitBytes;
  if (address < base_ + kHeapAlign || offset >= size_ || inUnit % kHeapPagePitch % kHeapSlot)
    return FreeOutcome::NotHeapPointer;
  const uint64_t page = offset / kHeapUnitBytes * kHeapPagesPerUnit + inUnit / kHeapPagePitch,
                 slot = inUnit % kHeapPagePitch / kHeapSlot;
  if (inUnit / kHeapPagePitch >= kHeapPagesPerUnit || page >= used_.size() ||
      slot >= kHeapSlotsPerPage)
    return FreeOutcome::NotHeapPointer;
  ref = startsAt_[startIndex(static_cast<uint32_t>(page), static_cast<uint32_t>(slot))];
  if (ref == kNone) return FreeOutcome::NotHeapPointer;
  return records_[ref - 1].live ? FreeOutcome::Freed : FreeOutcome::DoubleFree;
}

[[gnu::always_inline]] inline void DeviceHeap::retire(uint32_t ref) {
  Record& r = records_[ref - 1];
  inUse_ -= r.block.size;
  r.live = false;
  freedStarts_[r.place.firstPage] |= 1u << r.place.firstSlot;  // where its address points
}

FreeOutcome DeviceHeap::free(uint64_t address) {
  uint32_t ref = kNone;
  const FreeOutcome outcome = locate(address, ref);
  if (outcome != FreeOutcome::Freed) return outcome;
  // A free may give a lower page a run: the next malloc searches again.
  settleLastPage();
  lastSlots_ = 0;
  take(records_[ref - 1].place, false);
  retire(ref);
  return FreeOutcome::Freed;
}

unsigned DeviceHeap::freeLanes(uint32_t lanes, const uint64_t* addresses, FreeOutcome* outcomes) {
  // The slots given back on each page the lanes free small blocks on, the page's bookkeeping
  // done once at the end: nothing here reads it between (a free finds its block by its record),
  // and the result does not depend on the order of the pages (each page's longest run only grows
  // as slots come free, and the tree of runs is a function of the pages' runs).
  uint32_t pages[32], slots[32], n = 0;
  unsigned doubleFree = 32;
  bool first = true;
  for (uint32_t m = lanes; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    uint32_t ref = kNone;
    const FreeOutcome outcome = outcomes[lane] = locate(addresses[lane], ref);
    if (outcome == FreeOutcome::DoubleFree) {
      doubleFree = lane;
      break;
    }
    if (outcome != FreeOutcome::Freed) continue;
    if (first) {  // as free() does
      settleLastPage();
      lastSlots_ = 0;
      first = false;
    }
    const Place& p = records_[ref - 1].place;
    if (p.slots == 0) {
      take(p, false);  // whole pages, none of them a small block's
    } else {
      uint32_t i = n;  // the lanes' pages, the latest first
      while (i > 0 && pages[i - 1] != p.firstPage) --i;
      if (i == 0) {
        pages[n] = p.firstPage;
        slots[n] = 0;
        i = ++n;
      }
      slots[i - 1] |= ((1u << p.slots) - 1) << p.firstSlot;
    }
    retire(ref);
  }
  for (uint32_t i = 0; i < n; ++i) setUsed(pages[i], used_[pages[i]] & ~slots[i]);
  return doubleFree;
}

}  // namespace warpsim::sim
