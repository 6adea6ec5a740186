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
#include "sim/timing/units.h"

namespace warpsim::sim::timing {

class Scoreboard {
 public:
  // `crossPipe`: the extra cycles of a result read on the other fixed-latency pipe (units.h).
  void reset(uint32_t slots, uint32_t preds, uint32_t crossPipe = 0);
  // When `in`, on `pipe`, may issue as far as its registers go, and the stall while it may not.
  std::pair<uint64_t, Stall> waitFor(const isa::Inst& in,
                                     FixedPipe pipe = FixedPipe::Unknown) const;
  // When the registers it reads are ready (its own defs' pending writes left out: ptxas renames
  // them when it moves the instruction up).
  uint64_t usesReady(const isa::Inst& in, FixedPipe pipe = FixedPipe::Unknown) const;
  // When the predicates `in` reads as sources may guard an instruction (0 if it reads none): an
  // instruction folded into its sources' producer (folds.h) passes their guard latency on.
  uint64_t sourcesGuardReady(const isa::Inst& in) const;
  // A register's or predicate's pending write by an instruction on `pipe`; `guardReadyAt`
  // (predicates) is when it may guard an instruction, which on the chip is later than when it
  // may be read as data.
  void write(const isa::RegRef& r, uint64_t readyAt, Stall kind, uint64_t guardReadyAt = 0,
             FixedPipe pipe = FixedPipe::Unknown);

 private:
  struct Entry {
    uint64_t ready = 0;
    uint64_t guardReady = 0;
    Stall kind = Stall::Wait;
    FixedPipe pipe = FixedPipe::Unknown;  // its producer's
  };
  // When `r`, read by `in` on `pipe`, is ready for it: a predicate that guards `in` waits for
  // guardReady, a result from the other pipe crossPipe_ more.
  uint64_t readyFor(const Entry& e, const isa::RegRef& r, const isa::Inst& in,
                    FixedPipe pipe) const;
  const Entry* entry(const isa::RegRef& r) const;
  std::vector<Entry> regs_, preds_;
  uint32_t crossPipe_ = 0;
};

}  // namespace warpsim::sim::timing
