// warpsim correlate: the performance model's predicted cycles against Nsight Compute's on the
// H200, from the committed measurements (no GPU needed), with MAPE, Pearson r and the
// design-change pairs; floors make it a CI check.
#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <tuple>

#include <unistd.h>

#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cli/watchdog_options.h"
#include "harness/correlation.h"
#include "harness/json.h"
#include "harness/suite.h"
#include "sim/timing/config.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpsim::cli {

namespace {

constexpr const char* kCorrelateUsage =
    R"(usage: warpsim correlate [PATTERN] [--data FILE] [--max-threads N] [--timing-config FILE]
                         [--timing-sample K] [--min-r R] [--max-mape M] [--min-direction F]
                         [--plot FILE.png] [--launches] [--json] [--budget N]
                         [--time-limit S]

Runs every problem measured on the H200 (--data, default tests/recorded/timing/h200_ncu.tsv:
Nsight Compute's counters per launch, recorded by scripts/device_timing.sh) on the timing model
and compares the predicted cycles with the measured gpc__cycles_elapsed.max, per problem (its
launches summed): the ratio, DRAM bytes and shared-memory wavefronts beside them; then the MAPE
and Pearson r over problems of at least --small-cycles measured cycles (smaller ones are
dominated by launch and drain: listed, not scored), and the design-change pairs (two variants of
a kernel at one size): whether the model ranks them as the chip does, and the speed-up ratio's
error. A pair whose measured difference is within twice the chip's noise is a tie: ranked right
when the model puts it within 10%. The noise (one launch's standard deviation, plus a fraction of
a long launch's cycles) comes from launches measured more than once: --noise FILE, by default
tests/recorded/timing/h200_repeats.tsv where it exists, else the repeated work in --data. DRAM bandwidth and latency are scaled to the SM clock each measurement ran at (its gpc__cycles_elapsed.max over its gpu__time_duration.sum).
--plot draws predicted against measured (log-log) and the pairs (python3 with matplotlib).
--timing-sample K predicts with K waves of CTAs in detail (scripts/sample_error.py compares).
--launches adds each problem's launches: cycles and their ratio, warp-instructions, and the
stall reasons per issued instruction where the chip's or the model's is largest (the JSON: all
of them), to tell which launch of a calibration card a problem's ratio comes from, and why.
Exit status 1 when a floor (--min-r, --max-mape, --min-direction) is not met.
)";

struct Options {
  std::string data, pattern, plot;
  uint64_t maxThreads = 0;
  double smallCycles = 8000;
  sim::timing::TimingConfig config;
  sim::LaunchOptions launch;  // the watchdog's limits (--budget, --time-limit)
};

// One launch's cycles, instructions and stall reasons, the chip's against the model's.
harness::LaunchComparison compareLaunch(const harness::MeasuredLaunch& m,
                                        const sim::timing::TimingReport& t) {
  harness::LaunchComparison l;
  l.launch = m.launch;
  l.kernel = m.kernel;
  l.grid = m.grid;
  l.block = m.block;
  l.measuredCycles = m.metric("gpc__cycles_elapsed.max");
  l.predictedCycles = double(t.cycles);
  l.measuredWarpInstructions = m.metric("smsp__inst_executed.sum");
  l.predictedWarpInstructions = double(t.warpInstructions);
  using sim::timing::Stall;
  for (size_t s = 0; s < size_t(Stall::Count_); ++s) {
    if (Stall(s) == Stall::Selected) continue;  // 1 per issue on both sides
    const std::string reason = sim::timing::stallName(Stall(s));
    l.stalls.push_back(
        {reason,
         m.metric("smsp__average_warps_issue_stalled_" + reason + "_per_issue_active.ratio"),
         t.stallPerIssue(Stall(s))});
  }
  return l;
}

// The problems of the measurements, in file order, with their launches.
using ProblemKey = std::tuple<std::string, uint64_t, uint64_t>;

std::vector<harness::ProblemComparison> compareAll(
    const Options& o, const std::vector<harness::MeasuredLaunch>& launches,
    std::ostream& progress) {
  std::vector<ProblemKey> order;
  std::map<ProblemKey, std::vector<const harness::MeasuredLaunch*>> byProblem;
  for (const auto& m : launches) {
    if (!harness::cardMatches(m.card, o.pattern)) continue;
    if (o.maxThreads && m.threads > o.maxThreads) continue;
    const ProblemKey k{m.card, m.size, m.seed};
    auto& v = byProblem[k];
    if (v.empty()) order.push_back(k);
    v.push_back(&m);
  }
  std::vector<harness::ProblemComparison> out;
  for (const ProblemKey& k : order) {
    const auto& ms = byProblem[k];
    harness::ProblemComparison c;
    std::tie(c.card, c.size, c.seed) = k;
    c.launches = unsigned(ms.size());
    for (const auto* m : ms) {
      c.measuredCycles += m->metric("gpc__cycles_elapsed.max");
      c.measuredClockGhz += m->clockGhz() / double(ms.size());
      c.measuredDramBytes += m->metric("dram__bytes_read.sum") + m->metric("dram__bytes_write.sum");
      c.measuredSharedWavefronts +=
          m->metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") +
          m->metric("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
      c.measuredL2Sectors +=
          m->metric("lts__t_sectors_op_read.sum") + m->metric("lts__t_sectors_op_write.sum") +
          m->metric("lts__t_sectors_op_atom.sum") + m->metric("lts__t_sectors_op_red.sum");
    }
    const kernels::Card* card = kernels::findCard(c.card);
    if (!card) {
      c.error = "no card named '" + c.card + "' in this build";
      out.push_back(c);
      continue;
    }
    // The memory system keeps time in nanoseconds, the SMs in their clock: at the clock the
    // chip ran, a DRAM access takes more or fewer SM cycles and moves fewer or more bytes per
    // SM cycle than at the configured clock.
    sim::timing::TimingConfig cfg = o.config;
    if (c.measuredClockGhz > 0) {
      const double scale = c.measuredClockGhz / cfg.clockGhz;
      cfg.dramLatency = uint32_t(std::lround(cfg.dramLatency * scale));
      cfg.dramBytesPerCycle /= scale;
      cfg.dramBankCycles *= scale;
      cfg.clockGhz = c.measuredClockGhz;
    }
    sim::LaunchOptions lo = o.launch;
    lo.statistics = false;
    const harness::CardResult r = harness::runCardOnSim(*card, c.size, c.seed, lo, &cfg);
    if (r.run.fault) {
      c.error = "kernel fault: " + r.run.fault->message;
    } else if (r.run.timings.size() != ms.size()) {
      c.error = std::to_string(r.run.timings.size()) + " launches predicted, " +
                std::to_string(ms.size()) + " measured";
    } else {
      for (size_t i = 0; i < ms.size(); ++i) {
        const sim::timing::TimingReport& t = r.run.timings[i];
        c.perLaunch.push_back(compareLaunch(*ms[i], t));
        c.predictedCycles += double(t.cycles);
        c.predictedDramBytes += double(t.mem.dramReadBytes + t.mem.dramWriteBytes);
        c.predictedSharedWavefronts +=
            double(t.mem.sharedWavefronts - t.mem.sharedAtomicWavefronts);
        c.predictedL2Sectors +=
            double(t.mem.l2ReadSectors + t.mem.l2WriteSectors + t.mem.l2AtomicSectors);
      }
    }
    progress << "." << std::flush;
    out.push_back(c);
  }
  progress << "\n";
  return out;
}

std::string ratioText(double predicted, double measured) {
  if (measured <= 0) return predicted <= 0 ? "-" : "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", predicted / measured);
  return buf;
}

void printText(const std::vector<harness::ProblemComparison>& problems,
               const std::vector<harness::PairComparison>& pairs,
               const harness::CorrelationSummary& s, const harness::LaunchNoise& noise,
               const std::string& noiseSource, double smallCycles) {
  std::printf("%-22s %9s %3s %11s %11s %6s  %8s %8s  %s\n", "kernel", "size", "n", "measured",
              "predicted", "ratio", "DRAM", "shared", "");
  for (const auto& c : problems) {
    if (!c.error.empty()) {
      std::printf("%-22s %9llu %3u %11.0f %11s  %s\n", c.card.c_str(), (unsigned long long)c.size,
                  c.launches, c.measuredCycles, "-", c.error.c_str());
      continue;
    }
    std::printf("%-22s %9llu %3u %11.0f %11.0f %6.2f  %8s %8s  %s\n", c.card.c_str(),
                (unsigned long long)c.size, c.launches, c.measuredCycles, c.predictedCycles,
                c.ratio(), ratioText(c.predictedDramBytes, c.measuredDramBytes).c_str(),
                ratioText(c.predictedSharedWavefronts, c.measuredSharedWavefronts).c_str(),
                c.measuredCycles < smallCycles ? "(small)" : "");
  }
  std::printf(
      "\n(ratio: predicted / measured cycles; DRAM, shared: predicted / measured bytes and "
      "wavefronts)\n\ndesign-change pairs (speed-up of b over a, in cycles of a / b):\n");
  std::printf("%-20s %-22s %9s %9s %9s  %s\n", "a", "b", "size", "chip", "model", "");
  for (const auto& p : pairs)
    std::printf("%-20s %-22s %9llu %9.2f %9.2f  %s%s\n", p.a.c_str(), p.b.c_str(),
                (unsigned long long)p.size, p.measuredSpeedup, p.predictedSpeedup,
                !p.sameDirection()      ? "WRONG DIRECTION"
                : p.ratioError() > 0.25 ? "off > 25%"
                                        : "ok",
                p.chipTie() ? " (chip: a tie, within twice its noise)" : "");
  std::printf(
      "\n%u problems compared, %u of them under %.0f cycles (not scored)\n"
      "MAPE %.1f%%, Pearson r %.3f (of log cycles %.3f) over the %u scored\n"
      "pairs: %u of %u ranked in the chip's direction, %u within 25%% of its speed-up\n"
      "(%u of the pairs the chip ties: their difference is within twice its noise, one launch's\n"
      "standard deviation %.0f cycles plus %.1f%% of its cycles, from %u groups of %u repeated\n"
      "launches in %s;\n"
      "a tie counts as ranked right when the model puts the pair within 10%%)\n",
      s.problems, s.small, smallCycles, 100 * s.mape, s.pearson, s.pearsonLog, s.problems - s.small,
      s.pairsSameDirection, s.pairs, s.pairsWithin25, s.pairsChipTie, noise.sigmaCycles,
      100 * noise.relative, noise.groups, noise.launches, noiseSource.c_str());
}

// Each problem's launches: cycles, instructions and the three stall reasons largest on either
// side, chip / model.
void printLaunches(const std::vector<harness::ProblemComparison>& problems) {
  for (const auto& c : problems) {
    if (!c.error.empty()) continue;
    std::printf("\nlaunches of %s at %llu (stalls per issued instruction, chip / model):\n",
                c.card.c_str(), (unsigned long long)c.size);
    std::printf("%4s %-24s %-10s %-9s %11s %11s %6s %11s %11s  %s\n", "#", "kernel", "grid",
                "block", "measured", "predicted", "ratio", "insts chip", "model", "stalls");
    for (const auto& l : c.perLaunch) {
      std::vector<harness::LaunchComparison::Stall> top = l.stalls;
      std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
        return std::max(a.measured, a.predicted) > std::max(b.measured, b.predicted);
      });
      std::string stalls;
      for (size_t i = 0; i < top.size() && i < 3; ++i) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%s %.2f / %.2f", i ? ", " : "", top[i].reason.c_str(),
                      top[i].measured, top[i].predicted);
        stalls += buf;
      }
      std::printf("%4llu %-24s %-10s %-9s %11.0f %11.0f %6.2f %11.0f %11.0f  %s\n",
                  (unsigned long long)l.launch, l.kernel.c_str(), l.grid.c_str(), l.block.c_str(),
                  l.measuredCycles, l.predictedCycles, l.ratio(), l.measuredWarpInstructions,
                  l.predictedWarpInstructions, stalls.c_str());
    }
  }
}

