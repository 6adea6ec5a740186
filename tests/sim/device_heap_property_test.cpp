// The device heap's bookkeeping (pages indexed by their longest free run, empty pages, pages
// never used) against a plain model of the same rule (sim/func/device_heap.h): one bitmask of
// slots per page, every search a scan from the heap's first page. Random mallocs of small and
// large sizes and frees, on a heap of two units: every address must be the model's.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <vector>

#include "sim/func/device_heap.h"

namespace warpsim::test {
namespace {

class PlainHeap {
 public:
  PlainHeap(uint64_t base, uint64_t units)
      : base_(base), used_(units * sim::kHeapPagesPerUnit, 0) {}

  uint64_t allocate(uint64_t bytes) {
    const uint64_t slots = (16 + bytes + 79) / 80;
    for (uint64_t p = 0; p < used_.size(); ++p) {
      if (slots <= sim::kHeapSlotsPerPage) {
        for (uint64_t s = 0; s + slots <= usable(p); ++s)
          if ((used_[p] >> s & ((1u << slots) - 1)) == 0) return place(p, p, s, slots, bytes);
        continue;
      }
      for (uint64_t q = p; q < used_.size() && used_[q] == 0; ++q)
        if (start(q) + usable(q) * 80 - start(p) >= 16 + bytes) return place(p, q, 0, 0, bytes);
    }
    return 0;
  }
  void free(uint64_t address) {
    const Block b = blocks_.at(address);
    for (uint64_t p = b.first; p <= b.last; ++p) used_[p] &= ~b.bits;
    blocks_.erase(address);
  }
  const std::map<uint64_t, uint64_t> sizes() const {
    std::map<uint64_t, uint64_t> out;
    for (const auto& [a, b] : blocks_) out[a] = b.size;
    return out;
  }

 private:
  struct Block {
    uint64_t first, last, size;
    uint32_t bits;
  };
  uint64_t usable(uint64_t p) const {
    return p % sim::kHeapPagesPerUnit == sim::kHeapPagesPerUnit - 1 ? 22 : 24;
  }
  uint64_t start(uint64_t p) const {
    return base_ + p / sim::kHeapPagesPerUnit * sim::kHeapUnitBytes +
           p % sim::kHeapPagesPerUnit * sim::kHeapPagePitch;
  }
  uint64_t place(uint64_t p, uint64_t q, uint64_t slot, uint64_t slots, uint64_t bytes) {
    const uint32_t bits = slots ? ((1u << slots) - 1) << slot : 0xFFFFFFu;
    for (uint64_t i = p; i <= q; ++i) used_[i] |= bits;
    const uint64_t address = start(p) + slot * 80 + 16;
    blocks_[address] = {p, q, bytes, bits};
    return address;
  }
  uint64_t base_;
  std::vector<uint32_t> used_;
  std::map<uint64_t, Block> blocks_;
};

RC_GTEST_PROP(DeviceHeapProps, AddressesAreThoseOfAPlainModelOfTheRule, ()) {
  const uint64_t base = 0x40000000;
  sim::DeviceHeap heap(base, 2 * sim::kHeapUnitBytes);
  PlainHeap plain(base, 2);
  std::vector<uint64_t> live;
  const int steps = *rc::gen::inRange(1, 400);
  for (int i = 0; i < steps; ++i) {
    if (!live.empty() && *rc::gen::inRange(0, 3) == 0) {
      const size_t k = *rc::gen::inRange<size_t>(0, live.size());
      RC_ASSERT(heap.free(live[k]) == sim::FreeOutcome::Freed);
      plain.free(live[k]);
      live.erase(live.begin() + k);
      continue;
    }
    const int kind = *rc::gen::inRange(0, 10);
    const uint64_t bytes = kind < 7   ? *rc::gen::inRange<uint64_t>(0, 1905)
                           : kind < 9 ? *rc::gen::inRange<uint64_t>(1905, 20000)
                                      : *rc::gen::inRange<uint64_t>(20000, 3u << 20);
    const sim::FaultInfo site{};
    const uint64_t got = heap.allocate(bytes, site, 1, "k");
    RC_ASSERT(got == plain.allocate(bytes));
    if (got) live.push_back(got);
  }
  // Live blocks never overlap (with the 16 bytes before each) and lie inside the heap.
  uint64_t end = base;
  for (const auto& [a, size] : plain.sizes()) {
    RC_ASSERT(a % 16 == 0);
    RC_ASSERT(a - 16 >= end);
    end = a + size;
    RC_ASSERT(heap.liveBlock(a) != nullptr || size == 0);
  }
  RC_ASSERT(end <= base + 2 * sim::kHeapUnitBytes);
  RC_ASSERT(heap.liveBlocks().size() == live.size());
}

}  // namespace
}  // namespace warpsim::test
