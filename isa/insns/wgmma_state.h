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
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace warpsim::isa::insns {

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
      if (closed_ >= keep && p.group < closed_ - keep)
        land(p);
      else if (&pending_[kept] == &p)
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
};

}  // namespace warpsim::isa::insns
