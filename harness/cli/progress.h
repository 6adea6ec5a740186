// A sign of life for long runs: "warpsim: 12/256 CTAs done, 1,234,567 warp-instructions
// (45.6 M/s), ETA 35 s" rewritten in place on stderr while a launch runs. It counts what the
// watchdog counts (warp-instructions issued), through an observer of every CTA.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "kernels/card.h"
#include "sim/observer.h"

namespace warpsim::cli {

// Counts CTAs finished and warp-instructions issued, from every host thread at once. Put it in
// LaunchOptions::observers.
class ProgressMeter final : public sim::ObserverFactory {
 public:
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo& cta) override;
  void merge(sim::Observer&) override {}
  uint64_t ctasDone() const { return ctasDone_.load(std::memory_order_relaxed); }
  uint64_t warpInstructions() const { return warpInsns_.load(std::memory_order_relaxed); }

 private:
  friend class ProgressObserver;
  std::atomic<uint64_t> ctasDone_{0}, warpInsns_{0};
};

// The line for `done` of `total` CTAs and `insns` warp-instructions after `seconds`.
std::string progressText(uint64_t done, uint64_t total, uint64_t insns, double seconds);

// While it lives, redraws the meter's line on `os` every half second, starting after a second
// (a short run prints nothing); erases it when destroyed, before the run's own output.
class ProgressLine {
 public:
  ProgressLine(const ProgressMeter& meter, uint64_t totalCtas, std::ostream& os);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void draw();
  const ProgressMeter& meter_;
  uint64_t total_;
  std::ostream& os_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false, drawn_ = false;
  std::thread thread_;
};

// The CTAs of all the problem's launches: what the line counts up to.
uint64_t totalCtas(const kernels::Problem& p);

// Whether the line is wanted: --progress forces it; else only when stderr is a terminal.
bool progressWanted(bool forced);

}  // namespace warpsim::cli
