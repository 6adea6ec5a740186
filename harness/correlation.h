// The performance model against the chip: measurements recorded with Nsight Compute on the
// H200 (tests/recorded/timing/*.tsv, made by scripts/device_timing.sh and scripts/ncu_join.py)
// read back, each problem re-run on the timing model, and the agreement summarised the way
// Accel-Sim reports it (MAPE, Pearson r) plus the design-change pairs a kernel engineer ranks.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpsim::harness {

// One measured launch: the manifest's columns and ncu's metrics by name.
struct MeasuredLaunch {
  std::string card, kernel;
  std::string grid, block, shared;  // the launch's geometry as recorded
  uint64_t size = 0, seed = 0, launch = 0;
  uint64_t threads = 0;                          // of the whole problem
  std::map<std::string, double> metrics;         // ncu name -> value (absent when ncu gave none)
  double metric(const std::string& name) const;  // 0 when absent
  // The SM clock the launch ran at, GHz: its gpc__cycles_elapsed.max over its
  // gpu__time_duration.sum (ns), the two figures the model is compared on. ncu's
  // sm__cycles_elapsed.avg.per_second (the fallback where the duration is absent) averages the
  // SMs' elapsed cycles over a sampled time and scatters for short launches: 1.75-2.61 GHz over
  // h200_ncu.tsv's launches under 10,000 cycles, where cycles over duration read 1.92-1.98
  // (the chip's 1.98 GHz, less the launch's few dozen ns outside its cycles); over 50,000
  // cycles both read 1.98.
  double clockGhz() const;
};

// Reads a table written by scripts/ncu_join.py. Throws std::runtime_error naming the file and
// line on malformed input.
std::vector<MeasuredLaunch> readMeasurements(const std::string& path);

// One launch of a problem, measured and predicted (`warpsim correlate --launches`): which of a
// problem's launches its ratio comes from, and why, by the warp stall reasons.
struct LaunchComparison {
  uint64_t launch = 0;  // its index in the problem
  std::string kernel, grid, block;
  double measuredCycles = 0, predictedCycles = 0;
  double measuredWarpInstructions = 0, predictedWarpInstructions = 0;  // SASS, issued
  // Warp-cycles per issued instruction in each stall reason the model has (ncu's names without
  // the prefix: "long_scoreboard"), the chip's and the model's, in the model's order.
  struct Stall {
    std::string reason;
    double measured = 0, predicted = 0;
  };
  std::vector<Stall> stalls;
  double ratio() const { return measuredCycles > 0 ? predictedCycles / measuredCycles : 0; }
};

// A problem (card, size, seed): its launches measured and predicted, summed.
struct ProblemComparison {
  std::string card;
  uint64_t size = 0, seed = 0;
  unsigned launches = 0;
  double measuredCycles = 0, predictedCycles = 0;  // gpc__cycles_elapsed.max, summed
  double measuredClockGhz = 0;                     // MeasuredLaunch::clockGhz, mean
  double measuredDramBytes = 0, predictedDramBytes = 0;
  double measuredSharedWavefronts = 0, predictedSharedWavefronts = 0;
  double measuredL2Sectors = 0, predictedL2Sectors = 0;
  std::string error;  // the simulator's fault or failure, when it could not predict
  std::vector<LaunchComparison> perLaunch;  // in launch order (empty after an error)
  double ratio() const { return measuredCycles > 0 ? predictedCycles / measuredCycles : 0; }
};

// The chip's run-to-run noise in one launch's gpc__cycles_elapsed.max, from launches measured
// more than once: launches of one kernel with the same geometry doing the same work by the
// counters (the same SASS instructions, global load and store sectors and shared wavefronts, L2
// read sectors within 5%): tests/recorded/timing/h200_repeats.tsv's repeat runs, or in
// h200_ncu.tsv bitonic_global's steps, scan_add_offsets in both scans and the like. Groups
// whose mean is under `longCycles` give an additive sigma, pooled (the launch overhead outside
// the SMs' active time carries most of it); longer ones, what they scatter beyond it, as a
// fraction of their cycles (the SM clock moves during a long launch). docs/FIDELITY.md.
struct LaunchNoise {
  double sigmaCycles = 0;
  double relative = 0;                // of a launch's cycles, from the long groups
  unsigned groups = 0, launches = 0;  // repeat groups found, launches in them
  unsigned longGroups = 0;            // of them, those that gave `relative`
  // The standard deviation of a problem of `launches` launches and `cycles` cycles in all.
  double of(unsigned launchCount, double cycles) const;
};
constexpr double kLongLaunchCycles = 20000;
LaunchNoise launchNoise(const std::vector<MeasuredLaunch>& launches,
                        double longCycles = kLongLaunchCycles);

// A design change: variant `b` against `a` on the same problem size.
struct PairComparison {
  std::string a, b;
  uint64_t size = 0;
  double measuredSpeedup = 0, predictedSpeedup = 0;  // cycles of a / cycles of b
  double measuredDifference = 0;                     // cycles of a - cycles of b, on the chip
  double measuredNoise = 0;  // the standard deviation of that difference (LaunchNoise::of)
  // The chip's difference is within twice its noise: the data does not say which variant is
  // faster, so the pair counts as ranked right when the model too puts them within 10%.
  bool chipTie() const;
  bool sameDirection() const;
  double ratioError() const;  // |predicted / measured - 1|
};

// The design-change pairs of the suite: variants of one kernel that the chip ranks.
const std::vector<std::pair<std::string, std::string>>& designPairs();

struct CorrelationSummary {
  unsigned problems = 0, small = 0;  // compared; of those, under the small-kernel threshold
  double mape = 0;                   // over problems at or above the threshold
  double pearson = 0, pearsonLog = 0;
  unsigned pairs = 0, pairsSameDirection = 0, pairsWithin25 = 0;
  unsigned pairsChipTie = 0;  // of the pairs, those whose chip difference is within its noise
};

// MAPE and Pearson r over problems whose measured cycles are at least `smallCycles` (kernels
// below are dominated by launch and drain: reported, not scored; TIMING.md section 4), and
// the pairs.
CorrelationSummary summarize(const std::vector<ProblemComparison>& problems,
                             const std::vector<PairComparison>& pairs, double smallCycles);

// The pairs present in `problems`; `noise` (of one launch) decides which the chip leaves tied.
std::vector<PairComparison> comparePairs(const std::vector<ProblemComparison>& problems,
                                         const LaunchNoise& noise = {});

}  // namespace warpsim::harness
