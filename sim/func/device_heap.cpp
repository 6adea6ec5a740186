#include "sim/func/device_heap.h"

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
  const uint64_t start = (base + kHeapAlign - 1) / kHeapAlign * kHeapAlign;
  if (start - base < size) holes_.emplace(start, size - (start - base));
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
  return allocate(bytes, std::make_shared<const HeapSite>(HeapSite{site, gridId, kernel}), site);
}

uint64_t DeviceHeap::allocate(uint64_t bytes, std::shared_ptr<const HeapSite> site,
                              const FaultInfo& thread) {
  if (bytes > size_) return 0;
  const uint64_t need = rangeBytes(bytes);
  for (auto it = holes_.begin(); it != holes_.end(); ++it) {
    if (it->second < need) continue;
    const uint64_t start = it->first, length = it->second;
    // The rest of the range stays a hole (its node reused: no allocation).
    auto rest = holes_.extract(it);
    if (length > need) {
      rest.key() = start + need;
      rest.mapped() = length - need;
      holes_.insert(std::move(rest));
    }
    // The freed blocks whose bytes this one takes are no longer "freed": an access there now
    // reaches the new block.
    auto f = freed_.upper_bound(start);
    if (f != freed_.begin()) --f;  // the one below may reach into the range
    while (f != freed_.end() && f->first - kHeapAlign < start + need) {
      const uint64_t fEnd = f->first - kHeapAlign + rangeBytes(f->second.size);
      f = fEnd > start ? freed_.erase(f) : std::next(f);
    }
    HeapBlock b;
    b.address = start + kHeapAlign;
    b.size = bytes;
    b.site = std::move(site);
    b.thread = thread.thread;
    b.cta = thread.cta;
    b.lane = thread.lane;
    b.warp = thread.warp;
    inUse_ += bytes;
    live_.emplace_hint(live_.end(), b.address, std::move(b));
    return start + kHeapAlign;
  }
  return 0;
}

FreeOutcome DeviceHeap::free(uint64_t address) {
  if (address == 0) return FreeOutcome::Null;
  auto it = live_.find(address);
  if (it == live_.end())
    return freed_.count(address) ? FreeOutcome::DoubleFree : FreeOutcome::NotHeapPointer;
  const uint64_t start = address - kHeapAlign, length = rangeBytes(it->second.size);
  inUse_ -= it->second.size;
  // The block's node moves from the live map to the freed one (no allocation). No freed block
  // starts at a live block's address (allocate erased it), but a stale one would be replaced.
  freed_.erase(address);
  freed_.insert(live_.extract(it));
  // Give the range back, merged with the free ranges on either side.
  auto next = holes_.lower_bound(start);
  const bool intoNext = next != holes_.end() && start + length == next->first;
  auto prev = next == holes_.begin() ? holes_.end() : std::prev(next);
  if (prev != holes_.end() && prev->first + prev->second == start) {
    prev->second += length;
    if (intoNext) {
      prev->second += next->second;
      holes_.erase(next);
    }
  } else if (intoNext) {
    auto merged = holes_.extract(next);
    merged.key() = start;
    merged.mapped() += length;
    holes_.insert(std::move(merged));
  } else {
    holes_.emplace_hint(next, start, length);
  }
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
