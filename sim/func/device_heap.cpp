#include "sim/func/device_heap.h"

#include <algorithm>
#include <iterator>

namespace warpsim::sim {

namespace {

// A block's slot in the heap: 16 bytes before it, then its bytes, rounded up to the slot size.
uint64_t rangeBytes(uint64_t size) {
  return (kHeapAlign + size + kHeapSlot - 1) / kHeapSlot * kHeapSlot;
}

}  // namespace

DeviceHeap::DeviceHeap(uint64_t base, uint64_t size) : base_(base), size_(size) {
  // The first range starts on the alignment, so every block address (range + header) is aligned.
  first_ = (base + kHeapAlign - 1) / kHeapAlign * kHeapAlign;
  if (first_ - base < size) holes_.emplace(base + size, first_);
}

FaultInfo HeapBlock::allocatedBy() const {
  FaultInfo f = site->at;
  f.thread = thread;
  f.cta = cta;
  f.lane = lane;
  f.warp = warp;
  return f;
}

uint32_t DeviceHeap::recordAt(uint64_t address) const {
  if (address < first_) return kNoRecord;
  const uint64_t slot = (address - first_) / kHeapSlot;
  return slot < owner_.size() ? owner_[slot] : kNoRecord;
}

void DeviceHeap::setOwner(uint64_t rangeStart, uint64_t rangeBytes, uint32_t record) {
  const uint64_t from = (rangeStart - first_) / kHeapSlot, to = from + rangeBytes / kHeapSlot;
  // The table grows with the highest slot used, by doubling (a heap filled from its start
  // reaches a new slot at every malloc).
  if (owner_.size() < to) owner_.resize(std::max<uint64_t>(to, 2 * owner_.size()), kNoRecord);
  std::fill(owner_.begin() + long(from), owner_.begin() + long(to), record);
}

uint64_t DeviceHeap::allocate(uint64_t bytes, const FaultInfo& site, uint32_t gridId,
                              const std::string& kernel) {
  return allocate(bytes, std::make_shared<const HeapSite>(HeapSite{site, gridId, kernel}),
                  HeapThread{site.thread, site.cta, site.lane, site.warp});
}

uint64_t DeviceHeap::allocate(uint64_t bytes, std::shared_ptr<const HeapSite> site,
                              const HeapThread& by) {
  if (bytes > size_) return 0;
  const uint64_t need = rangeBytes(bytes);
  for (auto it = holes_.begin(); it != holes_.end(); ++it) {
    const uint64_t start = it->second, length = it->first - it->second;
    if (length < need) continue;
    // The rest of the range stays a hole, with the same end.
    if (length > need)
      it->second += need;
    else
      holes_.erase(it);
    // The freed blocks whose bytes this one takes are no longer "freed": an access there now
    // reaches the new block. (A hole's slots belong to no live block.)
    for (uint64_t a = start; a < start + need; a += kHeapSlot) {
      const uint32_t r = recordAt(a);
      if (r == kNoRecord) continue;
      const HeapBlock& gone = records_[r].block;
      setOwner(gone.address - kHeapAlign, rangeBytes(gone.size), kNoRecord);
      records_[r].block.site.reset();
      spareRecords_.push_back(r);
    }
    uint32_t r;
    if (!spareRecords_.empty()) {
      r = spareRecords_.back();
      spareRecords_.pop_back();
    } else {
      r = uint32_t(records_.size());
      records_.emplace_back();
    }
    Record& rec = records_[r];
    rec.freed = false;
    HeapBlock& b = rec.block;
    b.address = start + kHeapAlign;
    b.size = bytes;
    b.site = std::move(site);
    b.thread = by.thread;
    b.cta = by.cta;
    b.lane = by.lane;
    b.warp = by.warp;
    setOwner(start, need, r);
    inUse_ += bytes;
    return b.address;
  }
  return 0;
}

FreeOutcome DeviceHeap::free(uint64_t address) {
  if (address == 0) return FreeOutcome::Null;
  const uint32_t r = address < kHeapAlign ? kNoRecord : recordAt(address - kHeapAlign);
  if (r == kNoRecord || records_[r].block.address != address) return FreeOutcome::NotHeapPointer;
  Record& rec = records_[r];
  if (rec.freed) return FreeOutcome::DoubleFree;
  rec.freed = true;  // remembered (for memcheck) until a later block takes its bytes
  const uint64_t start = address - kHeapAlign, length = rangeBytes(rec.block.size);
  inUse_ -= rec.block.size;
  // Give the range back, merged with the free ranges on either side: the one below ends at
  // `start`, the one above starts at `end`.
  const uint64_t end = start + length;
  auto next = holes_.upper_bound(start);  // the first range after the block
  const bool intoNext = next != holes_.end() && next->second == end;
  auto prev = next == holes_.begin() ? holes_.end() : std::prev(next);
  const bool intoPrev = prev != holes_.end() && prev->first == start;
  if (intoPrev && intoNext) {
    next->second = prev->second;
    holes_.erase(prev);
  } else if (intoPrev) {
    auto grown = holes_.extract(prev);  // its end moves up to `end`: the same place in order
    grown.key() = end;
    holes_.insert(next, std::move(grown));
  } else if (intoNext) {
    next->second = start;
  } else {
    holes_.emplace_hint(next, end, start);
  }
  return FreeOutcome::Freed;
}

const HeapBlock* DeviceHeap::holding(uint64_t address, bool freed) const {
  const uint32_t r = recordAt(address);
  if (r == kNoRecord || records_[r].freed != freed) return nullptr;
  const HeapBlock& b = records_[r].block;
  return address - b.address < b.size ? &b : nullptr;
}

const HeapBlock* DeviceHeap::liveBlock(uint64_t address) const { return holding(address, false); }
const HeapBlock* DeviceHeap::freedBlock(uint64_t address) const { return holding(address, true); }

const HeapBlock* DeviceHeap::liveBlockBelow(uint64_t address) const {
  // Slot by slot down from the address's (memcheck's reports only: not on the fast path).
  if (address < first_ || owner_.empty()) return nullptr;
  uint64_t slot = std::min<uint64_t>((address - first_) / kHeapSlot, owner_.size() - 1);
  for (;; --slot) {
    const uint32_t r = owner_[slot];
    if (r != kNoRecord && !records_[r].freed && records_[r].block.address <= address)
      return &records_[r].block;
    if (slot == 0) return nullptr;
  }
}

std::vector<HeapBlock> DeviceHeap::liveBlocks() const {
  std::vector<HeapBlock> out;
  for (uint64_t slot = 0; slot < owner_.size(); ++slot) {
    const uint32_t r = owner_[slot];
    // A block once, at its first slot.
    if (r != kNoRecord && !records_[r].freed &&
        records_[r].block.address - kHeapAlign == first_ + slot * kHeapSlot)
      out.push_back(records_[r].block);
  }
  return out;
}

}  // namespace warpsim::sim
