// What the timing model predicts for one launch: cycles (comparable to Nsight Compute's
// gpc__cycles_elapsed.max), time at the configured clock, IPC, occupancy and its limiter, where
// warps waited (named like ncu's warp stall reasons), and the memory system's counters.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/timing/occupancy.h"
#include "sim/timing/unit.h"

namespace warpsim::sim::timing {

// Warp states per cycle, as ncu's smsp__pcsamp_warps_issue_stalled_* / smsp__average_warps_
// issue_stalled_*_per_issue_active name them.
enum class Stall : uint8_t {
  Selected,          // issued this cycle
  NotSelected,       // could issue, another warp did
  Wait,              // a fixed-latency dependency (ALU result)
  ShortScoreboard,   // a shared-memory, SFU or shuffle result
  LongScoreboard,    // a global/local memory result
  MathPipeThrottle,  // the ALU unit is busy (initiation interval)
  MioThrottle,       // the shared-memory/shuffle pipe is busy
  LgThrottle,        // the global/local pipe is busy
  Barrier,           // waits at bar.sync
  BranchResolving,   // after a branch
  Membar,            // at a memory fence, until the warp's earlier stores are performed
  Count_
};
const char* stallName(Stall s);  // "long_scoreboard"

struct MemoryCounters {
  uint64_t globalLoadRequests = 0, globalStoreRequests = 0, globalAtomicRequests = 0;
  uint64_t globalLoadSectors = 0, globalStoreSectors = 0;
  uint64_t l1Hits = 0, l1Misses = 0;  // sectors of global/local loads
  uint64_t l2Hits = 0, l2Misses = 0;  // sectors of every L2 access
  uint64_t l2ReadSectors = 0, l2WriteSectors = 0, l2AtomicSectors = 0;
  uint64_t dramReadBytes = 0, dramWriteBytes = 0;
  uint64_t sharedRequests = 0, sharedWavefronts = 0, sharedIdealWavefronts = 0;
  // The part of sharedWavefronts that atomics took: ncu's op_ld/op_st wavefront counters leave
  // them out, so the correlation does too.
  uint64_t sharedAtomicWavefronts = 0;
  uint64_t l2AtomicOps = 0;  // per-lane atomic operations at the L2 (same-address ones serialise)
};

// Cycles charged to one source line (source_lines.h records them).
struct SourceLine {
  std::string file;      // the CUDA file; empty when the instructions have no .loc
  uint32_t line = 0;     // the CUDA line; the PTX line when `file` is empty
  uint32_t ptxLine = 0;  // the first PTX line of its instructions
  std::array<uint64_t, size_t(Stall::Count_)> cycles{};  // warp-cycles per state
  uint64_t issued() const { return cycles[size_t(Stall::Selected)]; }
  uint64_t total() const;
  std::string where() const;  // "saxpy.cu:12" (no directories) or "PTX line 40"
};

// The roofline's peaks (config peak.*): FLOP per cycle per SM by kind, DRAM TB/s.
struct RooflinePeaks {
  std::array<double, 4> flopPerCycle{};  // fp32, fp64, fp16, tensor (flops.h's order)
  double dramTbPerS = 0;
};

struct TimingReport {
  std::string configName;
  std::string scheduler;
  double clockGhz = 0;
  uint64_t cycles = 0;             // predicted elapsed cycles, launch latency included
  uint64_t launchLatency = 0;      // the part of `cycles` that is the launch floor
  uint64_t smActiveCyclesSum = 0;  // cycles each SM had a CTA, summed over SMs
  uint32_t smCount = 0;
  uint64_t ctas = 0, waves = 0;
  uint64_t warpInstructions = 0, threadInstructions = 0;  // issued, SASS-only ones included
  // Of warpInstructions, those the SASS has and the PTX does not: a call's frame words (STL at
  // the call, LDL at the return).
  uint64_t frameInstructions = 0;
  Occupancy occupancy;
  // Where the fixed stalls came from with ptxas.sass_stalls on: "SASS (ptxas, nvdisasm)", or
  // why none ("none (nvdisasm not found ...)"); empty when off or ptxas did not run.
  std::string fixedStalls;
  double achievedOccupancy = 0;     // mean resident warps / max warps, over active SM cycles
  uint64_t residentWarpCycles = 0;  // warps resident on an SM, integrated over cycles
  std::array<uint64_t, size_t(Stall::Count_)> stalls{};  // warp-cycles in each state
  // Warp-instructions issued to each unit (constant-bank work, Unit::None, is not counted).
  std::array<uint64_t, size_t(Unit::Count_)> pipeIssues{};
  MemoryCounters mem;
  double seconds() const { return clockGhz > 0 ? cycles / (clockGhz * 1e9) : 0; }
  double ipc()
      const;  // warp-instructions per active SM cycle (sm__inst_executed.avg.per_cycle_active)
  double stallPerIssue(Stall s) const;  // warp-cycles in s per instruction issued
  double l1HitRate() const;
  double l2HitRate() const;
  double sectorsPerRequest() const;
  uint64_t bankConflicts() const { return mem.sharedWavefronts - mem.sharedIdealWavefronts; }
  // "compute", "memory" or "latency": the unit or memory level nearest its peak decides.
  std::string bound() const;
  double issueUtilization() const;  // issued / (active SM cycles x sub-partitions)
  double dramUtilization() const;   // DRAM bytes / (cycles x peak bytes per cycle)
  double l2Utilization() const;     // L2 sector bytes / (cycles x peak bytes per cycle)
  uint32_t smspPerSm = 4;
  double dramBytesPerCycle = 0, l2BytesPerCycle = 0;  // peaks, from the config
  double hostSeconds = 0;                             // wall time of the simulation
  double hostCpuSeconds = 0;  // its thread's CPU time (the speed on an unloaded machine)
  // Floating-point operations by kind (flops.h: fp32, fp64, fp16, tensor; an FMA is 2).
  std::array<uint64_t, 4> flops{};
  RooflinePeaks peaks;
  uint64_t totalFlops() const;
  double arithmeticIntensity() const;  // FLOP per DRAM byte (0 without DRAM traffic)
  // Achieved over peak: of the kind's compute (by the report's cycles, at smCount SMs) and of
  // the DRAM's bandwidth (bytes over the predicted time at clockGhz).
  double flopUtilization(unsigned kind) const;
  double dramBandwidthUtilization() const;
  unsigned dominantFlopKind() const;  // the kind nearest its peak (0 when no FLOP)
  // Per source line (TimingRunOptions::sourceLines), most cycles first; empty otherwise.
  std::vector<SourceLine> sourceLines;
  // Sampling (TimingRunOptions::sampleWaves): waves simulated in detail (0: all of them, no
  // extrapolation) and the CTAs among them.
  uint64_t sampledWaves = 0, detailedCtas = 0;
  // The trace file after this launch (TimingRunOptions::traceFile): events in it, and events
  // dropped past its limit, over all launches so far.
  uint64_t traceEvents = 0, traceDropped = 0;
};

// Adds launch b to a (a sequence of launches: cycles add, counters add).
void accumulate(TimingReport& a, const TimingReport& b);

}  // namespace warpsim::sim::timing
