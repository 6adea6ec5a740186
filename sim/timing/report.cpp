#include "sim/timing/report.h"

#include <algorithm>

#include "sim/timing/source_lines.h"

namespace warpsim::sim::timing {

const char* stallName(Stall s) {
  switch (s) {
    case Stall::Selected:
      return "selected";
    case Stall::NotSelected:
      return "not_selected";
    case Stall::Wait:
      return "wait";
    case Stall::ShortScoreboard:
      return "short_scoreboard";
    case Stall::LongScoreboard:
      return "long_scoreboard";
    case Stall::MathPipeThrottle:
      return "math_pipe_throttle";
    case Stall::MioThrottle:
      return "mio_throttle";
    case Stall::LgThrottle:
      return "lg_throttle";
    case Stall::Barrier:
      return "barrier";
    case Stall::BranchResolving:
      return "branch_resolving";
    case Stall::Membar:
      return "membar";
    default:
      return "?";
  }
}

double TimingReport::ipc() const {
  const double active = smCount ? double(smActiveCyclesSum) / smCount : 0;
  return active > 0 ? double(warpInstructions) / smCount / active : 0;
}

double TimingReport::stallPerIssue(Stall s) const {
  return warpInstructions ? double(stalls[size_t(s)]) / double(warpInstructions) : 0;
}

double TimingReport::l1HitRate() const {
  const uint64_t n = mem.l1Hits + mem.l1Misses;
  return n ? double(mem.l1Hits) / double(n) : 0;
}

double TimingReport::l2HitRate() const {
  const uint64_t n = mem.l2Hits + mem.l2Misses;
  return n ? double(mem.l2Hits) / double(n) : 0;
}

double TimingReport::sectorsPerRequest() const {
  const uint64_t r = mem.globalLoadRequests + mem.globalStoreRequests;
  return r ? double(mem.globalLoadSectors + mem.globalStoreSectors) / double(r) : 0;
}

double TimingReport::issueUtilization() const {
  return smActiveCyclesSum ? double(warpInstructions) / (double(smActiveCyclesSum) * smspPerSm) : 0;
}

double TimingReport::dramUtilization() const {
  const uint64_t busy = cycles > launchLatency ? cycles - launchLatency : 0;
  return busy && dramBytesPerCycle > 0
             ? double(mem.dramReadBytes + mem.dramWriteBytes) / (busy * dramBytesPerCycle)
             : 0;
}

double TimingReport::l2Utilization() const {
  const uint64_t busy = cycles > launchLatency ? cycles - launchLatency : 0;
  const uint64_t sectors = mem.l2ReadSectors + mem.l2WriteSectors + mem.l2AtomicSectors;
  return busy && l2BytesPerCycle > 0 ? double(sectors) * 32 / (busy * l2BytesPerCycle) : 0;
}

uint64_t TimingReport::totalFlops() const {
  uint64_t t = 0;
  for (uint64_t f : flops) t += f;
  return t;
}

double TimingReport::arithmeticIntensity() const {
  const uint64_t bytes = mem.dramReadBytes + mem.dramWriteBytes;
  return bytes ? double(totalFlops()) / double(bytes) : 0;
}

double TimingReport::flopUtilization(unsigned kind) const {
  const double peak = double(cycles) * smCount * peaks.flopPerCycle[kind];
  return peak > 0 ? double(flops[kind]) / peak : 0;
}

double TimingReport::dramBandwidthUtilization() const {
  const double s = seconds();
  const double peak = s * peaks.dramTbPerS * 1e12;
  return peak > 0 ? double(mem.dramReadBytes + mem.dramWriteBytes) / peak : 0;
}

unsigned TimingReport::dominantFlopKind() const {
  unsigned best = 0;
  for (unsigned k = 1; k < flops.size(); ++k)
    if (flopUtilization(k) > flopUtilization(best)) best = k;
  return best;
}

std::string TimingReport::bound() const {
  // A part at 60% or more of its peak bounds the kernel; otherwise latency does (too few warps
  // or too little independent work to keep any part busy). Compute is the busier of the issue
  // slots and the floating-point pipe nearest its peak (an FP64 or tensor pipe saturates at
  // fewer issues than there are slots).
  const double mem = std::max(dramUtilization(), l2Utilization());
  const double issue = std::max(issueUtilization(), flopUtilization(dominantFlopKind()));
  if (mem >= 0.6 && mem >= issue) return "memory";
  if (issue >= 0.6) return "compute";
  return "latency";
}

void accumulate(TimingReport& a, const TimingReport& b) {
  if (a.configName.empty()) {
    a = b;
    return;
  }
  // Occupancy stays the first launch's; everything that counts adds up.
  const double warpCyclesA = a.achievedOccupancy * a.smActiveCyclesSum;
  const double warpCyclesB = b.achievedOccupancy * b.smActiveCyclesSum;
  a.cycles += b.cycles;
  a.launchLatency += b.launchLatency;
  a.smActiveCyclesSum += b.smActiveCyclesSum;
  a.residentWarpCycles += b.residentWarpCycles;
  a.achievedOccupancy =
      a.smActiveCyclesSum ? (warpCyclesA + warpCyclesB) / double(a.smActiveCyclesSum) : 0;
  a.ctas += b.ctas;
  a.waves += b.waves;
  a.warpInstructions += b.warpInstructions;
  a.frameInstructions += b.frameInstructions;
  a.threadInstructions += b.threadInstructions;
  for (size_t i = 0; i < a.stalls.size(); ++i) a.stalls[i] += b.stalls[i];
  for (size_t i = 0; i < a.pipeIssues.size(); ++i) a.pipeIssues[i] += b.pipeIssues[i];
  MemoryCounters& m = a.mem;
  const MemoryCounters& n = b.mem;
  m.globalLoadRequests += n.globalLoadRequests;
  m.globalStoreRequests += n.globalStoreRequests;
  m.globalAtomicRequests += n.globalAtomicRequests;
  m.globalLoadSectors += n.globalLoadSectors;
  m.globalStoreSectors += n.globalStoreSectors;
  m.l1Hits += n.l1Hits;
  m.l1Misses += n.l1Misses;
  m.l2Hits += n.l2Hits;
  m.l2Misses += n.l2Misses;
  m.l2ReadSectors += n.l2ReadSectors;
  m.l2WriteSectors += n.l2WriteSectors;
  m.l2AtomicSectors += n.l2AtomicSectors;
  m.dramReadBytes += n.dramReadBytes;
  m.dramWriteBytes += n.dramWriteBytes;
  m.sharedRequests += n.sharedRequests;
  m.sharedWavefronts += n.sharedWavefronts;
  m.sharedIdealWavefronts += n.sharedIdealWavefronts;
  m.sharedAtomicWavefronts += n.sharedAtomicWavefronts;
  m.l2AtomicOps += n.l2AtomicOps;
  for (size_t i = 0; i < a.flops.size(); ++i) a.flops[i] += b.flops[i];
  mergeSourceLines(a.sourceLines, b.sourceLines);
  a.detailedCtas += b.detailedCtas;
  a.sampledWaves = std::max(a.sampledWaves, b.sampledWaves);
  a.hostSeconds += b.hostSeconds;
  a.hostCpuSeconds += b.hostCpuSeconds;
}

}  // namespace warpsim::sim::timing
