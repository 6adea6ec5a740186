// warpsim check --tool memcheck|racecheck|initcheck|synccheck|all FILE.cu|FILE.ptx ...: the
// kernel run under the checkers (sim/check/), reported as compute-sanitizer reports.
#include <boost/program_options.hpp>

#include <iostream>
#include <memory>

#include "harness/arg_spec.h"
#include "harness/backend.h"
#include "harness/check_report.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cli/kernel_job.h"
#include "harness/cli/progress.h"
#include "harness/cli/watchdog_options.h"
#include "harness/json.h"
#include "harness/nvcc.h"
#include "harness/report.h"
#include "harness/run_problem.h"
#include "harness/schedule_report.h"
#include "isa/diagnostic.h"
#include "sim/check/last_writer.h"
#include "sim/check/session.h"
#include "sim/gpu.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kCheckUsage =
    R"(usage: warpsim check [--tool memcheck|racecheck|initcheck|synccheck|all]
                     FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]
                     [--shared BYTES] [--arg SPEC]... [--json] [--print-limit N]
                     [--threads N] [--serial] [--budget N] [--device-memory BYTES] [--progress]
                     [--schedules N [--seed S] | --schedule-seed X]
                     [--malloc-heap-size BYTES]
                     [--nvcc-flag F]... [--keep-ptx DIR] [-- NVCC_FLAGS...]

Runs one kernel in the simulator under correctness checkers (default: all of them):
  memcheck   every invalid access (out of bounds, misaligned; shared memory outside the
             kernel's own static and dynamic bytes), trap and assert; device malloc/free:
             heap overflow, use after free, double and invalid free, leaks at the end
  racecheck  shared-memory hazards between threads not ordered by a barrier (or, within a
             warp, by __syncwarp), global-memory hazards between CTAs
  initcheck  reads of never-written shared, local and global bytes (a buffer given without
             INIT, e.g. y=f32[256], counts as uninitialized; y=f32[256]:zeros does not)
  synccheck  divergent barriers, warp primitives whose member mask does not match the lanes
             that execute them, deadlocks
Each finding names the PTX line, the CUDA line (from .loc) and its source text; findings are
de-duplicated by site with a count.
Schedule exploration: --schedules N runs the kernel under N schedules (the first the fixed
order, the others drawn from --seed: CTA order, warp order and slices, which side of a
divergent branch runs first, the order warps resume after a barrier) and reports every buffer
whose bytes, and every finding or fault, that depends on the schedule, with the two schedule
seeds and the command that reproduces each (--schedule-seed X runs one schedule; 0 is the fixed
order).
Exit status: 0 no error, 1 a checker found an error, the output depends on the schedule or the
kernel faulted, 2 bad input or usage.
)";

// The sim backend, with the buffers that the host does not initialize told to initcheck:
// runProblem allocates the problem's buffers in order, first of all.
class TrackingBackend final : public harness::Backend {
 public:
  TrackingBackend(harness::Backend& inner, std::vector<bool> initialized,
                  check::CheckSession& session)
      : inner_(inner), initialized_(std::move(initialized)), session_(session) {}
  std::string name() const override { return inner_.name(); }
  void loadModule(const std::string& ptx, const std::string& path) override {
    inner_.loadModule(ptx, path);
  }
  uint64_t allocate(uint64_t bytes, const std::string& label) override {
    const uint64_t a = inner_.allocate(bytes, label);
    if (next_ < initialized_.size() && !initialized_[next_]) session_.trackUninitialized(a, bytes);
    ++next_;
    return a;
  }
  void free(uint64_t address) override { inner_.free(address); }
  void copyIn(uint64_t dst, const void* src, uint64_t bytes) override {
    inner_.copyIn(dst, src, bytes);
  }
  void copyOut(void* dst, uint64_t src, uint64_t bytes) override {
    inner_.copyOut(dst, src, bytes);
  }
  harness::LaunchOutcome launch(const harness::LaunchSpec& spec) override {
    return inner_.launch(spec);
  }

 private:
  harness::Backend& inner_;
  std::vector<bool> initialized_;
  check::CheckSession& session_;
  size_t next_ = 0;
};

// Whether a selected tool reports this fault itself.
bool reportedByTool(const sim::FaultInfo& f, const check::ToolSet& tools) {
  switch (f.kind) {
    case sim::FaultKind::Trap:
    case sim::FaultKind::Assertion:
      return tools.has(check::Tool::Memcheck);
    case sim::FaultKind::BarrierDeadlock:
    case sim::FaultKind::WarpSync:
      return tools.has(check::Tool::Synccheck);
    default:
      return false;
  }
}

