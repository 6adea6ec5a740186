// warpsim suite [PATTERN]: every suite kernel (or those whose name contains PATTERN) through
// the simulator, checked against its CPU reference.
#include <boost/program_options.hpp>

#include <cstdio>
#include <iostream>

#include "harness/arg_spec.h"
#include "harness/check_report.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cli/lowering_options.h"
#include "harness/cli/timing_options.h"
#include "harness/cli/watchdog_options.h"
#include "harness/json.h"
#include "harness/report.h"
#include "harness/schedule_report.h"
#include "harness/suite.h"
#include "harness/timing_report.h"
#include "isa/diagnostic.h"
#include "sim/check/session.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kSuiteUsage =
    R"(usage: warpsim suite [PATTERN] [--size N] [--seed S] [--list] [--json]
                     [--timing] [--timing-config FILE] [--print-timing-config]
                     [--trace FILE [--trace-limit N]] [--source-lines N] [--timing-sample K]
                     [--check [--tool memcheck|racecheck|initcheck|synccheck|all]]
                     [--schedules N]

Runs the kernel suite (the cards whose name contains PATTERN; all when omitted) in the simulator
and checks every output against the CPU reference, bit for bit unless the card declares a ULP
tolerance for a PTX .approx operation. Prints kernel, threads, warp-instructions, SIMD
efficiency, shared-memory bank-conflict wavefronts, global sectors per request and the result.
With --timing, also the predicted H200 cycles (all launches of the card), IPC, achieved
occupancy and what bounds the kernel; --json adds every launch's prediction with ncu's names.
--check runs every card under the correctness checkers too (warpsim check --help; all tools
unless --tool names one) and prints what they find; a finding fails the card.
--schedules N runs every card under N schedules (the first in the fixed order, the others drawn
from --seed; warpsim check --help) and fails a card whose bytes differ between two of them.

Exit status: 0 all passed, 1 a kernel failed or faulted, 2 usage.
)";

std::string resultText(const harness::CardResult& r) {
  if (r.run.fault) return "FAULT";
  if (!r.comparison.ok()) return "FAIL (" + std::to_string(r.comparison.mismatches) + " wrong)";
  if (r.comparison.maxUlp) return "ok (" + std::to_string(r.comparison.maxUlp) + " ulp)";
  return "ok";
}

// "" when every schedule gives the bytes of `base` (run in the fixed order), else the first
// difference and the schedule that makes it.
std::string scheduleDifference(const kernels::Card& card, const harness::CardResult& base,
                               const sim::LaunchOptions& lo, uint64_t schedules, uint64_t seed) {
  std::vector<harness::ScheduleOutcome> runs(1);
  runs[0].buffers = base.run.buffers;
  for (uint64_t i = 1; i < schedules; ++i) {
    sim::LaunchOptions so = lo;
    so.schedule = sim::SchedulePolicy{sim::scheduleSeed(seed, i)};
    harness::ScheduleOutcome o;
    o.seed = so.schedule->seed;
    const harness::CardResult r = harness::runCardOnSim(card, base.size, base.seed, so);
    o.buffers = r.run.buffers;
    o.fault = r.run.fault;
    runs.push_back(std::move(o));
  }
  runs[0].fault = base.run.fault;
  const auto diffs = harness::compareSchedules(runs);
  if (diffs.empty()) return "";
  const harness::ScheduleDifference& d = diffs[0];
  if (d.kind != harness::ScheduleDifference::Kind::Output)
    return "schedule seed " + std::to_string(d.seedB) + ": " + d.what;
  return "output depends on the schedule: " + d.buffer + " byte " + std::to_string(d.offset) +
         " is " + d.valueA + " in the fixed order, " + d.valueB + " under schedule seed " +
         std::to_string(d.seedB);
}

}  // namespace

