// warpsim bench [PATTERN]: simulator speed in thread-instructions per second on 1 and 2 host
// threads, the slowdown against the plain C++ loop of the same work (vector_add and saxpy: the
// card's plain loop over arrays made before the clock starts; the SGEMMs: their CPU reference,
// whose buffer copies are O(n^2) against O(n^3) work), and peak memory.
#include <sys/resource.h>

#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/json.h"
#include "harness/suite.h"
#include "kernels/ptx_registry.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kBenchUsage =
    R"(usage: warpsim bench [PATTERN] [--size N] [--repeat R] [--json] [--timing]

Measures the simulator on suite kernels: thread-instructions per second with 1 and 2 host
threads (best of R runs, on one simulator as a program's repeated launches run), the speed-up
from the second thread, and for vector_add, saxpy and sgemm_* the slowdown of the simulator
(2 threads) against the plain C++ loop of the same work (best of R runs, its arrays made before
the clock starts). Ends with the process's peak resident memory (the memory target, 1.25 x one
kernel's device buffers + 64 MB, is what --memory measures).

--timing: the timing model's speed instead, in thread-instructions per second of the one host
thread it runs on (CPU time), with each card's predicted cycles.
--memory (with one kernel): the peak resident memory while that kernel runs, its inputs held only
in device memory, against the target of 1.25 x the device buffers + 64 MB.
)";

// --timing: the timing model's speed, thread-instructions per second of the simulating thread's
// CPU time (the model runs every SM on one thread; CPU time is what an unloaded machine's wall
// time would be), best of `repeat`.
int timingBench(const std::vector<const kernels::Card*>& cards, uint64_t size, unsigned repeat,
                bool json) {
  const sim::timing::TimingConfig config;
  harness::Json j;
  j.beginObject().key("kernels").beginArray();
  if (!json)
    std::printf("%-22s %14s %12s %12s %14s %12s\n", "kernel", "thread-insns", "warp-insns",
                "cpu seconds", "thread-insn/s", "cycles");
  double logRate = 0, minRate = 1e300;
  bool ok = true;
  for (const kernels::Card* c : cards) {
    double best = 1e30;
    sim::timing::TimingReport total;
    bool passed = true;
    for (unsigned r = 0; r < repeat; ++r) {
      sim::LaunchOptions lo;
      lo.statistics = false;
      const harness::CardResult res = harness::runCardOnSim(*c, size, 1, lo, &config);
      passed = passed && res.passed();
      sim::timing::TimingReport sum;
      for (const auto& t : res.run.timings) sim::timing::accumulate(sum, t);
      if (sum.hostCpuSeconds < best) {
        best = sum.hostCpuSeconds;
        total = sum;
      }
    }
    ok = ok && passed;
    const double rate = best > 0 ? double(total.threadInstructions) / best : 0;
    logRate += std::log(std::max(rate, 1.0));
    minRate = std::min(minRate, rate);
    if (json) {
      j.beginObject().field("kernel", c->name).field("passed", passed);
      j.field("thread_instructions", total.threadInstructions);
      j.field("warp_instructions", total.warpInstructions);
      j.field("cpu_seconds", best).field("rate", rate).field("predicted_cycles", total.cycles);
      j.endObject();
    } else {
      std::printf("%-22s %14llu %12llu %12.4f %14.3g %12llu%s\n", c->name.c_str(),
                  (unsigned long long)total.threadInstructions,
                  (unsigned long long)total.warpInstructions, best, rate,
                  (unsigned long long)total.cycles, passed ? "" : "  (WRONG RESULT)");
    }
  }
  const double geo = std::exp(logRate / double(cards.size()));
  if (json) {
    j.endArray().field("geomean_rate", geo).field("slowest_rate", minRate).endObject();
    std::cout << j.str() << "\n";
  } else {
    std::printf("timing mode: geomean %.3g thread-instructions/s per host thread; slowest %.3g\n",
                geo, minRate);
  }
  return ok ? kOk : kFailed;
}

// The SGEMMs' CPU reference is their plain triple loop (its buffer copies are O(n^2) of O(n^3)).
bool referenceIsSameWork(const std::string& name) { return name.rfind("sgemm", 0) == 0; }

long peakRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// A field of /proc/self/status in kB (VmRSS, VmHWM), -1 when unreadable.
long procStatusKb(const char* field) {
  std::ifstream f("/proc/self/status");
  for (std::string line; std::getline(f, line);)
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field) + 1));
  return -1;
}

// The memory target's bound (issue 8) for a kernel of `bufferMb` MB of device buffers.
double memoryLimitMb(double bufferMb) { return 1.25 * bufferMb + 64; }