// The command line a user types to run this check again, without the schedule options (the
// reproduction appends --schedule-seed X). Words with characters a shell treats specially are
// single-quoted.
std::string commandWithoutSchedules(const std::vector<std::string>& args) {
  std::string out = "warpsim check";
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool skip = false;
    for (const char* o : {"--schedules", "--seed", "--schedule-seed"}) {
      if (a == o) {
        skip = true;
        ++i;  // and its value
      } else if (a.rfind(std::string(o) + "=", 0) == 0) {
        skip = true;
      }
    }
    if (skip) continue;
    const bool plain = a.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                           "0123456789_./=:,+-@%") == std::string::npos &&
                       !a.empty();
    out += " " + (plain ? a : "'" + a + "'");
  }
  return out;
}

// One run of the problem under the checkers, in one schedule (seed 0: the fixed order).
struct CheckedRun {
  std::unique_ptr<check::CheckSession> session;
  harness::ProblemRun run;
};

CheckedRun runChecked(const KernelJob& job, const check::ToolSet& tools,
                      const sim::LaunchOptions& base, uint64_t scheduleSeed, bool progress) {
  CheckedRun out;
  out.session = std::make_unique<check::CheckSession>(tools);
  sim::LaunchOptions lo = base;
  lo.observers = out.session->factories();
  if (scheduleSeed) lo.schedule = sim::SchedulePolicy{scheduleSeed};
  ProgressMeter meter;
  if (progress) lo.observers.push_back(&meter);
  auto simBackend = harness::makeSimBackend(lo, job.deviceMemory);
  TrackingBackend backend(*simBackend, job.bufferInitialized, *out.session);
  backend.loadModule(job.ptx, job.path);
  std::optional<ProgressLine> line;
  if (progress) line.emplace(meter, totalCtas(job.problem), std::cerr);
  out.run = harness::runProblem(backend, job.problem);
  line.reset();
  out.session->finish();
  return out;
}

// Who wrote global byte `address` last under schedule `seed`: the problem run again without the
// checkers, watching that byte.
std::optional<check::Actor> lastWriter(const KernelJob& job, const sim::LaunchOptions& base,
                                       uint64_t seed, uint64_t address) {
  check::LastWriter watch({address});
  sim::LaunchOptions lo = base;
  lo.observers = {&watch};
  if (seed) lo.schedule = sim::SchedulePolicy{seed};
  auto backend = harness::makeSimBackend(lo, job.deviceMemory);
  backend->loadModule(job.ptx, job.path);
  harness::runProblem(*backend, job.problem);
  return watch.writer(0);
}

}  // namespace

