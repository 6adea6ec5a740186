// The device heap's records of its blocks, live and freed (sim/func/device_heap.h): kept by the
// slot each starts in and, for a block of whole pages, by every page it covers, so that the
// block holding an address is found from the address's slot, and a malloc or free touches only
// the slots of its block.
#include "sim/func/device_heap.h"

#include <algorithm>

namespace warpsim::sim {

bool DeviceHeap::slotOf(uint64_t address, uint32_t& page, uint32_t& slot) const {
  const uint64_t offset = address - base_;
  if (offset >= size_) return false;
  const uint64_t inUnit = offset % kHeapUnitBytes,
                 inPage = std::min<uint64_t>(inUnit / kHeapPagePitch, kHeapPagesPerUnit - 1);
  page = static_cast<uint32_t>(offset / kHeapUnitBytes * kHeapPagesPerUnit + inPage);
  slot = static_cast<uint32_t>(
      std::min<uint64_t>((inUnit - inPage * kHeapPagePitch) / kHeapSlot, usableSlots(page) - 1));
  return true;
}

const DeviceHeap::Record* DeviceHeap::nearest(uint32_t page, uint32_t slot) const {
  if (page >= used_.size()) return nullptr;
  if (largeOn_[page] != kNone) return record(largeOn_[page]);
  // A small block lies inside its page: none from an earlier page reaches this one.
  for (uint32_t s = slot + 1; s-- > 0;)
    if (const uint32_t ref = startsAt_[startIndex(page, s)]) return record(ref);
  return nullptr;
}

const HeapBlock* DeviceHeap::holding(uint64_t address, bool live) const {
  // Blocks do not overlap: one that starts further below cannot reach past the nearest one.
  uint32_t page, slot;
  if (!slotOf(address, page, slot)) return nullptr;
  const Record* r = nearest(page, slot);
  return r && r->live == live && address - r->block.address < r->block.size ? &r->block : nullptr;
}

const HeapBlock* DeviceHeap::liveBlock(uint64_t address) const { return holding(address, true); }
const HeapBlock* DeviceHeap::freedBlock(uint64_t address) const { return holding(address, false); }

const HeapBlock* DeviceHeap::liveBlockBelow(uint64_t address) const {
  if (used_.empty() || address < base_) return nullptr;
  uint32_t page = static_cast<uint32_t>(used_.size() - 1), slot = kHeapSlotsPerPage - 1;
  if (slotOf(address, page, slot) && page >= used_.size()) {
    page = static_cast<uint32_t>(used_.size() - 1);
    slot = kHeapSlotsPerPage - 1;
  }
  // Down the pages from the address's; a page with no slot taken holds no live block.
  for (uint64_t p = page + 1ull; p-- > 0; slot = kHeapSlotsPerPage - 1) {
    if (used_[p] == 0) continue;
    if (const Record* r = record(largeOn_[p])) {
      if (r->live && r->block.address <= address) return &r->block;
      p = r->place.firstPage;  // the pages below it that it covers hold nothing else
      continue;
    }
    for (uint32_t s = slot + 1; s-- > 0;) {
      const Record* r = record(startsAt_[startIndex(static_cast<uint32_t>(p), s)]);
      if (r && r->live && r->block.address <= address) return &r->block;
    }
  }
  return nullptr;
}

std::vector<HeapBlock> DeviceHeap::liveBlocks() const {
  std::vector<HeapBlock> out;
  for (uint32_t ref : startsAt_)  // by address: pages in order, slots in order
    if (const Record* r = record(ref); r && r->live) out.push_back(r->block);
  return out;
}

HeapBlock& DeviceHeap::addRecord(const Place& p) {
  uint32_t index;
  if (!spare_.empty()) {
    index = spare_.back();
    spare_.pop_back();
  } else {
    index = records_.add();
  }
  Record& r = records_[index];
  r.place = p;
  r.live = true;
  startsAt_[startIndex(p.firstPage, p.firstSlot)] = index + 1;
  if (p.slots == 0)
    for (uint32_t page = p.firstPage; page <= p.lastPage; ++page) largeOn_[page] = index + 1;
  return r.block;
}

void DeviceHeap::eraseRecord(uint32_t ref) {
  Record& r = records_[ref - 1];
  startsAt_[startIndex(r.place.firstPage, r.place.firstSlot)] = kNone;
  freedStarts_[r.place.firstPage] &= ~(1u << r.place.firstSlot);
  if (r.place.slots == 0)
    for (uint32_t page = r.place.firstPage; page <= r.place.lastPage; ++page)
      largeOn_[page] = kNone;
  r.block.site.reset();
  spare_.push_back(ref - 1);
}

void DeviceHeap::eraseFreedUnder(const Place& p) {
  // The slots `p` takes were free: every block there is a freed one, and so is a large block
  // over its pages; a live block below the first slot ends before it, and a freed one further
  // below ends before that live one. So only freed blocks' starts are looked at (none: the page
  // is skipped, as every page is while a kernel only mallocs).
  for (uint32_t page = p.firstPage; page <= p.lastPage; ++page) {
    if (largeOn_[page] != kNone) eraseRecord(largeOn_[page]);
    const uint32_t freed = freedStarts_[page];
    if (freed == 0) continue;
    const uint32_t under = p.slots ? ((1u << p.slots) - 1) << p.firstSlot : ~0u;
    for (uint32_t bits = freed & under; bits; bits &= bits - 1)
      eraseRecord(startsAt_[startIndex(page, static_cast<uint32_t>(__builtin_ctz(bits)))]);
    // A small block starting below the first slot may reach into it: the nearest freed one.
    if (const uint32_t below = p.slots ? freed & ((1u << p.firstSlot) - 1) : 0) {
      const uint32_t ref = startsAt_[startIndex(page, 31u - uint32_t(__builtin_clz(below)))];
      const Place& b = records_[ref - 1].place;
      if (b.firstSlot + b.slots > p.firstSlot) eraseRecord(ref);
    }
  }
}

}  // namespace warpsim::sim