void printJson(const std::vector<harness::ProblemComparison>& problems,
               const std::vector<harness::PairComparison>& pairs,
               const harness::CorrelationSummary& s, const harness::LaunchNoise& noise,
               bool launches) {
  harness::Json j;
  j.beginObject().key("problems").beginArray();
  for (const auto& c : problems) {
    j.beginObject()
        .field("card", c.card)
        .field("size", c.size)
        .field("seed", c.seed)
        .field("launches", uint64_t(c.launches))
        .field("measured_cycles", c.measuredCycles)
        .field("predicted_cycles", c.predictedCycles)
        .field("measured_clock_ghz", c.measuredClockGhz)
        .field("measured_dram_bytes", c.measuredDramBytes)
        .field("predicted_dram_bytes", c.predictedDramBytes)
        .field("measured_shared_wavefronts", c.measuredSharedWavefronts)
        .field("predicted_shared_wavefronts", c.predictedSharedWavefronts)
        .field("measured_l2_sectors", c.measuredL2Sectors)
        .field("predicted_l2_sectors", c.predictedL2Sectors);
    if (!c.error.empty()) j.field("error", c.error);
    if (launches) {
      j.key("per_launch").beginArray();
      for (const auto& l : c.perLaunch) {
        j.beginObject()
            .field("launch", l.launch)
            .field("kernel", l.kernel)
            .field("grid", l.grid)
            .field("block", l.block)
            .field("measured_cycles", l.measuredCycles)
            .field("predicted_cycles", l.predictedCycles)
            .field("measured_warp_instructions", l.measuredWarpInstructions)
            .field("predicted_warp_instructions", l.predictedWarpInstructions)
            .key("stalls_per_issue")
            .beginObject();
        for (const auto& st : l.stalls)
          j.key(st.reason)
              .beginObject()
              .field("measured", st.measured)
              .field("predicted", st.predicted)
              .endObject();
        j.endObject().endObject();
      }
      j.endArray();
    }
    j.endObject();
  }
  j.endArray().key("pairs").beginArray();
  for (const auto& p : pairs)
    j.beginObject()
        .field("a", p.a)
        .field("b", p.b)
        .field("size", p.size)
        .field("measured_speedup", p.measuredSpeedup)
        .field("predicted_speedup", p.predictedSpeedup)
        .field("measured_difference_cycles", p.measuredDifference)
        .field("measured_noise_cycles", p.measuredNoise)
        .field("chip_tie", p.chipTie())
        .field("same_direction", p.sameDirection())
        .endObject();
  j.endArray()
      .key("summary")
      .beginObject()
      .field("problems", uint64_t(s.problems))
      .field("small", uint64_t(s.small))
      .field("mape", s.mape)
      .field("pearson", s.pearson)
      .field("pearson_log", s.pearsonLog)
      .field("pairs", uint64_t(s.pairs))
      .field("pairs_same_direction", uint64_t(s.pairsSameDirection))
      .field("pairs_within_25", uint64_t(s.pairsWithin25))
      .field("pairs_chip_tie", uint64_t(s.pairsChipTie))
      .field("launch_noise_cycles", noise.sigmaCycles)
      .field("launch_noise_relative", noise.relative)
      .field("launch_noise_groups", uint64_t(noise.groups))
      .field("launch_noise_launches", uint64_t(noise.launches))
      .endObject()
      .endObject();
  std::cout << j.str() << "\n";
}

