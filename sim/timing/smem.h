// Shared memory on one SM: an access takes one wavefront per distinct bank row its lanes touch
// (sharedAccessCost: bank conflicts replay, one word broadcasts), served one wavefront per
// shared.cycles_per_wavefront on the SM's MIO pipe, its data back shared.latency cycles after
// the last wavefront starts; a conflict's replayed wavefronts start shared.replay_latency apart
// on the way to the data (micro_bank_stride: 2 cycles each on the H200), though the pipe takes
// one per shared.cycles_per_wavefront.
#pragma once

#include <array>
#include <cstdint>

#include "sim/observer.h"
#include "sim/timing/config.h"
#include "sim/timing/report.h"

namespace warpsim::sim::timing {

struct AccessTiming {
  uint64_t ready = 0;  // the cycle a load's (or atomic's) result may be used
  Stall kind = Stall::ShortScoreboard;
  // A shared store: the cycle it is performed (its last wavefront at the pipe's pace plus
  // shared.store_latency), what a barrier after it waits for.
  uint64_t performed = 0;
  // The request's last wavefront at its warp's own pace (replays shared.replay_latency apart):
  // the warp issues no other shared access before it (micro_store_burst: one warp's 32-way
  // stores take 2 cycles a wavefront, a second warp's fill the gaps).
  uint64_t paced = 0;
};

// `mioFree`: the cycle the SM's MIO pipe is free (advanced by the access).
AccessTiming sharedAccess(const TimingConfig& c, const MemoryEvent& e, uint64_t now,
                          uint64_t& mioFree, MemoryCounters& m);

// ptxas merges a warp's shared loads of consecutive words of a 16-byte-aligned vector (the
// As[ty][k..k+3] of an unrolled tile loop) into one LDS.64/LDS.128: the SASS has one request
// where the PTX has up to four. A warp keeps the vectors it has open here.
struct SharedVectors {
  struct Group {
    uint64_t next = 0;   // the first active lane's address that continues the vector
    uint64_t ready = 0;  // when the vector's data is back
    uint32_t mask = 0;
    unsigned offset = 0;                     // bytes of the vector loaded so far; 0: no vector open
    unsigned charged = 0, chargedIdeal = 0;  // wavefronts charged for it so far
  };
  std::array<Group, 2> groups{};  // two: a tile loop reads two vectors in turn
  unsigned victim = 0;
  void reset() {
    for (Group& g : groups) g.offset = 0;
  }
};

// sharedAccess, except that a 4- or 8-byte load that continues an open vector (every lane's
// address the next bytes of its own 16-byte-aligned vector, the same lanes) is part of that
// vector's request: it costs only the wavefronts the wider access adds and its data comes with
// the vector's. A store or atomic closes the warp's vectors (ptxas keeps loads after it).
AccessTiming sharedAccessMerged(const TimingConfig& c, const MemoryEvent& e, uint64_t now,
                                uint64_t& mioFree, MemoryCounters& m, SharedVectors& v);

}  // namespace warpsim::sim::timing
