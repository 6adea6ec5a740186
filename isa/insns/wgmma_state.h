// A warp's wgmma.mma_async operations in flight (PTX ISA, "wgmma.commit_group",
// "wgmma.wait_group"). The functional model computes a wgmma's result when it is issued (its
// shared-memory operands are read then) but writes the accumulator registers only when a
// wgmma.wait_group completes its group, so a read of them in between sees the old values, one
// of the things the chip may give for that undefined read. A later wgmma that accumulates into
// the same registers (the usual chain over K, which the manual allows without a fence) reads
// the pending result instead: `latest`.
//
// Groups are per warp here (the manual's are per warpgroup, whose four warps execute the
// .aligned instructions together): wgmma.commit_group closes the open group, wait_group N
// completes all closed groups but the newest N. The machine owns one queue per warp
// (isa::Machine::wgmmaQueue) and resets it when the CTA starts.
//
// The queue also keeps what a wgmma.mma_async works in (WgmmaScratch) and the results it has
// landed, for the warp's next instructions to reuse: the machine keeps its CTA, hence the queues,
// from one CTA to the next on a host thread, so that once a warp has run a wgmma of a size,
// the next allocates nothing (a dozen host allocations an instruction, with their zeroing, were
// a tenth of hgemm_wgmma's time).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "isa/insns/mma_accumulate.h"
#include "isa/program.h"

namespace warpsim::isa::insns {

// An array that keeps its storage for the next instruction and grows without initializing
// (std::vector's resize zeroes what it adds: a third of the buffers' cost on a launch's first
// instructions, whose warps' queues start empty).
template <class T>
class ScratchArray {
 public:
  // n elements, their contents whatever the last user left (the caller writes them all).
  T* of(size_t n) {
    if (n > capacity_) {
      data_ = std::make_unique_for_overwrite<T[]>(n);
      capacity_ = n;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<T[]> data_;
  size_t capacity_ = 0;
};

// The buffers of one wgmma.mma_async (wgmma.cpp's mmaAsyncH and readOperand, which alone read
// and write them): each is sized and written whole by the instruction before it is read, so
// what a previous instruction left in it is never seen.
struct WgmmaScratch {
  ScratchArray<uint32_t> a, b;          // the operands' element bits
  std::vector<uint32_t> heads, index;   // readOperand: the units, their places
  std::vector<uint8_t> bytes;           // readOperand: the distinct units (observed runs)
  ScratchArray<uint16_t> halves;        // f16 elements' bits, a scale's sign applied
  ScratchArray<uint16_t> bRows;         // an MN-major f16 B's bits, k-major (readOperand)
  ScratchArray<double> av, bv;          // the elements' values
  ScratchArray<int32_t> ae, be;         // their alignment exponents
  ScratchArray<float> an, bn;           // their f32 copies
  ScratchArray<MmaVector> rows, cols;   // A's rows, B's columns for mmaGridDots
  ScratchArray<uint64_t> cBits, dBits;  // C and D by element and lane
  ScratchArray<uint64_t> cGrid, dGrid;  // C and D by cell of the warp's grid
  std::vector<const std::array<uint64_t, kWarpSize>*> inFlight;  // latest() of D's registers
  std::vector<const uint64_t*> cRegs;                            // C's registers, in flight or not
};

class WgmmaQueue {
 public:
  struct Pending {
    const Inst* inst = nullptr;
    uint32_t group = 0;                                   // the commit group it joined
    std::vector<uint32_t> slots;                          // D's registers
    std::vector<std::array<uint64_t, kWarpSize>> values;  // per register, per lane
  };

  void reset(unsigned rank) {
    rank_ = rank;
    closed_ = 0;
    pending_.clear();
  }
  // The warp's rank in its warpgroup (0..3): which 16 rows of the 64-row tile it computes.
  unsigned rank() const { return rank_; }
  // A Pending to fill, with the storage of one that has landed when there is one (its slots
  // and values are resized and written whole by the instruction).
  Pending spare() {
    if (spare_.empty()) return {};
    Pending p = std::move(spare_.back());
    spare_.pop_back();
    return p;
  }
  WgmmaScratch& scratch() { return scratch_; }
  // A result joins the open group.
  void issue(Pending p) {
    p.group = closed_;
    pending_.push_back(std::move(p));
  }
  void commit() { ++closed_; }
  // Completes every result in a closed group but the newest `keep`, in issue order:
  // land(pending) writes it.
  template <class Land>
  void complete(uint32_t keep, Land&& land) {
    size_t kept = 0;
    for (Pending& p : pending_) {
      if (closed_ >= keep && p.group < closed_ - keep) {
        land(p);
        spare_.push_back(std::move(p));
      } else if (&pending_[kept] == &p)
        ++kept;
      else
        pending_[kept++] = std::move(p);
    }
    pending_.resize(kept);
  }
  // The newest in-flight value of register `slot` (nullptr: none in flight).
  const std::array<uint64_t, kWarpSize>* latest(uint32_t slot) const {
    for (auto p = pending_.rbegin(); p != pending_.rend(); ++p)
      for (size_t i = 0; i < p->slots.size(); ++i)
        if (p->slots[i] == slot) return &p->values[i];
    return nullptr;
  }
  // latest() of each of `slots`: the newest result in flight that writes it, or nullptr. A
  // chain of wgmmas over K names the same registers as the newest in flight, which then holds
  // them all (the common case: one comparison of the lists instead of a search per register).
  void latest(const std::vector<uint32_t>& slots,
              std::vector<const std::array<uint64_t, kWarpSize>*>& out) const {
    out.resize(slots.size());
    if (!pending_.empty() && pending_.back().slots == slots) {
      for (size_t i = 0; i < slots.size(); ++i) out[i] = &pending_.back().values[i];
      return;
    }
    for (size_t i = 0; i < slots.size(); ++i) out[i] = latest(slots[i]);
  }
  size_t inFlight() const { return pending_.size(); }
  // Operations issued and not yet committed.
  size_t uncommitted() const {
    size_t n = 0;
    for (const Pending& p : pending_) n += p.group == closed_;
    return n;
  }

 private:
  unsigned rank_ = 0;
  uint32_t closed_ = 0;
  std::vector<Pending> pending_;
  std::vector<Pending> spare_;  // landed, their storage kept for spare()
  WgmmaScratch scratch_;
};

}  // namespace warpsim::isa::insns
