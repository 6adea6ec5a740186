#include "sim/func/stats.h"

namespace warpsim::sim {

uint64_t Stats::totalWarpInsns() const {
  uint64_t s = 0;
  for (uint64_t v : warpInsns) s += v;
  return s;
}

uint64_t Stats::totalThreadInsns() const {
  uint64_t s = 0;
  for (uint64_t v : threadInsns) s += v;
  return s;
}

double Stats::simdEfficiency() const {
  const uint64_t w = totalWarpInsns();
  return w ? double(totalThreadInsns()) / (double(w) * isa::kWarpSize) : 0.0;
}

double Stats::sectorsPerRequest() const {
  return globalRequests ? double(globalSectors) / double(globalRequests) : 0.0;
}

void Stats::merge(const Stats& o) {
  for (size_t i = 0; i < kClasses; ++i) {
    warpInsns[i] += o.warpInsns[i];
    threadInsns[i] += o.threadInsns[i];
  }
  branches += o.branches;
  divergentBranches += o.divergentBranches;
  sharedRequests += o.sharedRequests;
  sharedWavefronts += o.sharedWavefronts;
  sharedIdealWavefronts += o.sharedIdealWavefronts;
  globalRequests += o.globalRequests;
  globalSectors += o.globalSectors;
  globalBytes += o.globalBytes;
  barriers += o.barriers;
  floatAtomics += o.floatAtomics;
  ctas += o.ctas;
  warps += o.warps;
  threads += o.threads;
}

}  // namespace warpsim::sim
