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

uint64_t DeviceHeap::allocate(uint64_t bytes, const FaultInfo& site, uint32_t gridId,
                              const std::string& kernel) {
  if (bytes > size_) return 0;
  const uint64_t need = rangeBytes(bytes);
  for (auto it = holes_.begin(); it != holes_.end(); ++it) {
    if (it->second < need) continue;
    const uint64_t start = it->first, length = it->second;
    holes_.erase(it);
    if (length > need) holes_.emplace(start + need, length - need);
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
    b.allocatedBy = site;
    b.gridId = gridId;
    b.kernel = kernel;
    inUse_ += bytes;
    live_.emplace(b.address, b);
    return b.address;
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
  freed_.insert_or_assign(address, std::move(it->second));
  live_.erase(it);
  // Give the range back, merged with the free ranges on either side.
  auto [hole, inserted] = holes_.emplace(start, length);
  auto next = std::next(hole);
  if (next != holes_.end() && hole->first + hole->second == next->first) {
    hole->second += next->second;
    holes_.erase(next);
  }
  if (hole != holes_.begin()) {
    auto prev = std::prev(hole);
    if (prev->first + prev->second == hole->first) {
      prev->second += hole->second;
      holes_.erase(hole);
    }
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