// The memory target: the process's peak resident memory while the kernel runs, with the
// inputs only in device memory (the host copies a CUDA program would also keep are dropped
// first), against 1.25 x the device buffers + 64 MB. The peak is reset through
// /proc/self/clear_refs so that input generation does not count.
int memoryRun(const kernels::Card& c, uint64_t size, bool json) {
  auto backend = harness::makeSimBackend();
  backend->loadModule(std::string(kernels::ptxFor(c.source)), c.source + ".ptx");
  std::vector<uint64_t> addresses;
  uint64_t bytes = 0;
  std::vector<kernels::Launch> launches;
  {
    kernels::Problem p = c.make(size ? size : c.defaultSize, 1);
    for (const auto& b : p.buffers) {
      addresses.push_back(backend->allocate(b.bytes.size(), b.name));
      backend->copyIn(addresses.back(), b.bytes.data(), b.bytes.size());
      bytes += b.bytes.size();
    }
    launches = p.launches;
  }  // the host copies go here
  std::ofstream("/proc/self/clear_refs") << "5";
  const long before = procStatusKb("VmRSS:");
  for (const kernels::Launch& l : launches) {
    harness::LaunchSpec spec;
    spec.entry = l.entry;
    spec.grid = {l.grid.x, l.grid.y, l.grid.z};
    spec.block = {l.block.x, l.block.y, l.block.z};
    spec.dynamicShared = l.dynamicShared;
    spec.cluster = {l.cluster.x, l.cluster.y, l.cluster.z};
    spec.cooperative = l.cooperative;
    for (const auto& a : l.args) spec.args.push_back(a.paramBytes(addresses));
    const harness::LaunchOutcome o = backend->launch(spec);
    if (o.fault) {
      std::cerr << o.fault->describe(c.source + ".ptx") << "\n";
      return kFailed;
    }
  }
  const long peak = procStatusKb("VmHWM:");
  const double mb = 1024.0 * 1024.0, bufMb = double(bytes) / mb, limit = memoryLimitMb(bufMb);
  const double peakMb = double(peak) / 1024.0;
  if (json) {
    harness::Json j;
    j.beginObject().field("kernel", c.name).field("device_buffers_mb", bufMb);
    j.field("rss_before_launch_mb", double(before) / 1024.0).field("peak_rss_mb", peakMb);
    j.field("limit_mb", limit).field("within_limit", peakMb <= limit).endObject();
    std::cout << j.str() << "\n";
  } else {
    std::printf(
        "%s: device buffers %.1f MB, resident before the launch %.1f MB, peak during it "
        "%.1f MB; target 1.25 x buffers + 64 MB = %.1f MB: %s\n",
        c.name.c_str(), bufMb, double(before) / 1024.0, peakMb, limit,
        peakMb <= limit ? "met" : "MISSED");
  }
  return peakMb <= limit ? kOk : kFailed;
}

}  // namespace

