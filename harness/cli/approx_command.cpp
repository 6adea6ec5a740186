// warpsim approx-measure: the .approx forms over large input sets on the GPU and in the
//                         simulator; figures per set, and samples to commit.
// warpsim approx-replay:  the committed samples in the simulator; fails where the simulator
//                         agrees with the GPU less than it did when they were recorded.
#include <boost/program_options.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "harness/approx/approx.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cuda_backend.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpsim::cli {

namespace {

namespace ax = harness::approx;

constexpr const char* kMeasureUsage =
    R"(usage: warpsim approx-measure [--function FORM]... [--out DIR] [--sample N] [--limit N]

Runs each .approx form (all of them, or the --function ones: ex2.approx.f32, div.full.f32,
tanh.approx.bf16, ...) over its input sets on the GPU and in the simulator: every f32 of one
binade, 2^20 random inputs (half random bit patterns, half the working range), every value of a
16-bit format. Prints per set: how many results the simulator gives bit for bit, the largest ULP
distance between the two, and the GPU's own error against the exact function. --out writes
DIR/<form>.sample: N evenly spaced inputs per set with the GPU's results (every input of the
16-bit forms), to commit under tests/recorded/approx. --limit caps each set (a quick look).
Needs a CUDA device (exit status 2 without one); --simulator-as-gpu is a dry run.
)";

constexpr const char* kReplayUsage = R"(usage: warpsim approx-replay [DIR]...

Replays every committed .approx sample (*.sample, default tests/recorded/approx) in the
simulator: it must give at least as many of the GPU's results bit for bit as when the sample was
recorded, and be no further from the others in ULP. Exit status 1 otherwise.
)";

std::string percent(uint64_t part, uint64_t whole) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g%%", whole ? 100.0 * double(part) / double(whole) : 100.0);
  return b;
}

std::string hexWord(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string setLine(const ax::InputSet& set, const ax::Agreement& g, const ax::Error& gpuError,
                    const ax::Error& modelError, bool absolute) {
  std::ostringstream s;
  s << set.name << ": inputs " << g.inputs << " exact " << g.exact << " ("
    << percent(g.exact, g.inputs) << ") maxulp " << g.maxUlp << " ulp1 " << g.ulpHistogram[0]
    << " ulp2 " << g.ulpHistogram[1] << " ulp3-15 " << g.ulpHistogram[2] << " ulp16+ "
    << g.ulpHistogram[3] << " nan_payload " << g.bothNaN << " nan_vs_number " << g.nanVsNumber;
  if (g.maxUlp)
    s << " worst a=" << hexWord(g.worstInput) << " gpu=" << hexWord(g.worstGpu)
      << " sim=" << hexWord(g.worstSim);
  char b[160];
  std::snprintf(b, sizeof b, " | gpu_error %.3g ulp model_error %.3g ulp", gpuError.maxUlp,
                modelError.maxUlp);
  s << b;
  if (absolute) {
    std::snprintf(b, sizeof b, " gpu_abs_error %.3g model_abs_error %.3g", gpuError.maxAbs,
                  modelError.maxAbs);
    s << b;
  }
  return s.str();
}

ax::InputSet sampleInputs(const ax::Sample& s) { return {"sample", s.a, s.b}; }

}  // namespace

