// The state of one SM during a timed launch: its sub-partitions (each a warp scheduler's list
// of resident warps and its units' next free cycles), its L1/LSU and MIO pipes, and the
// bookkeeping for active cycles and achieved occupancy.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "sim/timing/async_groups.h"
#include "sim/timing/l1.h"
#include "sim/timing/scoreboard.h"
#include "sim/timing/smem.h"
#include "sim/timing/units.h"

namespace warpsim::sim::timing {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// A warp resident on an SM.
struct WarpCtx {
  uint32_t cta = 0;   // index of its CTA's slot
  unsigned warp = 0;  // within the CTA
  unsigned sm = 0, smsp = 0;
  uint64_t age = 0;
  uint64_t readyAt = 0;  // its own earliest next issue (branch resolve, barrier release)
  Stall readyKind = Stall::Wait;
  // Tells its local memory from every other resident warp's (L1::access's localKey).
  uint64_t localKey() const { return (uint64_t(sm) << 8) + (cta & 0xFF) * 64 + warp + 1; }
  // Holds the warp until `at` for `why`; a longer hold already in place keeps its reason (a
  // return's branch resolves long before the frame it restores is back).
  void holdUntil(uint64_t at, Stall why) {
    if (at > readyAt) {
      readyAt = at;
      readyKind = why;
    }
  }
  Scoreboard sb;
  AsyncGroups asyncCopies;  // its cp.async groups in flight
  AsyncGroups wgmmaGroups;  // its wgmma groups: when each completes
  uint64_t lastT = 0;       // stall accounting: cycles before lastT are counted
  Stall lastKind = Stall::Wait;
  bool done = false;
  bool atBarrier = false;  // waits at bar.sync (mirrors its Warp's state, without the lookup)
  // The earliest cycle a result may count from (ptxas.hoist_window): its last atomic, barrier
  // release or register-stride loop trip, and the issue of the instruction ptxas.hoist_window
  // before it. A load also waits for the warp's last store that may alias it: ptxas keeps a
  // load after a store to the same state space (or a generic one), but moves it, and any
  // arithmetic, above stores to another space (sgemm_tiled: both LDGs before both STS).
  uint64_t hoistFloor = 0;
  uint64_t sharedStoreFloor = 0, globalStoreFloor = 0;  // global: global and local memory
  // Its last barrier's issue, then release: a floor for every result but those of a pipelined
  // loop's arithmetic and read-only loads (pipelined_loops.h).
  uint64_t barrierFloor = 0;
  // Trips taken through a pipelined loop's back edge since it entered the loop: every
  // ptxas.pipeline_unroll-th ends an unrolled block.
  uint32_t pipelinedTrips = 0;
  // The lanes of the path its next instruction runs on (read with `next`) and of the path its
  // last one ran on: where they differ, the warp split or rejoined (Engine::issue).
  isa::LaneMask nextMask = 0, pathMask = 0;
  FixedPipe nextPipe = FixedPipe::Unknown;  // of `next` (units.h)
  // The cycle its last shared store is performed (its last wavefront written): a barrier it
  // arrives at releases no sooner (bar.sync orders the CTA's prior accesses, as membar.cta).
  uint64_t sharedStoreDone = 0;
  // The cycle its last global store or atomic is performed at the L2: a fence at gpu scope, or
  // a release there, waits for it (the PTX memory model's release pattern).
  uint64_t globalStoreDone = 0;
  // The cycle after its last shared request's last wavefront at its own pace (AccessTiming::
  // paced): its next MIO instruction issues no sooner.
  uint64_t sharedPaceEnd = 0;
  static constexpr unsigned kHoistRing = 128;   // the largest ptxas.hoist_window
  std::array<uint64_t, kHoistRing> issuedAt{};  // issue cycles of its last instructions
  uint64_t issuedCount = 0;
  // Each lane's call depth: where its next SASS stack frame goes in local memory.
  std::array<uint16_t, 32> callDepth{};
  // Each lane's mallocs so far in the launch: a malloc holds the device's allocator slot longer
  // the more its thread made before (heap_timing.h).
  std::array<uint32_t, 32> mallocsMade{};
  uint8_t heapCallsMade = 0;  // bit 0: it called malloc in the launch, bit 1: free
  // A call's frame still to save, or a return's to restore (Engine::callCosts): one STL or LDL
  // a word, each a SASS instruction that the scheduler issues as it issues the PTX's; a
  // restore's data is back at `dataBack`, which its RET waits for.
  struct FrameWords {
    uint32_t left = 0, done = 0;
    uint32_t lanes = 0;  // the call's or return's executing lanes
    bool save = false;
    uint64_t dataBack = 0;
  } frame;
  SharedVectors vectors;    // its shared loads that ptxas would merge into vector loads
  uint32_t stallCarry = 0;  // the SASS's fixed stall cycles owed, below one (x kStallOne)
  // Its next instruction, what its registers wait for and its unit: valid until it issues.
  bool peeked = false;
  const isa::Inst* next = nullptr;
  uint64_t regAt = 0;
  Stall regKind = Stall::Wait;
  PipeChoice pipes;
};

struct Smsp {
  std::vector<uint32_t> warps;  // WarpCtx indices, in arrival order
  uint32_t lastIssued = ~0u;    // WarpCtx index
  std::array<uint64_t, size_t(Unit::Count_)> unitFree{};
  uint64_t scheduled = kNever;  // its pending wake-up
  double tensorCarry = 0;       // the tensor pipe's busy fraction of a cycle (occupyTensor)
  // The tensor pipe is busy `cycles` from t; HMMAs take 6.5 cycles each on average, so the
  // fraction carries to the next one.
  void occupyTensor(uint64_t t, double cycles) {
    const double busy = cycles + tensorCarry;
    const uint64_t whole = uint64_t(busy);
    tensorCarry = busy - double(whole);
    unitFree[size_t(Unit::Tensor)] = t + whole;
  }
  // The first cycle one of `p`'s units (per sub-partition ones) is free.
  uint64_t freeAt(PipeChoice p) const {
    const uint64_t a = unitFree[size_t(p.first)];
    return p.second == Unit::None ? a : std::min(a, unitFree[size_t(p.second)]);
  }
  // The unit of `p` an instruction issued at cycle t takes: `p.first` if free by then, else the
  // one that frees first.
  Unit pick(PipeChoice p, uint64_t t) const {
    if (p.second == Unit::None || unitFree[size_t(p.first)] <= t) return p.first;
    return unitFree[size_t(p.second)] < unitFree[size_t(p.first)] ? p.second : p.first;
  }
};

struct SmState {
  std::vector<Smsp> smsps;
  std::unique_ptr<L1> l1;
  uint64_t mioFree = 0;
  uint64_t dsmemFree = 0;  // its port to other SMs' shared memory (distributed shared memory)
  unsigned residentCtas = 0, residentWarps = 0;
  unsigned warpsDispatched = 0;  // rotates new warps over the sub-partitions
  uint64_t nextCtaStart = 0;     // the earliest cycle its next CTA may start (cta_interval)
  uint64_t activeSince = 0, activeCycles = 0;
  uint64_t lastChange = 0, warpCycles = 0;  // resident warps integrated over time
  // Resident warps change at `t`.
  void changeWarps(uint64_t t, int delta) {
    warpCycles += uint64_t(residentWarps) * (t - lastChange);
    lastChange = t;
    if (residentWarps == 0 && delta > 0) activeSince = t;
    residentWarps = unsigned(int(residentWarps) + delta);
    if (residentWarps == 0 && delta < 0) activeCycles += t - activeSince;
  }
};

}  // namespace warpsim::sim::timing