int checkCommand(const std::vector<std::string>& args) {
  po::options_description opts("check options");
  opts.add_options()("help,h", "show this help")(
      "tool,t", po::value<std::string>()->default_value("all"),
      "memcheck, racecheck, initcheck, synccheck or all");
  addKernelJobOptions(opts);
  addHeapOption(opts);
  opts.add_options()("json", "machine-readable output")("print-limit",
                                                        po::value<uint64_t>()->default_value(100),
                                                        "findings printed per tool (0 = all)")(
      "threads", po::value<unsigned>()->default_value(0), "host threads (0 = all cores)")(
      "serial", "run CTAs one at a time, in order")(
      "progress", "show the progress line on stderr even when it is not a terminal")(
      "budget", po::value<uint64_t>(),
      "warp-instruction budget before the watchdog stops the kernel")(
      "schedules", po::value<uint64_t>()->default_value(1),
      "run under N schedules and compare outputs and findings")(
      "seed", po::value<uint64_t>()->default_value(1), "the seed the schedules are drawn from")(
      "schedule-seed", po::value<uint64_t>()->default_value(0),
      "run under this one schedule (0: the fixed order)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kCheckUsage, "check")) return kUsage;
  if (vm.count("help")) {
    std::cout << kCheckUsage << "\n" << kArgLanguageHelp << "\n" << kNvccFlagsHelp << "\n" << opts;
    return kOk;
  }
  const auto tools = check::ToolSet::parse(vm["tool"].as<std::string>());
  if (!tools) {
    std::cerr << "warpsim check: --tool '" << vm["tool"].as<std::string>()
              << "': expected memcheck, racecheck, initcheck, synccheck or all\n";
    return kUsage;
  }
  const bool json = vm.count("json") > 0;
  const uint64_t printLimit = vm["print-limit"].as<uint64_t>();
  const uint64_t schedules = vm["schedules"].as<uint64_t>();
  const uint64_t explorationSeed = vm["seed"].as<uint64_t>();
  const uint64_t scheduleSeed = vm["schedule-seed"].as<uint64_t>();
  if (schedules == 0 || schedules > 10000) {
    std::cerr << "warpsim check: --schedules " << schedules << ": expected 1 to 10000\n";
    return kUsage;
  }
  if (schedules > 1 && !vm["schedule-seed"].defaulted()) {
    std::cerr << "warpsim check: --schedule-seed runs one schedule; it does not go with "
                 "--schedules "
              << schedules << "\n";
    return kUsage;
  }
  try {
    KernelJob job = kernelJobFrom(vm, "check");
    sim::LaunchOptions lo;
    lo.threads = hostThreads(vm);
    lo.serial = vm.count("serial") > 0;
    if (vm.count("budget")) lo.instructionBudget = vm["budget"].as<uint64_t>();
    lo.statistics = false;
    lo.recoverInvalidAccess = true;
    // Schedules compare against the fixed order, which must be one order too: CTAs one at a
    // time, in index order (in parallel, CTAs that race would finish in the host's order).
    if (schedules > 1 || scheduleSeed) lo.serial = true;
    applyHeapOption(vm, lo);
    const bool progress = progressWanted(vm.count("progress") > 0);
    // The first schedule is reported in full; the others are compared with it.
    CheckedRun first = runChecked(job, *tools, lo, scheduleSeed, progress);
    const check::CheckSession& session = *first.session;
    const harness::ProblemRun& run = first.run;
    std::vector<harness::ScheduleDifference> diffs;
    const std::string command = commandWithoutSchedules(args);
    if (schedules > 1) {
      std::vector<harness::ScheduleOutcome> outcomes;
      auto outcomeOf = [&](CheckedRun& c, uint64_t seed) {
        harness::ScheduleOutcome o;
        o.seed = seed;
        o.buffers = c.run.buffers;
        for (unsigned t = 0; t < check::kToolCount; ++t)
          if (tools->has(check::Tool(t))) {
            const auto& f = c.session->findings(check::Tool(t));
            o.findings.insert(o.findings.end(), f.begin(), f.end());
          }
        o.fault = c.run.fault;
        return o;
      };
      outcomes.push_back(outcomeOf(first, 0));
      for (uint64_t i = 1; i < schedules; ++i) {
        const uint64_t seed = sim::scheduleSeed(explorationSeed, i);
        CheckedRun other = runChecked(job, *tools, lo, seed, progress);
        outcomes.push_back(outcomeOf(other, seed));
      }
      diffs = harness::compareSchedules(outcomes);
      for (harness::ScheduleDifference& d : diffs) {
        if (d.kind != harness::ScheduleDifference::Kind::Output) continue;
        const uint64_t address = first.run.addresses[d.bufferIndex] + d.offset;
        d.writerA = lastWriter(job, lo, d.seedA, address);
        d.writerB = lastWriter(job, lo, d.seedB, address);
      }
    }
    harness::SourceLines src;
    const bool otherFault = run.fault && !reportedByTool(*run.fault, *tools);
    const uint64_t errors = harness::totalErrors(session) + diffs.size();
    if (json) {
      harness::Json j;
      j.beginObject().field("file", job.path).field("kernel", job.kernel);
      j.key("tools");
      harness::findingsJson(j, session, printLimit, src);
      if (schedules > 1) {
        j.key("schedules");
        harness::schedulesJson(j, diffs, schedules, explorationSeed, command);
      }
      j.field("errors", errors);
      if (run.fault) {
        j.key("fault");
        harness::faultJson(j, *run.fault, job.path);
      }
      j.field("printf", run.printfOutput);
      j.endObject();
      std::cout << j.str() << "\n";
    } else {
      std::cout << run.printfOutput;
      const std::string more =
          schedules > 1 ? harness::formatSchedules(diffs, schedules, explorationSeed, command)
                        : std::string();
      std::cout << harness::formatFindings(session, printLimit, src, more, diffs.size());
      if (otherFault) std::cout << "========= " << run.fault->describe(job.path) << "\n";
    }
    return errors || run.fault ? kFailed : kOk;
  } catch (const harness::ArgError& e) {
    std::cerr << "warpsim check: " << e.what() << "\n";
  } catch (const isa::PtxError& e) {
    std::cerr << e.what() << "\n";
  } catch (const sim::LaunchError& e) {
    std::cerr << "warpsim check: launch error: " << e.what() << "\n";
  } catch (const harness::ToolError& e) {
    std::cerr << "warpsim check: " << e.what() << "\n";
  } catch (const sim::OutOfDeviceMemory& e) {
    std::cerr << "warpsim check: " << e.what() << "\n";
  }
  return kUsage;
}

}  // namespace warpsim::cli
