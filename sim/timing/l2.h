// The L2: one sectored cache for the whole chip (l2.size_kb), its bandwidth as a queue of
// sectors, misses to DRAM. Write-back: a write allocates its sector dirty (a whole-sector write
// needs no read), evicted dirty sectors go to DRAM. Atomics execute here.
#pragma once

#include <cstdint>

#include "sim/timing/cache.h"
#include "sim/timing/config.h"
#include "sim/timing/dram.h"
#include "sim/timing/report.h"

namespace warpsim::sim::timing {

enum class L2Op : uint8_t { Read, Write, Atomic };

class L2 {
 public:
  explicit L2(const TimingConfig& c);
  // One sector's access at `now` (already past the L1): the cycle its data (or the atomic's
  // result) is back at the SM. Counts into `m`.
  uint64_t access(uint64_t sectorAddr, L2Op op, uint64_t now, MemoryCounters& m);

 private:
  SectorCache cache_;
  Dram dram_;
  uint32_t hitLatency_, atomicLatency_;
  double bytesPerCycle_;
  double nextFree_ = 0;
};

}  // namespace warpsim::sim::timing
