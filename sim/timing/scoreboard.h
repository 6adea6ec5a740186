// A warp's scoreboard: for every register slot and predicate, the cycle its pending write
// lands and what kind of producer it waits on (which names the stall). An instruction issues
// when everything it reads and writes is ready (writes: in-order completion of the same
// register).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "isa/program.h"
#include "sim/timing/report.h"

namespace warpsim::sim::timing {

class Scoreboard {
 public:
  void reset(uint32_t slots, uint32_t preds);
  // When `in` may issue as far as its registers go, and the stall while it may not.
  std::pair<uint64_t, Stall> waitFor(const isa::Inst& in) const;
  // When the registers it reads are ready (its own defs' pending writes left out: ptxas renames
  // them when it moves the instruction up).
  uint64_t usesReady(const isa::Inst& in) const;
  void write(const isa::RegRef& r, uint64_t readyAt, Stall kind);

 private:
  struct Entry {
    uint64_t ready = 0;
    Stall kind = Stall::Wait;
  };
  const Entry* entry(const isa::RegRef& r) const;
  std::vector<Entry> regs_, preds_;
};

}  // namespace warpsim::sim::timing
