// A CTA's named barriers 0..15 (bar / barrier: .sync, .arrive, .red with thread counts). The
// unit counts arriving threads, collects bar.red operands, and on completion writes the
// reductions into the waiting warps and makes them ready.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/exec.h"
#include "sim/func/warp.h"

namespace warpsim::sim {

class BarrierUnit {
 public:
  static constexpr unsigned kCount = 16;

  struct Arrival {
    uint32_t id = 0;
    isa::BarrierKind kind = isa::BarrierKind::Sync;
    uint32_t threadCount = 0;  // 0: every live thread of the CTA
    unsigned warp = 0;
    isa::LaneMask counted = 0;  // lanes counted as arrived
    isa::LaneMask mask = 0;     // lanes that execute the instruction
    isa::LaneMask value = 0;    // bar.red's predicate per lane
    uint32_t resultSlot = isa::kNoSlot;
  };
  // Counts an arrival; a waiting arrival (not bar.arrive) is released with the barrier.
  void arrive(const Arrival& a);
  // Completes barrier `id` if `liveThreads` (or its thread count) have arrived: writes bar.red
  // results into the waiting warps' current frames, makes them ready, and returns true; the
  // released warps are then in released().
  bool tryRelease(uint32_t id, uint32_t liveThreads, std::vector<Warp>& warps);
  const std::vector<unsigned>& released() const { return released_; }
  // The barriers with arrivals not released yet, one bit per id (the ones an exit may complete).
  uint32_t open() const { return open_; }
  // "N of M threads arrived" for the wait report.
  std::string progress(uint32_t id, uint32_t liveThreads) const;
  void reset();

 private:
  struct PendingResult {
    unsigned warp;
    uint32_t slot;
    isa::LaneMask mask;
  };
  struct Barrier {
    uint32_t arrived = 0;
    uint32_t expected = 0;  // 0 = every live thread of the CTA
    std::vector<unsigned> waiting;
    isa::BarrierKind kind = isa::BarrierKind::Sync;
    uint32_t popc = 0;
    bool all = true, any = false;
    std::vector<PendingResult> results;
    // Back to no arrivals, keeping the lists' storage (a barrier completes many times a CTA).
    void clear() {
      arrived = expected = popc = 0;
      kind = isa::BarrierKind::Sync;
      all = true, any = false;
      waiting.clear();
      results.clear();
    }
  };
  std::array<Barrier, kCount> barriers_{};
  std::vector<unsigned> released_;
  uint32_t open_ = 0;
};

}  // namespace warpsim::sim
