// warpsim run FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ...
#include <boost/program_options.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "harness/arg_spec.h"
#include "harness/arg_spec_texture.h"
#include "harness/backend.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cli/dump_output.h"
#include "harness/cli/kernel_job.h"
#include "harness/cli/lowering_options.h"
#include "harness/cli/progress.h"
#include "harness/cli/timing_options.h"
#include "harness/cli/watchdog_options.h"
#include "harness/compare.h"
#include "harness/json.h"
#include "harness/npy.h"
#include "harness/nvcc.h"
#include "harness/report.h"
#include "harness/run_problem.h"
#include "harness/timing_report.h"
#include "isa/diagnostic.h"
#include "isa/insns/texture_object.h"
#include "sim/gpu.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kRunUsage =
    R"(usage: warpsim run FILE.cu|FILE.ptx --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]
                   [--shared BYTES] [--arg SPEC]... [--dump NAME[:PATH]]... [--dump-limit N]
                   [--json]
                   [--threads N] [--serial] [--budget N] [--time-limit S] [--device-memory BYTES]
                   [--progress]
                   [--timing] [--timing-config FILE] [--print-timing-config]
                   [--trace FILE [--trace-limit N]] [--source-lines N] [--timing-sample K]
                   [--nvcc-flag F]... [--keep-ptx DIR] [-- NVCC_FLAGS...]

Runs one kernel in the simulator (a .cu file compiled with nvcc first: see below).
--dump NAME prints a buffer's first 16 elements (--dump-limit N: N of them, 0: all);
--dump NAME:PATH writes its raw bytes to PATH, or numpy's format when PATH ends in .npy
(numpy.load reads it; bf16 as uint16 bit patterns). --json gives the dumps' elements too.
--timing predicts the launch's cycles on an H200 (docs/TIMING_MODEL.md): cycles, occupancy,
IPC, warp stalls, cache hit rates, DRAM bytes, the roofline; --json gives them under ncu's
metric names. --trace FILE writes a Perfetto/Chrome trace (SMs, CTAs, warps' issue and stalls
over cycles); --source-lines N lists the N source lines with the most warp-cycles (--json: all);
--timing-sample K simulates K waves of CTAs in detail and extrapolates the rest.
A run longer than a second shows its progress on stderr when that is a terminal (--progress:
always): CTAs done, warp-instructions issued and their rate, the time left. Ctrl-C stops the
kernel and reports where every warp of the stopped CTA stands.
Exit status: 0 ok, 1 kernel fault, 2 bad input or usage.
)";

}  // namespace

int runCommand(const std::vector<std::string>& args) {
  po::options_description opts("run options");
  opts.add_options()("help,h", "show this help");
  addKernelJobOptions(opts);
  opts.add_options()("json", "machine-readable output (with the --dump buffers' elements)")(
      "dump-limit", po::value<uint64_t>()->default_value(kDefaultDumpLimit),
      "elements of a --dump buffer printed or put in --json (0 = the whole buffer)")(
      "threads", po::value<unsigned>()->default_value(0), "host threads (0 = all cores)")(
      "serial", "run CTAs one at a time, in order (deterministic float atomics)")(
      "progress", "show the progress line on stderr even when it is not a terminal");
  addWatchdogOptions(opts);
  addLoweringOptions(opts);
  addTimingOptions(opts);
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kRunUsage, "run")) return kUsage;
  if (vm.count("help")) {
    std::cout << kRunUsage << "\n" << kArgLanguageHelp << "\n" << kNvccFlagsHelp << "\n" << opts;
    return kOk;
  }
  const bool json = vm.count("json") > 0;
  const uint64_t dumpLimit = vm["dump-limit"].as<uint64_t>();
  try {
    KernelJob job = kernelJobFrom(vm, "run");
    const std::string& file = job.path;
    const kernels::Problem& problem = job.problem;
    const std::vector<harness::DumpSpec>& dumps = job.dumps;
    const std::string& ptx = job.ptx;
    sim::LaunchOptions lo;
    lo.threads = hostThreads(vm);
    lo.serial = vm.count("serial") > 0;
    applyWatchdogOptions(vm, lo);
    ProgressMeter meter;
    const bool progress = progressWanted(vm.count("progress") > 0);
    if (progress) lo.observers.push_back(&meter);
    applyLoweringOptions(vm, lo);
    const std::optional<sim::timing::TimingConfig> timing = timingFrom(vm);
    if (timing && printTimingConfig(vm) && !json)
      std::cout << "timing configuration:\n" << sim::timing::formatTimingConfig(*timing);
    auto backend = timing ? harness::makeTimedSimBackend(*timing, lo, job.deviceMemory)
                          : harness::makeSimBackend(lo, job.deviceMemory);
    backend->loadModule(ptx, file);
    std::optional<ProgressLine> line;
    if (progress) line.emplace(meter, totalCtas(problem), std::cerr);
    harness::ProblemRun run = harness::runProblem(*backend, problem);
    line.reset();
    if (!json) std::cout << run.printfOutput;
    if (timing) noteTrace(*timing, run.timings, std::cerr);
    for (const auto& d : dumps)
      for (const auto& b : run.buffers)
        if (b.name == d.buffer && !d.path.empty()) writeDumpFile(b, d);
    if (json) {
      harness::Json j;
      j.beginObject().field("file", file).field("kernel", vm["kernel"].as<std::string>());
      j.field("ok", !run.fault);
      j.key("stats");
      harness::statsJson(j, run.stats);
      if (run.fault) {
        j.key("fault");
        harness::faultJson(j, *run.fault, file);
      }
      j.field("printf", run.printfOutput);
      j.field("seconds", run.seconds);
      if (!dumps.empty()) {
        j.key("dumps").beginArray();
        for (const auto& d : dumps)
          for (const auto& b : run.buffers)
            if (b.name == d.buffer) dumpJson(j, b, d, dumpLimit);
        j.endArray();
      }
      if (timing) {
        j.key("timing").beginArray();
        for (const auto& t : run.timings) harness::timingJson(j, t);
        j.endArray();
        j.key("timing_config");
        harness::timingConfigJson(j, *timing);
      }
      j.endObject();
      std::cout << j.str() << "\n";
    } else {
      if (run.fault) std::cout << run.fault->describe(file) << "\n";
      std::cout << "kernel " << vm["kernel"].as<std::string>() << " "
                << (run.fault ? "FAULTED" : "completed") << " in " << run.seconds << " s\n"
                << harness::formatStats(run.stats);
      for (size_t i = 0; i < run.timings.size(); ++i) {
        if (run.timings.size() > 1) std::cout << "launch " << i << " ";
        std::cout << harness::formatTiming(run.timings[i], sourceLinesShown(vm));
      }
      for (const auto& d : dumps)
        for (const auto& b : run.buffers)
          if (b.name == d.buffer && d.path.empty()) printDump(b, dumpLimit, std::cout);
    }
    return run.fault ? kFailed : kOk;
  } catch (const harness::ArgError& e) {
    std::cerr << "warpsim run: " << e.what() << "\n";
  } catch (const isa::PtxError& e) {
    std::cerr << e.what() << "\n";
  } catch (const sim::LaunchError& e) {
    std::cerr << "warpsim run: launch error: " << e.what() << "\n";
  } catch (const harness::ToolError& e) {
    std::cerr << "warpsim run: " << e.what() << "\n";
  } catch (const sim::OutOfDeviceMemory& e) {
    std::cerr << "warpsim run: " << e.what() << "\n";
  }
  return kUsage;
}

}  // namespace warpsim::cli
