// The CTA's asynchronous copies in flight (cp.async): which copies each thread started, which
// group each belongs to, and the data each will write. The functional model reads a copy's
// source when it is issued and writes its destination only when a wait completes it, so a
// shared-memory read before the wait sees the old contents, as a racing read may on the chip;
// the checkers see both halves as MemoryEvents marked `async`.
//
// Groups are per thread (PTX ISA, "cp.async.commit_group"): a lane's copies since its last
// commit are its open group; commit closes it; wait_group N completes all of the lane's closed
// groups but the newest N. A warp's cp.async is kept as one batch (its lanes, their addresses and
// data) so that completing it is one warp-wide event, as the access was.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace warpsim::sim {

struct AsyncBatch {
  const isa::Inst* inst = nullptr;               // the cp.async that started it
  isa::LaneMask pending = 0;                     // lanes whose copy has not landed yet
  unsigned bytes = 0;                            // per lane (cp-size)
  std::array<uint32_t, isa::kWarpSize> group{};  // the lane's group number
  std::array<uint64_t, isa::kWarpSize> dst{};    // shared-space addresses
  std::array<std::array<uint8_t, 16>, isa::kWarpSize> data{};
};

class AsyncCopyUnit {
 public:
  // A CTA of `warps` warps starts with nothing in flight.
  void reset(unsigned warps);
  // A new batch for warp `w`'s lanes in `mask`, each in its lane's open group; the caller fills
  // dst and data.
  AsyncBatch& start(unsigned w, const isa::Inst* inst, isa::LaneMask mask, unsigned bytes);
  // Closes the open group of each lane in `mask`.
  void commit(unsigned w, isa::LaneMask mask);
  // Completes, for each lane in `mask`, its copies in closed groups but the newest `pending`
  // (all copies, open ones too, when `all`): land(batch, lanes) writes them, batch by batch in
  // issue order.
  template <class Land>
  void complete(unsigned w, isa::LaneMask mask, uint32_t pending, bool all, Land&& land) {
    auto& batches = batches_[w];
    const auto& closed = closed_[w];
    for (AsyncBatch& b : batches) {
      isa::LaneMask lanes = 0;
      for (isa::LaneMask m = b.pending & mask; m; m &= m - 1) {
        const unsigned l = unsigned(std::countr_zero(m));
        if (all || (closed[l] >= pending && b.group[l] < closed[l] - pending)) lanes |= 1u << l;
      }
      if (!lanes) continue;
      land(b, lanes);
      b.pending &= ~lanes;
    }
    std::erase_if(batches, [](const AsyncBatch& b) { return b.pending == 0; });
  }
  // Copies not landed yet, over the CTA (for tests and diagnostics).
  size_t inFlight() const;

 private:
  std::vector<std::array<uint32_t, isa::kWarpSize>> closed_;  // per warp, lane: groups closed
  std::vector<std::vector<AsyncBatch>> batches_;              // per warp, in issue order
};

}  // namespace warpsim::sim
