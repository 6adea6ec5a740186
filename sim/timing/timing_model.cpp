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
  Engine engine(config_, occ, ctx, factories, k, listeners, run_.sampleWaves);
  // A grid launched from the device (dynamic parallelism) runs after its parent and its
  // earlier siblings (sim/gpu.cpp), so the host launch's prediction is their sum: the report
  // of the host-launched grid accumulates every descendant's.
  std::optional<TimingReport> report;
  LaunchResult r = engine.run(report);
  if (report && lines_) report->sourceLines = lines_->lines();
  if (ctx.depth == 0)
    last_ = std::move(report);
  else if (last_ && report)
    accumulate(*last_, *report);  // source lines merge too
  else
    last_.reset();  // a descendant faulted: the launch has no prediction
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
