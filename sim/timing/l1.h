// The global/local path of one SM: coalescing a warp's addresses into 32-byte sectors, the
// sectored L1 (its capacity what the shared-memory carve-out leaves of the unified array; loads
// allocate, stores write through to the L2, allocating only local memory's whole sectors), the
// SM's LSU pipe
// (l1.tag_lines_per_cycle lines a cycle, a load's bank-conflict wavefronts one a cycle), and
// misses, stores and atomics to the L2.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/observer.h"
#include "sim/timing/cache.h"
#include "sim/timing/l2.h"
#include "sim/timing/smem.h"

namespace warpsim::sim::timing {

class L1 {
 public:
  // `l2Partition`: the L2 partition this SM reaches without the crossbar (L2::nearPartition).
  L1(const TimingConfig& c, uint64_t capacityBytes, uint32_t l2Partition = L2::kHome);
  // `localKey` tells one warp's local memory from another's (local addresses are per thread).
  AccessTiming access(const MemoryEvent& e, isa::Space landed, uint64_t localKey, uint64_t now,
                      L2& l2, MemoryCounters& m, uint64_t* drainAt);

 private:
  const TimingConfig& c_;
  SectorCache cache_;
  uint32_t l2Partition_;
  uint64_t lsuFree_ = 0;
  std::vector<uint64_t> sectors_;      // scratch: the distinct sectors, in lane order
  std::vector<unsigned> sectorBytes_;  // scratch: bytes the lanes write of each
  uint64_t addrs_[32] = {};            // scratch: the lanes' addresses (local ones interleaved)
  std::vector<std::pair<uint64_t, uint32_t>> atomics_;  // scratch: an atomic's addresses, lanes
 public:
  uint64_t lsuFree() const { return lsuFree_; }
  void occupy(uint64_t until) { lsuFree_ = std::max(lsuFree_, until); }
};

}  // namespace warpsim::sim::timing
