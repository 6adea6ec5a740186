#include "sim/timing/timing_model.h"

#include <fstream>

#include "sim/func/cta.h"
#include "sim/func/device_launch.h"
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
  // earlier siblings in the functional core (sim/gpu.cpp), each timed alone: the report of the
  // host-launched grid accumulates every descendant's counters, and its cycles are the end of
  // the timeline that places the grids as the chip runs them, children alongside their parent.
  std::optional<TimingReport> report;
  LaunchResult r = engine.run(report);
  if (report && lines_) report->sourceLines = lines_->lines();
  if (report) {
    // The launches in the order the functional core runs them: the tail launches last.
    std::vector<GridTimeline::Launch> launches;
    if (ctx.launches) {
      const std::vector<uint64_t>& at = engine.launchCycles();
      for (const bool tail : {false, true})
        for (size_t i = 0; i < ctx.launches->queued.size(); ++i)
          if ((ctx.launches->queued[i].stream == kTailLaunchStream) == tail)
            launches.push_back({i < at.size() ? at[i] : 0, tail || i >= at.size()});
    }
    timeline_.place(ctx.depth, report->cycles, report->launchLatency, std::move(launches));
    if (ctx.depth > 0) {
      report->cycles = report->cycles - report->launchLatency + config_.deviceLaunchLatency;
      report->launchLatency = config_.deviceLaunchLatency;
    }
  }
  if (ctx.depth == 0)
    last_ = std::move(report);
  else if (last_ && report) {
    const uint64_t hostLatency = last_->launchLatency;
    accumulate(*last_, *report);  // source lines merge too
    // The children's latencies overlap their parent's run and one another (the timeline): of
    // the timeline's cycles, the launch floor is the host launch's (summed, it can exceed them).
    last_->launchLatency = hostLatency;
  } else
    last_.reset();  // a descendant faulted: the launch has no prediction
  if (last_) last_->cycles = timeline_.end();
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