int approxMeasureCommand(const std::vector<std::string>& args) {
  po::options_description opts("approx-measure options");
  opts.add_options()("help,h", "show this help")("function", po::value<std::vector<std::string>>(),
                                                 "a form to measure (repeatable)")(
      "out", po::value<std::string>(), "write the samples here")(
      "sample", po::value<size_t>()->default_value(1024), "sampled inputs per set")(
      "limit", po::value<size_t>()->default_value(0), "cap on each input set (0: none)")(
      "simulator-as-gpu", "dry run: the simulator stands in for the GPU");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kMeasureUsage, "approx-measure")) return kUsage;
  if (vm.count("help")) {
    std::cout << kMeasureUsage << "\n" << opts;
    return kOk;
  }
  std::vector<const ax::Function*> forms;
  if (vm.count("function")) {
    for (const std::string& name : vm["function"].as<std::vector<std::string>>()) {
      const ax::Function* f = ax::findFunction(name);
      if (!f) {
        std::cerr << "warpsim approx-measure: --function: unknown form '" << name
                  << "'; the forms are:";
        for (const ax::Function& g : ax::functions()) std::cerr << " " << g.name;
        std::cerr << "\n";
        return kUsage;
      }
      forms.push_back(f);
    }
  } else {
    for (const ax::Function& f : ax::functions()) forms.push_back(&f);
  }
  const bool dryRun = vm.count("simulator-as-gpu") > 0;
  std::unique_ptr<harness::Backend> gpu;
  try {
    gpu = dryRun ? ax::makeSimulator() : harness::makeCudaBackend();
  } catch (const harness::NoDevice& e) {
    std::cerr << "warpsim approx-measure: " << e.what() << "\n";
    return kUsage;
  }
  auto sim = ax::makeSimulator();
  std::string out;
  if (vm.count("out")) {
    out = vm["out"].as<std::string>();
    fs::create_directories(out);
  }
  const size_t perSet = vm["sample"].as<size_t>(), limit = vm["limit"].as<size_t>();
  for (const ax::Function* f : forms) {
    ax::Sample sample;
    sample.function = f->name;
    sample.device = dryRun ? "simulator (dry run, not a GPU)" : gpu->name();
    for (const ax::InputSet& set : ax::inputSets(*f, limit)) {
      const std::vector<uint64_t> g = ax::evaluate(*gpu, *f, set);
      const std::vector<uint64_t> s = ax::evaluate(*sim, *f, set);
      const ax::Agreement a = ax::compare(*f, set, g, s);
      const std::string line =
          setLine(set, a, ax::errorOf(*f, set, g), ax::errorOf(*f, set, s), f->absoluteError);
      std::cout << f->name << " " << line << "\n" << std::flush;
      sample.setLines.push_back(line);
      const bool everyInput = set.name.rfind("all", 0) == 0;
      const size_t step = everyInput || set.a.size() <= perSet ? 1 : set.a.size() / perSet;
      for (size_t i = 0; i < set.a.size(); i += step) {
        sample.a.push_back(set.a[i]);
        if (f->arity == 2) sample.b.push_back(set.b[i]);
        sample.gpu.push_back(g[i]);
        if (g[i] == s[i]) ++sample.sampleExact;
      }
    }
    const ax::InputSet in = sampleInputs(sample);
    sample.sampleMaxUlp = ax::compare(*f, in, sample.gpu, ax::evaluate(*sim, *f, in)).maxUlp;
    if (!out.empty()) ax::writeSample(sample, (fs::path(out) / (f->name + ".sample")).string());
  }
  return kOk;
}

int approxReplayCommand(const std::vector<std::string>& args) {
  return replayCommandFor(
      args, {"approx-replay", kReplayUsage, "tests/recorded/approx", ".sample", "approx samples",
             [](const std::string& path) -> std::string {
               const ax::Sample s = ax::readSample(path);
               const ax::Function* f = ax::findFunction(s.function);
               if (!f) return "unknown form '" + s.function + "'";
               auto sim = ax::makeSimulator();
               const ax::InputSet in = sampleInputs(s);
               const ax::Agreement a = ax::compare(*f, in, s.gpu, ax::evaluate(*sim, *f, in));
               if (a.exact >= s.sampleExact && a.maxUlp <= s.sampleMaxUlp) return "";
               return s.function + ": " + std::to_string(a.exact) + " of " +
                      std::to_string(a.inputs) + " bit for bit (recorded " +
                      std::to_string(s.sampleExact) + "), max " + std::to_string(a.maxUlp) +
                      " ulp (recorded " + std::to_string(s.sampleMaxUlp) + ")";
             }});
}

}  // namespace warpsim::cli