int suiteCommand(const std::vector<std::string>& args) {
  po::options_description opts("suite options");
  opts.add_options()("help,h", "show this help")(
      "pattern", po::value<std::string>()->default_value(""),
      "select cards by name (substrings, comma-separated)")(
      "size", po::value<uint64_t>()->default_value(0), "problem size (0 = each card's default)")(
      "seed", po::value<uint64_t>()->default_value(1), "input generator seed")(
      "list", "list the cards and what each demonstrates")("json", "machine-readable output")(
      "threads", po::value<unsigned>()->default_value(0), "host threads (0 = all cores)")(
      "serial", "run CTAs one at a time, in order")("check",
                                                    "run the correctness checkers on every card")(
      "tool", po::value<std::string>()->default_value("all"), "with --check: which checker")(
      "schedules", po::value<uint64_t>()->default_value(1),
      "run every card under N schedules and compare their bytes");
  addWatchdogOptions(opts);
  addLoweringOptions(opts);
  addTimingOptions(opts);
  po::positional_options_description pos;
  pos.add("pattern", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kSuiteUsage, "suite")) return kUsage;
  if (vm.count("help")) {
    std::cout << kSuiteUsage << "\n" << opts;
    return kOk;
  }
  const auto cards = harness::selectCards(vm["pattern"].as<std::string>());
  if (cards.empty()) {
    std::cerr << "warpsim suite: no card matches '" << vm["pattern"].as<std::string>() << "'\n";
    return kUsage;
  }
  for (const kernels::Card* c : cards)
    if (const std::string why = harness::cardSizeError(*c, vm["size"].as<uint64_t>());
        !why.empty()) {
      std::cerr << "warpsim suite: --size: " << why << "\n";
      return kUsage;
    }
  if (vm.count("list")) {
    for (const kernels::Card* c : cards)
      std::printf("%-22s %-12s %s\n", c->name.c_str(), c->family.c_str(), c->demonstrates.c_str());
    return kOk;
  }
  const bool json = vm.count("json") > 0;
  sim::LaunchOptions lo;
  std::optional<sim::timing::TimingConfig> timing;
  try {
    lo.threads = hostThreads(vm);
    applyWatchdogOptions(vm, lo);
    applyLoweringOptions(vm, lo);
    timing = timingFrom(vm);
  } catch (const harness::ArgError& e) {
    std::cerr << "warpsim suite: " << e.what() << "\n";
    return kUsage;
  }
  lo.serial = vm.count("serial") > 0;
  const uint64_t schedules = vm["schedules"].as<uint64_t>();
  if (schedules == 0 || schedules > 10000) {
    std::cerr << "warpsim suite: --schedules " << schedules << ": expected 1 to 10000\n";
    return kUsage;
  }
  if (schedules > 1) lo.serial = true;  // the fixed order is one order: CTAs in index order
  if (timing && !timing->run.traceFile.empty() && cards.size() != 1) {
    std::cerr << "warpsim suite: --trace: the pattern selects " << cards.size()
              << " cards; a trace holds one (name one card)\n";
    return kUsage;
  }
  if (timing && printTimingConfig(vm) && !json)
    std::cout << "timing configuration:\n" << sim::timing::formatTimingConfig(*timing);
  const bool checking = vm.count("check") > 0;
  const auto tools = check::ToolSet::parse(vm["tool"].as<std::string>());
  if (!tools) {
    std::cerr << "warpsim suite: --tool '" << vm["tool"].as<std::string>()
              << "': expected memcheck, racecheck, initcheck, synccheck or all\n";
    return kUsage;
  }
  harness::SourceLines sources;
  harness::Json j;
  j.beginObject().key("kernels").beginArray();
  if (!json) {
    std::printf("%-22s %10s %12s %7s %10s %9s", "kernel", "threads", "warp-insns", "SIMD",
                "conflicts", "sect/req");
    if (timing) std::printf(" %11s %6s %6s %-8s", "cycles", "IPC", "occ", "bound");
    std::printf("  %s\n", "result");
  }
  bool allPassed = true;
  for (const kernels::Card* c : cards) {
    harness::CardResult r;
    std::string scheduleText;  // with --schedules: what depends on the schedule
    check::CheckSession session(*tools);
    sim::LaunchOptions cardOptions = lo;
    if (checking) {
      cardOptions.observers = session.factories();
      cardOptions.recoverInvalidAccess = true;
    }
    try {
      r = harness::runCardOnSim(*c, vm["size"].as<uint64_t>(), vm["seed"].as<uint64_t>(),
                                cardOptions, timing ? &*timing : nullptr,
                                [&] { session.finish(); });  // before the module goes
      if (schedules > 1)
        scheduleText = scheduleDifference(*c, r, lo, schedules, vm["seed"].as<uint64_t>());
    } catch (const std::exception& e) {
      std::cerr << "warpsim suite: " << c->name << ": " << e.what() << "\n";
      allPassed = false;
      continue;
    }
    const uint64_t checkErrors = checking ? harness::totalErrors(session) : 0;
    allPassed = allPassed && r.passed() && checkErrors == 0 && scheduleText.empty();
    const sim::Stats& s = r.run.stats;
    if (timing) noteTrace(*timing, r.run.timings, std::cerr);
    sim::timing::TimingReport sourceLinesTotal;
    if (json) {
      j.beginObject().field("kernel", c->name).field("size", r.size).field("seed", r.seed);
      j.field("passed", r.passed()).field("threads", r.threads);
      j.field("compared", r.comparison.compared).field("mismatches", r.comparison.mismatches);
      j.field("max_ulp", r.comparison.maxUlp).field("seconds", r.run.seconds);
      j.key("stats");
      harness::statsJson(j, s);
      if (timing) {
        j.key("timing").beginArray();
        for (const auto& t : r.run.timings) harness::timingJson(j, t);
        j.endArray();
      }
      if (r.run.fault) {
        j.key("fault");
        harness::faultJson(j, *r.run.fault, c->source + ".ptx");
      }
      if (checking) {
        j.field("check_errors", checkErrors).key("check");
        harness::findingsJson(j, session, 100, sources);
      }
      if (schedules > 1) j.field("schedules_agree", scheduleText.empty());
      if (!scheduleText.empty()) j.field("schedule_difference", scheduleText);
      j.endObject();
    } else {
      std::printf("%-22s %10llu %12llu %6.1f%% %10llu %9.2f", c->name.c_str(),
                  (unsigned long long)r.threads, (unsigned long long)s.totalWarpInsns(),
                  100.0 * s.simdEfficiency(), (unsigned long long)s.bankConflicts(),
                  s.sectorsPerRequest());
      if (timing) {
        sim::timing::TimingReport total;
        for (const auto& t : r.run.timings) sim::timing::accumulate(total, t);
        std::printf(" %11llu %6.2f %5.1f%% %-8s", (unsigned long long)total.cycles, total.ipc(),
                    100 * total.achievedOccupancy, total.bound().c_str());
        sourceLinesTotal = std::move(total);
      }
      std::printf("  %s\n",
                  (resultText(r) +
                   (!checking          ? ""
                    : checkErrors == 0 ? ", check clean"
                                       : ", check: " + std::to_string(checkErrors) + " errors") +
                   (schedules < 2          ? ""
                    : scheduleText.empty() ? ", " + std::to_string(schedules) + " schedules agree"
                                           : ", SCHEDULE-DEPENDENT"))
                      .c_str());
      if (!scheduleText.empty()) std::printf("    %s\n", scheduleText.c_str());
      if (checkErrors) std::printf("%s", harness::formatFindings(session, 10, sources).c_str());
      if (sourceLinesShown(vm) && !sourceLinesTotal.sourceLines.empty()) {
        // The report's own source-line block, for the card's launches together.
        const std::string text = harness::formatTiming(sourceLinesTotal, sourceLinesShown(vm));
        std::printf("%s", text.substr(text.find("  source lines")).c_str());
      }
      if (r.run.fault) std::printf("    %s\n", r.run.fault->describe(c->source + ".ptx").c_str());
      for (const auto& m : r.comparison.first)
        std::printf("    %s\n", harness::formatMismatch(r.run.buffers, m).c_str());
    }
  }
  j.endArray().field("passed", allPassed);
  if (timing) {
    j.key("timing_config");
    harness::timingConfigJson(j, *timing);
  }
  j.endObject();
  if (json) std::cout << j.str() << "\n";
  return allPassed ? kOk : kFailed;
}

}  // namespace warpsim::cli
