// warpsim record: suite cases on the GPU, written as committed data that CI replays.
// warpsim replay: those cases in the simulator, every output compared with the GPU's.
#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/compare.h"
#include "harness/cuda_backend.h"
#include "harness/recording.h"
#include "harness/run_problem.h"
#include "harness/suite.h"
#include "kernels/ptx_registry.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpsim::cli {

namespace {

constexpr const char* kRecordUsage =
    R"(usage: warpsim record [PATTERN] --out DIR [--cases N] [--seed S] [--timed-runs R]

Runs N cases of every suite card matching PATTERN on the GPU (the first at the card's default
size, the others at random sizes and seeds) and writes each as DIR/<card>/<card>-<i>.case with
the PTX it ran (DIR/ptx/), input hashes, output hashes and samples (the whole output for cards
with a ULP tolerance) and the GPU time (median of R timed runs after a warm-up; one run when a
kernel calls malloc, whose blocks a repeat would leak into the next case's heap). Each case is
also run in the simulator and the agreement is reported. Needs a CUDA device.
)";

constexpr const char* kReplayUsage = R"(usage: warpsim replay [DIR]...

Replays every recorded GPU case (*.case) under the directories (default tests/recorded) in the
simulator and compares each output with the GPU's. Exit status 1 on any mismatch.
)";

}  // namespace

int recordCommand(const std::vector<std::string>& args) {
  po::options_description opts("record options");
  opts.add_options()("help,h", "show this help")(
      "pattern", po::value<std::string>()->default_value(""),
      "select cards by name (substrings, comma-separated)")("out", po::value<std::string>(),
                                                            "the directory to write cases into")(
      "cases", po::value<unsigned>()->default_value(20), "cases per card")(
      "seed", po::value<uint64_t>()->default_value(2026), "the seed of sizes and input seeds")(
      "timed-runs", po::value<unsigned>()->default_value(5), "timed GPU runs per launch");
  po::positional_options_description pos;
  pos.add("pattern", 1);
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kRecordUsage, "record")) return kUsage;
  if (vm.count("help")) {
    std::cout << kRecordUsage << "\n" << opts;
    return kOk;
  }
  if (!vm.count("out")) {
    std::cerr << "warpsim record: missing --out\n" << kRecordUsage;
    return kUsage;
  }
  const auto cards = harness::selectCards(vm["pattern"].as<std::string>());
  if (cards.empty()) {
    std::cerr << "warpsim record: no card matches\n";
    return kUsage;
  }
  std::unique_ptr<harness::Backend> gpu, timer;
  try {
    gpu = harness::makeCudaBackend();
    timer = harness::makeCudaBackend({vm["timed-runs"].as<unsigned>()});
  } catch (const harness::NoDevice& e) {
    std::cerr << "warpsim record: " << e.what() << "\n";
    return kUsage;
  }
  const fs::path out = vm["out"].as<std::string>();
  fs::create_directories(out / "ptx");
  unsigned recorded = 0, agreed = 0;
  for (const kernels::Card* c : cards) {
    const std::string ptx(kernels::ptxFor(c->source));
    const std::string ptxName =
        c->source + "-" +
        std::to_string(harness::fnv1a64(reinterpret_cast<const uint8_t*>(ptx.data()), ptx.size()) %
                       100000000) +
        ".ptx";
    std::ofstream(out / "ptx" / ptxName) << ptx;
    gpu->loadModule(ptx, ptxName);
    timer->loadModule(ptx, ptxName);
    fs::create_directories(out / c->name);
    std::mt19937_64 rng(
        vm["seed"].as<uint64_t>() ^
        harness::fnv1a64(reinterpret_cast<const uint8_t*>(c->name.data()), c->name.size()));
    for (unsigned i = 0; i < vm["cases"].as<unsigned>(); ++i) {
      const uint64_t hi = std::max(c->minSize, c->maxSize);
      const uint64_t size = i == 0 ? c->defaultSize : c->minSize + rng() % (hi - c->minSize + 1);
      const uint64_t seed = i == 0 ? 1 : rng() % 1000000;
      const kernels::Problem problem = c->make(size, seed);
      const harness::ProblemRun run = harness::runProblem(*gpu, problem);
      if (run.fault) {
        std::cerr << c->name << " size " << size << " seed " << seed << ": " << run.fault->message
                  << "\n";
        return kFailed;
      }
      const harness::ProblemRun timed = harness::runProblem(*timer, problem);
      harness::RecordedCase rc;
      rc.card = c->name;
      rc.size = size;
      rc.seed = seed;
      rc.ptxFile = "../ptx/" + ptxName;
      rc.gpuSeconds = timed.seconds;
      rc.device = gpu->name();
      for (const auto& b : problem.buffers) rc.inputs.push_back(harness::describeBuffer(b));
      const std::string stem = c->name + "-" + std::to_string(i);
      for (const auto& b : run.buffers) {
        if (!b.isOutput) continue;
        harness::RecordedBuffer rb = harness::describeBuffer(b);
        if (c->tolerance.maxUlp > 0) {
          rb.dataFile = stem + "." + b.name + ".bin";
          std::ofstream(out / c->name / rb.dataFile, std::ios::binary)
              .write(reinterpret_cast<const char*>(b.bytes.data()),
                     std::streamsize(b.bytes.size()));
        }
        rc.outputs.push_back(rb);
      }
      const std::string path = (out / c->name / (stem + ".case")).string();
      harness::writeCase(rc, path);
      ++recorded;
      const harness::ReplayResult r = harness::replayCase(harness::readCase(path));
      if (r.ok)
        ++agreed;
      else
        std::cout << path << ": " << r.message << "\n";
    }
    std::cout << c->name << ": recorded " << vm["cases"].as<unsigned>() << " cases\n" << std::flush;
  }
  std::cout << "recorded " << recorded << " cases; the simulator agrees with " << agreed << "\n";
  return agreed == recorded ? kOk : kFailed;
}

int replayCommand(const std::vector<std::string>& args) {
  return replayCommandFor(args, {"replay", kReplayUsage, "tests/recorded", ".case",
                                 "recorded cases", [](const std::string& path) {
                                   const auto r = harness::replayCase(harness::readCase(path));
                                   return r.ok ? std::string() : r.message;
                                 }});
}

}  // namespace warpsim::cli
