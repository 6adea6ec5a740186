// The device heap's bookkeeping (pages indexed by their longest free run, empty pages, pages
// never used) against a plain model of the same rule (sim/func/device_heap.h): one bitmask of
// slots per page, every search a scan from the heap's first page, every block in a map by
// address. Random mallocs of small and large sizes and frees, on a heap of two units: every
// address must be the model's, and so must the blocks that hold an address, live or freed.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <vector>

#include "sim/func/device_heap.h"

namespace warpsim::test {
namespace {

class PlainHeap {
  struct Block {
    uint64_t first, last, size;
    uint32_t bits;
  };

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
    freed_[address] = b;
  }
  // The block of `blocks` (by address) holding `a`, as the heap answers it: its size, or -1.
  static int64_t holding(const std::map<uint64_t, Block>& blocks, uint64_t a) {
    auto it = blocks.upper_bound(a);
    if (it == blocks.begin()) return -1;
    --it;
    return a - it->first < it->second.size ? static_cast<int64_t>(it->first) : -1;
  }
  int64_t live(uint64_t a) const { return holding(blocks_, a); }
  int64_t freed(uint64_t a) const { return holding(freed_, a); }
  // The live block starting closest at or below `a`, or -1.
  int64_t liveBelow(uint64_t a) const {
    auto it = blocks_.upper_bound(a);
    return it == blocks_.begin() ? -1 : static_cast<int64_t>(std::prev(it)->first);
  }
  bool isFreed(uint64_t a) const { return freed_.count(a) != 0; }
  const std::map<uint64_t, uint64_t> sizes() const {
    std::map<uint64_t, uint64_t> out;
    for (const auto& [a, b] : blocks_) out[a] = b.size;
    return out;
  }

 private:
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
    // The freed blocks whose slots this one takes are forgotten: none but the one below the
    // new block's first slot starts outside it.
    const uint64_t lo = start(p) + slot * 80,
                   hi = slots ? lo + slots * 80 : start(q) + usable(q) * 80;
    for (auto it = freed_.begin(); it != freed_.end();)
      it = it->first - 16 < hi && end(it->second) > lo ? freed_.erase(it) : std::next(it);
    blocks_[address] = {p, q, bytes, bits};
    return address;
  }
  uint64_t end(const Block& b) const {  // of the slots or pages a block takes
    if (b.bits == 0xFFFFFFu) return start(b.last) + usable(b.last) * 80;
    return start(b.first) + (32 - __builtin_clz(b.bits)) * 80;
  }
  uint64_t base_;
  std::vector<uint32_t> used_;
  std::map<uint64_t, Block> blocks_, freed_;
};

RC_GTEST_PROP(DeviceHeapProps, AddressesAreThoseOfAPlainModelOfTheRule, ()) {
  const uint64_t base = 0x40000000;
  sim::DeviceHeap heap(base, 2 * sim::kHeapUnitBytes);
  PlainHeap plain(base, 2);
  std::vector<uint64_t> live, all;  // all: every block, freed or not
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
    if (got) all.push_back(got);
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
  // Which block holds an address, live or freed, and which live block starts below it: near
  // the blocks' edges and anywhere in the heap (and just outside it).
  const auto address = [](const sim::HeapBlock* b) { return b ? int64_t(b->address) : -1; };
  std::vector<uint64_t> probes;
  for (const uint64_t a : all)
    for (const int64_t d : {-17, -16, -1, 0, 1, 15, 63, 64, 1904, 2207, 4095})
      probes.push_back(a + d);
  for (int i = 0; i < 200; ++i)
    probes.push_back(base - 64 + *rc::gen::inRange<uint64_t>(0, 2 * sim::kHeapUnitBytes + 128));
  for (const uint64_t a : probes) {
    RC_ASSERT(address(heap.liveBlock(a)) == plain.live(a));
    RC_ASSERT(address(heap.freedBlock(a)) == plain.freed(a));
    RC_ASSERT(address(heap.liveBlockBelow(a)) == plain.liveBelow(a));
  }
  // Freeing a freed block is a double free, once its slots are not taken again; any other
  // address that is no block's is not a heap pointer.
  for (const uint64_t a : probes) {
    if (std::find(live.begin(), live.end(), a) != live.end()) continue;
    const sim::FreeOutcome want = a == 0             ? sim::FreeOutcome::Null
                                  : plain.isFreed(a) ? sim::FreeOutcome::DoubleFree
                                                     : sim::FreeOutcome::NotHeapPointer;
    RC_ASSERT(heap.free(a) == want);
  }
}

