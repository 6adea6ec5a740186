// The L2: l2.partitions sectored caches that share l2.size_kb (the H200's two halves, each
// homing the lines of its address hash), its bandwidth as a queue of sectors, misses to DRAM.
// Write-back: a write allocates its sector dirty in the line's home (a whole-sector write needs
// no read), evicted dirty sectors go to DRAM. A read from an SM of the other partition that
// misses its near partition goes to the home and leaves a clean copy in the near one (each
// half caches what its SMs read: A100's whitepaper, "each L2 partition localizes and caches
// data for memory accesses from SMs in the GPCs directly connected to the partition"), so such
// lines take room in both. Atomics execute in the home.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

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
  // `near`: the requesting SM's partition (nearPartition); kHome: the line's home.
  static constexpr uint32_t kHome = ~0u;
  uint64_t access(uint64_t sectorAddr, L2Op op, uint64_t now, MemoryCounters& m, double slots = 1,
                  uint32_t near = kHome);
  // The partition SM `sm` reaches without the crossbar: SMs in index order, an equal share each.
  uint32_t nearPartition(uint32_t sm) const;
  // The `lanes` atomics of one warp request on the byte address `addr`: the first waits for the
  // previous request's on that address (l2.atomic_same_address_cycles after it: requests
  // pipeline), each further lane for the one before it (l2.atomic_lane_cycles: lanes of one
  // request replay). Each accesses its sector; returns when the last result is back.
  uint64_t atomic(uint64_t addr, uint32_t lanes, uint64_t now, MemoryCounters& m);

 private:
  // A sector's access to its home partition's cache (its DRAM traffic on a miss).
  uint64_t home(SectorCache& cache, uint64_t sector, L2Op op, uint64_t at, MemoryCounters& m);
  uint32_t homeOf(uint64_t sector) const;
  // Dirty sectors evicted by a fill go to DRAM.
  void writeBack(uint32_t sectors, uint64_t at, MemoryCounters& m);

  std::vector<SectorCache> parts_;
  uint32_t smCount_, lineBytes_;
  Dram dram_;
  uint32_t hitLatency_, atomicLatency_;
  double bytesPerCycle_, farLookupSlots_;
  double nextFree_ = 0;
  uint32_t sameAddressCycles_, laneCycles_;
  std::unordered_map<uint64_t, uint64_t> atomicFree_;  // address -> cycle its ALU is free
};

}  // namespace warpsim::sim::timing