// Why --plot cannot draw here ("" when it can): checked before the model runs, so a missing
// tool costs no simulation.
std::string plotUnavailable(const std::string& png) {
  if (png.empty() || png.find('\'') != std::string::npos)
    return "'" + png + "': a file name without single quotes, please";
  if (!std::filesystem::exists("scripts/plot_correlation.py"))
    return "scripts/plot_correlation.py is not in the current directory (run warpsim correlate "
           "from the repository's root, as its default --data expects)";
  if (std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0)
    return "python3 with matplotlib is needed to draw the PNG (Debian: apt-get install "
           "python3-matplotlib; scripts/setup.sh installs it)";
  return "";
}

// Writes the comparisons as CSV and has scripts/plot_correlation.py draw them.
bool plot(const std::vector<harness::ProblemComparison>& problems,
          const std::vector<harness::PairComparison>& pairs, const std::string& png) {
  const std::filesystem::path csv =
      std::filesystem::temp_directory_path() / ("warpsim-correlate-" + std::to_string(::getpid()));
  {
    std::ofstream f(csv.string() + ".problems.csv");
    f << "card,size,measured,predicted\n";
    for (const auto& c : problems)
      if (c.error.empty())
        f << c.card << "," << c.size << "," << c.measuredCycles << "," << c.predictedCycles << "\n";
    std::ofstream g(csv.string() + ".pairs.csv");
    g << "a,b,size,measured,predicted\n";
    for (const auto& p : pairs)
      g << p.a << "," << p.b << "," << p.size << "," << p.measuredSpeedup << ","
        << p.predictedSpeedup << "\n";
  }
  const std::string cmd = "python3 scripts/plot_correlation.py '" + csv.string() +
                          ".problems.csv' '" + csv.string() + ".pairs.csv' '" + png + "'";
  const int rc = std::system(cmd.c_str());
  std::filesystem::remove(csv.string() + ".problems.csv");
  std::filesystem::remove(csv.string() + ".pairs.csv");
  return rc == 0;
}

}  // namespace

