// What `warpsim exec` tells about a whole program under --timing, --check and --json: a line
// per launch on stderr as the program runs, and at its exit the totals per kernel (stderr), the
// checkers' compute-sanitizer style report (stdout, as `warpsim check` prints it) and the JSON
// file of every launch.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/session.h"
#include "sim/func/launch.h"
#include "sim/timing/report.h"

namespace warpsim::driver {

struct LaunchRecord {
  uint64_t index = 0;  // 1 for the program's first launch
  std::string kernel;  // demangled
  sim::Dim3 grid, block;
  unsigned shared = 0;
  bool faulted = false;
  std::optional<sim::timing::TimingReport> timing;      // under --timing, when it completed
  std::array<size_t, check::kToolCount> newFindings{};  // under --check: sites it added per tool
};

class ProgramReport {
 public:
  // `timing`, `checking`: which lines a launch gets; `fullTiming`: the whole timing report of
  // each launch too (--report); `jsonFile`: where finish() writes the JSON ("" = none).
  ProgramReport(bool timing, bool checking, bool fullTiming, std::string jsonFile);
  // Prints the launch's line(s) and keeps what the totals (and the JSON) need.
  void add(LaunchRecord r);
  // The device's timeline under --timing: the predictions of the launches so far, end to end.
  double modelSeconds() const { return modelSeconds_; }
  // The totals, the checkers' report (`checks` finished first) and the JSON file.
  void finish(const std::string& timingConfigName, check::CheckSession* checks,
              uint64_t printLimit);

 private:
  struct KernelTotals {
    uint64_t launches = 0, cycles = 0;
    double seconds = 0;
  };
  void writeJson(const std::string& timingConfigName, check::CheckSession* checks,
                 uint64_t printLimit) const;

  bool timing_, checking_, fullTiming_;
  std::string jsonFile_;
  uint64_t launches_ = 0, modelCycles_ = 0;
  double modelSeconds_ = 0;
  std::map<std::string, KernelTotals> kernels_;  // by demangled name
  std::vector<LaunchRecord> records_;            // kept for the JSON only
};

}  // namespace warpsim::driver