// A warp's lanes malloc one size one after another (the heap takes the last malloc's page again
// while it has room, without searching): bursts of one size, frees of random blocks between
// them (which may give a lower page room again), the model's addresses throughout.
RC_GTEST_PROP(DeviceHeapProps, BurstsOfOneSizeAreThoseOfAPlainModelOfTheRule, ()) {
  const uint64_t base = 0x40000000;
  sim::DeviceHeap heap(base, 2 * sim::kHeapUnitBytes);
  PlainHeap plain(base, 2);
  std::vector<uint64_t> live;
  const int bursts = *rc::gen::inRange(1, 200);
  for (int i = 0; i < bursts; ++i) {
    for (int f = *rc::gen::inRange(0, 8); f > 0 && !live.empty(); --f) {
      const size_t k = *rc::gen::inRange<size_t>(0, live.size());
      RC_ASSERT(heap.free(live[k]) == sim::FreeOutcome::Freed);
      plain.free(live[k]);
      live.erase(live.begin() + k);
    }
    const int kind = *rc::gen::inRange(0, 10);
    const uint64_t bytes = kind < 5   ? *rc::gen::element<uint64_t>(0, 16, 64, 65, 144, 1904)
                           : kind < 9 ? *rc::gen::inRange<uint64_t>(0, 1905)
                                      : *rc::gen::inRange<uint64_t>(1905, 20000);
    const sim::FaultInfo site{};
    for (int n = *rc::gen::inRange(1, 33); n > 0; --n) {
      const uint64_t got = heap.allocate(bytes, site, 1, "k");
      RC_ASSERT(got == plain.allocate(bytes));
      if (got) live.push_back(got);
    }
  }
  RC_ASSERT(heap.liveBlocks().size() == live.size());
  RC_ASSERT(heap.bytesInUse() == [&] {
    uint64_t sum = 0;
    for (const auto& [a, size] : plain.sizes()) sum += size;
    return sum;
  }());
}

// A warp's frees at once (freeLanes: each page's bookkeeping once for all its lanes) against
// free() one lane at a time on a twin heap: the same outcome per lane, the same lane stopping at
// a double free, and the same heap after every warp's call: its blocks, live and freed, its bytes
// in use and the addresses of the mallocs that follow (bursts of one size, as a warp's lanes
// malloc, and single ones). The lanes free live blocks (a warp's neighbouring slots and any
// others, large blocks among them), freed ones, NULL and addresses that are no block's.
RC_GTEST_PROP(DeviceHeapProps, AWarpsFreesAtOnceLeaveTheHeapThatFreesOneByOneLeave, ()) {
  const uint64_t base = 0x40000000;
  sim::DeviceHeap batch(base, 2 * sim::kHeapUnitBytes), single(base, 2 * sim::kHeapUnitBytes);
  std::vector<uint64_t> live, freed;
  const sim::FaultInfo site{};
  const auto malloc = [&](uint64_t bytes) {
    const uint64_t got = batch.allocate(bytes, site, 1, "k");
    RC_ASSERT(got == single.allocate(bytes, site, 1, "k"));
    if (got) live.push_back(got);
  };
  const int calls = *rc::gen::inRange(1, 120);
  for (int c = 0; c < calls; ++c) {
    const int kind = *rc::gen::inRange(0, 10);
    const uint64_t bytes = kind < 6   ? *rc::gen::element<uint64_t>(0, 16, 64, 65, 144, 1904)
                           : kind < 9 ? *rc::gen::inRange<uint64_t>(0, 1905)
                                      : *rc::gen::inRange<uint64_t>(1905, 20000);
    for (int n = *rc::gen::inRange(1, 33); n > 0; --n) malloc(bytes);
    if (live.empty()) continue;
    const auto lanes = *rc::gen::inRange<uint32_t>(0, ~0u);
    uint64_t addresses[32];
    const size_t from = *rc::gen::inRange<size_t>(0, live.size());
    for (unsigned lane = 0; lane < 32; ++lane) {
      const int what = *rc::gen::inRange(0, 20);
      addresses[lane] =
          what < 12   ? live[std::min(live.size() - 1, from + lane)]  // neighbours
          : what < 16 ? live[*rc::gen::inRange<size_t>(0, live.size())]
          : what < 17 && !freed.empty() ? freed[*rc::gen::inRange<size_t>(0, freed.size())]
          : what < 18                   ? 0
                      : base + *rc::gen::inRange<uint64_t>(0, 2 * sim::kHeapUnitBytes);
    }
    sim::FreeOutcome outcomes[32];
    const unsigned stop = batch.freeLanes(lanes, addresses, outcomes);
    unsigned want = 32;
    for (uint32_t m = lanes; m; m &= m - 1) {
      const unsigned lane = unsigned(__builtin_ctz(m));
      const sim::FreeOutcome outcome = single.free(addresses[lane]);
      RC_ASSERT(outcomes[lane] == outcome);
      if (outcome == sim::FreeOutcome::Freed) {
        live.erase(std::find(live.begin(), live.end(), addresses[lane]));
        freed.push_back(addresses[lane]);
      }
      if (outcome == sim::FreeOutcome::DoubleFree) {
        want = lane;
        break;
      }
    }
    RC_ASSERT(stop == want);
    RC_ASSERT(batch.bytesInUse() == single.bytesInUse());
    const auto addressesOf = [](const std::vector<sim::HeapBlock>& blocks) {
      std::vector<uint64_t> out;
      for (const sim::HeapBlock& b : blocks) out.push_back(b.address);
      return out;
    };
    RC_ASSERT(addressesOf(batch.liveBlocks()) == addressesOf(single.liveBlocks()));
    for (const uint64_t a : freed) {
      const sim::HeapBlock *x = batch.freedBlock(a), *y = single.freedBlock(a);
      RC_ASSERT((x ? x->address : 0) == (y ? y->address : 0));
    }
    if (*rc::gen::inRange(0, 4) == 0) malloc(*rc::gen::inRange<uint64_t>(0, 1905));
  }
}

}  // namespace
}  // namespace warpsim::test