int correlateCommand(const std::vector<std::string>& args) {
  po::options_description opts("correlate options");
  opts.add_options()("help,h", "show this help")(
      "pattern", po::value<std::string>()->default_value(""),
      "select cards by name (substrings, comma-separated)")(
      "data", po::value<std::string>()->default_value("tests/recorded/timing/h200_ncu.tsv"),
      "the measurements")("noise", po::value<std::string>(),
                          "repeated launches for the chip's noise (default: "
                          "tests/recorded/timing/h200_repeats.tsv where it exists, else --data)")(
      "max-threads", po::value<uint64_t>()->default_value(0),
      "only problems of at most this many threads (0 = all)")(
      "small-cycles", po::value<double>()->default_value(8000),
      "problems measured under this many cycles are listed, not scored")(
      "timing-config", po::value<std::string>(), "a timing configuration over the defaults")(
      "timing-sample", po::value<uint64_t>(),
      "simulate K waves of CTAs in detail and extrapolate (the error it adds: docs/FIDELITY.md)")(
      "min-r", po::value<double>(), "fail when Pearson r is below this")(
      "max-mape", po::value<double>(), "fail when the MAPE (a fraction) is above this")(
      "min-direction", po::value<double>(),
      "fail when fewer than this fraction of the pairs are ranked in the chip's direction")(
      "plot", po::value<std::string>(), "draw predicted vs measured into this PNG")(
      "launches", "each problem's launches too: cycles, instructions, stall reasons")(
      "json", "machine-readable output");
  addWatchdogOptions(opts);
  po::positional_options_description pos;
  pos.add("pattern", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kCorrelateUsage, "correlate")) return kUsage;
  if (vm.count("help")) {
    std::cout << kCorrelateUsage << "\n" << opts;
    return kOk;
  }
  Options o;
  o.data = vm["data"].as<std::string>();
  o.pattern = vm["pattern"].as<std::string>();
  o.maxThreads = vm["max-threads"].as<uint64_t>();
  o.smallCycles = vm["small-cycles"].as<double>();
  if (vm.count("plot"))
    if (const std::string why = plotUnavailable(vm["plot"].as<std::string>()); !why.empty()) {
      std::cerr << "warpsim correlate: --plot: " << why << "\n";
      return kUsage;
    }
  std::vector<harness::ProblemComparison> problems;
  harness::LaunchNoise noise;
  std::string noiseSource;
  try {
    applyWatchdogOptions(vm, o.launch);
    applyHeapOption(vm, o.launch);
    if (vm.count("timing-config"))
      o.config = sim::timing::loadTimingConfig(vm["timing-config"].as<std::string>());
    if (vm.count("timing-sample")) {
      o.config.run.sampleWaves = vm["timing-sample"].as<uint64_t>();
      if (o.config.run.sampleWaves == 0)
        throw std::invalid_argument("--timing-sample: must be at least 1");
    }
    const auto launches = harness::readMeasurements(o.data);
    // The chip's noise from the repeat runs, else from every launch in the data, whatever the
    // selection: a property of the measurements, not of the problems compared.
    constexpr const char* kRepeats = "tests/recorded/timing/h200_repeats.tsv";
    noiseSource = vm.count("noise")      ? vm["noise"].as<std::string>()
                  : fs::exists(kRepeats) ? std::string(kRepeats)
                                         : o.data;
    noise = harness::launchNoise(noiseSource == o.data ? launches
                                                       : harness::readMeasurements(noiseSource));
    problems = compareAll(o, launches, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "warpsim correlate: " << e.what() << "\n";
    return kUsage;
  }
  if (problems.empty()) {
    std::cerr << "warpsim correlate: no measured problem matches\n";
    return kUsage;
  }
  const auto pairs = harness::comparePairs(problems, noise);
  const harness::CorrelationSummary s = harness::summarize(problems, pairs, o.smallCycles);
  if (vm.count("json")) {
    printJson(problems, pairs, s, noise, vm.count("launches") != 0);
  } else {
    printText(problems, pairs, s, noise, noiseSource, o.smallCycles);
    if (vm.count("launches")) printLaunches(problems);
  }
  if (vm.count("plot") && !plot(problems, pairs, vm["plot"].as<std::string>())) {
    std::cerr << "warpsim correlate: --plot: scripts/plot_correlation.py could not write "
              << vm["plot"].as<std::string>() << "\n";
    return kUsage;
  }
  int rc = kOk;
  for (const harness::ProblemComparison& c : problems)
    if (!c.error.empty()) {
      std::cerr << "warpsim correlate: " << c.card << " size " << c.size << ": " << c.error << "\n";
      rc = kFailed;
    }
  if (vm.count("min-r") && s.pearson < vm["min-r"].as<double>()) {
    std::cerr << "warpsim correlate: Pearson r " << s.pearson << " is below the floor "
              << vm["min-r"].as<double>() << "\n";
    rc = kFailed;
  }
  if (vm.count("max-mape") && s.mape > vm["max-mape"].as<double>()) {
    std::cerr << "warpsim correlate: MAPE " << s.mape << " is above the ceiling "
              << vm["max-mape"].as<double>() << "\n";
    rc = kFailed;
  }
  if (vm.count("min-direction") && s.pairs &&
      double(s.pairsSameDirection) / s.pairs < vm["min-direction"].as<double>()) {
    std::cerr << "warpsim correlate: " << s.pairsSameDirection << " of " << s.pairs
              << " pairs in the chip's direction, below the floor\n";
    rc = kFailed;
  }
  return rc;
}

}  // namespace warpsim::cli