int benchCommand(const std::vector<std::string>& args) {
  po::options_description opts("bench options");
  opts.add_options()("help,h", "show this help")(
      "pattern", po::value<std::string>()->default_value(""),
      "select cards by name (substrings, comma-separated)")(
      "size", po::value<uint64_t>()->default_value(0), "problem size (0 = each card's default)")(
      "repeat", po::value<unsigned>()->default_value(3), "runs per measurement (the best counts)")(
      "memory", "measure peak memory of one kernel's launch instead of speed")(
      "timing", "measure the timing model's speed (thread-instructions per CPU second)")(
      "json", "machine-readable output");
  po::positional_options_description pos;
  pos.add("pattern", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kBenchUsage, "bench")) return kUsage;
  if (vm.count("help")) {
    std::cout << kBenchUsage << "\n" << opts;
    return kOk;
  }
  const auto cards = harness::selectCards(vm["pattern"].as<std::string>());
  if (cards.empty()) {
    std::cerr << "warpsim bench: no card matches '" << vm["pattern"].as<std::string>() << "'\n";
    return kUsage;
  }
  for (const kernels::Card* c : cards)
    if (const std::string why = harness::cardSizeError(*c, vm["size"].as<uint64_t>());
        !why.empty()) {
      std::cerr << "warpsim bench: --size: " << why << "\n";
      return kUsage;
    }
  const unsigned repeat = std::max(1u, vm["repeat"].as<unsigned>());
  const uint64_t size = vm["size"].as<uint64_t>();
  const bool json = vm.count("json") > 0;
  if (vm.count("memory")) {
    if (cards.size() != 1) {
      std::cerr << "warpsim bench --memory: name exactly one kernel (" << cards.size()
                << " match)\n";
      return kUsage;
    }
    return memoryRun(*cards[0], size, json);
  }
  if (vm.count("timing")) return timingBench(cards, size, repeat, json);
  harness::Json j;
  j.beginObject().key("kernels").beginArray();
  if (!json)
    std::printf("%-22s %14s %12s %12s %8s %12s\n", "kernel", "thread-insns", "1 thread/s",
                "2 threads/s", "speedup", "vs C++ loop");
  uint64_t largestBuffers = 0;
  bool ok = true;
  double logRate[2] = {0, 0}, minRate = 1e300;  // thread-instructions/s: geomean and slowest
  // The micro family (the timing model's calibration probes: one warp or one thread, a few
  // hundred instructions) measures launch cost, not the core: it is listed but left out of the
  // geomean and the slowest, unless only micro cards were selected.
  const bool allMicro = std::all_of(cards.begin(), cards.end(),
                                    [](const kernels::Card* c) { return c->family == "micro"; });
  size_t counted = 0;
  std::string slowest;
  for (const kernels::Card* c : cards) {
    double best[2] = {1e30, 1e30};
    uint64_t threadInsns = 0;
    bool passed = true;
    {
      // The work, counted once by the statistics observer; the timed runs attach no observer,
      // as the functional mode runs when nobody asks for statistics.
      const harness::CardResult counted = harness::runCardOnSim(*c, size, 1);
      passed = counted.passed();
      threadInsns = counted.run.stats.totalThreadInsns();
    }
    for (unsigned t = 0; t < 2; ++t) {
      sim::LaunchOptions lo;
      lo.threads = t + 1;
      lo.statistics = false;
      // One simulator for the repeats, as a program that launches a kernel again reuses its
      // context: the launches after the first find the Gpu's host threads, CTA objects and
      // frames kept (sim/func/grid_executor.h), and the best of them is what such a program sees.
      const std::unique_ptr<harness::Backend> backend = harness::makeSimBackend(lo);
      harness::loadCard(*backend, *c);
      for (unsigned r = 0; r < repeat; ++r) {
        const harness::CardResult res = harness::runLoadedCard(*backend, *c, size, 1);
        passed = passed && res.passed();
        best[t] = std::min(best[t], res.run.seconds);
      }
    }
    if (allMicro || c->family != "micro") {
      ++counted;
      logRate[0] += std::log(double(threadInsns) / best[0]);
      logRate[1] += std::log(double(threadInsns) / best[1]);
      if (double(threadInsns) / best[0] < minRate) {
        minRate = double(threadInsns) / best[0];
        slowest = c->name;
      }
    }
    ok = ok && passed;
    double native = 0;
    const kernels::Problem problem = c->make(size ? size : c->defaultSize, 1);
    uint64_t bytes = 0;
    for (const auto& b : problem.buffers) bytes += b.bytes.size();
    largestBuffers = std::max(largestBuffers, bytes);
    if (c->plainLoopSeconds) {
      native = c->plainLoopSeconds(problem, repeat);
    } else if (referenceIsSameWork(c->name)) {
      native = 1e30;
      for (unsigned r = 0; r < repeat; ++r) {
        kernels::Problem p = problem;
        const auto t0 = std::chrono::steady_clock::now();
        c->reference(p);
        native = std::min(
            native, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
    }
    const double rate1 = double(threadInsns) / best[0], rate2 = double(threadInsns) / best[1];
    if (json) {
      j.beginObject().field("kernel", c->name).field("passed", passed);
      j.field("thread_instructions", threadInsns);
      j.field("seconds_1_thread", best[0]).field("seconds_2_threads", best[1]);
      j.field("rate_1_thread", rate1).field("rate_2_threads", rate2);
      if (native > 0)
        j.field("native_seconds", native).field("slowdown_vs_native_2_threads", best[1] / native);
      j.endObject();
    } else {
      char vs[32] = "-";
      if (native > 0) std::snprintf(vs, sizeof vs, "%.0fx slower", best[1] / native);
      std::printf("%-22s %14llu %12.3g %12.3g %7.2fx %12s%s\n", c->name.c_str(),
                  (unsigned long long)threadInsns, rate1, rate2, best[0] / best[1], vs,
                  passed ? "" : "  (WRONG RESULT)");
    }
  }
  const double geo1 = std::exp(logRate[0] / double(counted)),
               geo2 = std::exp(logRate[1] / double(counted));
  if (!json)
    std::printf(
        "geomean over %zu kernels%s: %.3g thread-instructions/s on 1 thread, %.3g on 2 (%.2fx); "
        "slowest %.3g (%s)\n",
        counted, counted < cards.size() ? " (micro cards left out)" : "", geo1, geo2, geo2 / geo1,
        minRate, slowest.c_str());
  const double rssMb = double(peakRssKb()) / 1024.0,
               bufMb = double(largestBuffers) / (1024.0 * 1024.0);
  if (json) {
    j.endArray().field("peak_rss_mb", rssMb).field("largest_device_buffers_mb", bufMb);
    j.field("geomean_rate_1_thread", geo1).field("geomean_rate_2_threads", geo2);
    j.field("slowest_rate_1_thread", minRate).field("slowest_kernel", slowest);
    j.field("kernels_in_geomean", uint64_t(counted));
    j.field("memory_limit_mb", memoryLimitMb(bufMb)).endObject();
    std::cout << j.str() << "\n";
  } else if (cards.size() == 1) {
    std::printf(
        "peak resident memory %.1f MB; the problem's device buffers %.1f MB (the target, 1.25 x "
        "buffers + 64 MB = %.1f MB, is measured by bench --memory)\n",
        rssMb, bufMb, memoryLimitMb(bufMb));
  } else {
    // Every card's problem, simulator and results pass through one process: its peak is not
    // one kernel's, which is what the target bounds (--memory measures that).
    std::printf(
        "peak resident memory %.1f MB over the %zu kernels (largest device buffers %.1f MB); "
        "the memory target is one kernel's: bench --memory KERNEL\n",
        rssMb, cards.size(), bufMb);
  }
  return ok ? kOk : kFailed;
}

}  // namespace warpsim::cli
