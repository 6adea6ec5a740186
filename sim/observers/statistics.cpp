#include "sim/observers/statistics.h"

#include <bit>

#include "isa/types.h"
#include "sim/observers/access_cost.h"

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
  activeThreadInsns += o.activeThreadInsns;
  ctas += o.ctas;
  warps += o.warps;
  threads += o.threads;
}

void StatsObserver::ctaStarted(const CtaInfo& c) {
  stats_.ctas = 1;
  stats_.warps = c.warps;
  stats_.threads = c.threads;
}

void StatsObserver::instruction(const InstructionEvent& e) {
  const isa::Inst& in = *e.inst;
  stats_.warpInsns[size_t(in.cls)] += 1;
  stats_.threadInsns[size_t(in.cls)] += unsigned(std::popcount(e.executed));
  stats_.activeThreadInsns += unsigned(std::popcount(e.active));
  // What may split the warp: a conditional branch, brx.idx, an indirect call (isa/indirect.h).
  if ((in.flow == isa::Flow::Branch && (in.guard != isa::kNoSlot || in.table >= 0)) ||
      (in.flow == isa::Flow::Call && in.table >= 0))
    ++stats_.branches;
}

void StatsObserver::memory(const MemoryEvent& e) {
  if (e.kind == AccessKind::Fence) return;
  if (e.kind == AccessKind::Atomic && isa::isFloat(e.inst->mods.type()))
    stats_.floatAtomics += unsigned(std::popcount(e.mask));
  if (e.landed == isa::Space::Shared || e.landed == isa::Space::SharedCluster) {
    const SharedCost c = sharedAccessCost(e.addresses, e.mask, e.bytes);
    ++stats_.sharedRequests;
    stats_.sharedWavefronts += c.wavefronts;
    stats_.sharedIdealWavefronts += c.ideal;
  } else if (e.landed == isa::Space::Global || e.landed == isa::Space::Const) {
    ++stats_.globalRequests;
    stats_.globalSectors += sectorsTouched(e.addresses, e.mask, e.bytes);
    stats_.globalBytes += uint64_t(std::popcount(e.mask)) * e.bytes;
  }
}

std::unique_ptr<Observer> StatsCollector::create(const CtaInfo&) {
  return std::make_unique<StatsObserver>();
}

void StatsCollector::merge(Observer& finished) {
  total_.merge(static_cast<StatsObserver&>(finished).stats());
}

}  // namespace warpsim::sim
