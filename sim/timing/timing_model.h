// The cycle-level H200 model: a GridRunner (sim/func/launch.h) that runs a launch's CTAs on
// config.smCount SMs in cycle order, one warp-instruction at a time (Cta::step(w, 1) executes it
// functionally at issue), and predicts its cycles. Every SM is simulated on the calling thread,
// so predictions never depend on the host thread count.
//
// Use: TimingModel model(config); options.runner = &model; gpu.launch(...); then
// model.lastReport(). The harness does this for you: harness::makeSimBackend with a
// TimingConfig (harness/backend.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "sim/func/launch.h"
#include "sim/timing/config.h"
#include "sim/timing/grid_timeline.h"
#include "sim/timing/occupancy.h"
#include "sim/timing/report.h"
#include "sim/timing/source_lines.h"
#include "sim/timing/trace.h"

namespace warpsim::sim::timing {

class TimingModel final : public GridRunner {
 public:
  // config.run says what to record besides the prediction and whether to sample.
  explicit TimingModel(TimingConfig config);
  // What kernel `entry` needs (from ptxas); without it, 32 registers per thread and the PTX's
  // declared shared memory.
  void setResources(const std::string& entry, KernelResources r);
  void clearResources() { resources_.clear(); }
  // Said in the report of a kernel without ptxas resources (why ptxas gave none).
  void setFallbackNote(std::string note) { fallbackNote_ = std::move(note); }
  LaunchResult run(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories) override;
  // The last host launch's prediction, the grids it launched from the device included; empty
  // when it faulted.
  const std::optional<TimingReport>& lastReport() const { return last_; }
  const TimingConfig& config() const { return config_; }
  // The trace of every launch so far (run.traceFile rewritten after each launch); null without
  // a trace file.
  const TraceRecorder* trace() const { return trace_.get(); }

 private:
  TimingConfig config_;
  TimingRunOptions run_;
  std::unique_ptr<TraceRecorder> trace_;
  std::unique_ptr<SourceLineRecorder> lines_;
  std::map<std::string, KernelResources> resources_;
  std::optional<TimingReport> last_;
  GridTimeline timeline_{config_.deviceLaunchLatency};  // the last host launch's grids
  std::string fallbackNote_;
};

}  // namespace warpsim::sim::timing
