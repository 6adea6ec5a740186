#include "sim/timing/timing_model.h"

#include <fstream>

#include "sim/func/cta.h"
#include "sim/timing/engine.h"

namespace warpsim::sim::timing {

TimingModel::TimingModel(TimingConfig config) : config_(std::move(config)), run_(config_.run) {
  if (!run_.traceFile.empty()) trace_ = std::make_unique<TraceRecorder>(run_.traceEventLimit);
  if (run_.sourceLines) lines_ = std::make_unique<SourceLineRecorder>();
}

void TimingModel::setResources(const std::string& entry, KernelResources r) {
  resources_[entry] = std::move(r);
}

LaunchResult TimingModel::run(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories) {
  KernelResources k;
  k.staticShared = ctx.entry->sharedBytes;
  k.source = fallbackNote_.empty() ? "ptx" : "ptx (" + fallbackNote_ + ")";
  if (auto it = resources_.find(ctx.entry->name); it != resources_.end()) k = it->second;
  const Occupancy occ =
      computeOccupancy(config_, k, uint32_t(ctx.block.count()), ctx.dynamicShared);
  std::vector<EngineListener*> listeners;
  if (trace_) listeners.push_back(trace_.get());
  if (lines_) listeners.push_back(lines_.get());
  Engine engine(config_, occ, ctx, factories, k.stackFrames, listeners, run_.sampleWaves);
  LaunchResult r = engine.run(last_);
  if (last_ && lines_) last_->sourceLines = lines_->lines();
  if (trace_) {
    // Rewritten after every launch: the file holds whatever ran, even if a later launch faults.
    std::ofstream f(run_.traceFile, std::ios::binary | std::ios::trunc);
    f << trace_->json();
    if (!f) throw ConfigError("--trace " + run_.traceFile + ": cannot write the file");
    if (last_) {
      last_->traceEvents = trace_->written();
      last_->traceDropped = trace_->dropped();
    }
  }
  return r;
}

}  // namespace warpsim::sim::timing
