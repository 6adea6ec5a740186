// The L2: one sectored cache for the whole chip (l2.size_kb), its bandwidth as a queue of
// sectors, misses to DRAM. Write-back: a write allocates its sector dirty (a whole-sector write
// needs no read), evicted dirty sectors go to DRAM. Atomics execute here.
#pragma once

#include <cstdint>
#include <unordered_map>

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
  // `slots`: sectors' worth of L2 bandwidth it takes (l2.partial_write_slots for a store that
  // writes part of its sector).
  uint64_t access(uint64_t sectorAddr, L2Op op, uint64_t now, MemoryCounters& m,
                  uint32_t slots = 1);
  // The `lanes` atomics of one warp request on the byte address `addr`: the first waits for the
  // previous request's on that address (l2.atomic_same_address_cycles after it: requests
  // pipeline), each further lane for the one before it (l2.atomic_lane_cycles: lanes of one
  // request replay). Each accesses its sector; returns when the last result is back.
  uint64_t atomic(uint64_t addr, uint32_t lanes, uint64_t now, MemoryCounters& m);

 private:
  SectorCache cache_;
  Dram dram_;
  uint32_t hitLatency_, atomicLatency_;
  double bytesPerCycle_;
  double nextFree_ = 0;
  uint32_t sameAddressCycles_, laneCycles_;
  std::unordered_map<uint64_t, uint64_t> atomicFree_;  // address -> cycle its ALU is free
};

}  // namespace warpsim::sim::timing
