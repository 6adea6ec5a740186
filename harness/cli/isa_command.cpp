// warpsim isa-record: generated ISA programs (harness/ptxgen) on the GPU, written as committed
//                     data, each compared with the simulator right away.
// warpsim isa-replay: those cases in the simulator, every output word compared with the GPU's.
// warpsim isa-check:  generated programs in the simulator only (no GPU): every one must load
//                     and run without a fault; optionally writes the PTX for ptxas.
#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cuda_backend.h"
#include "harness/nvcc.h"
#include "harness/ptxgen/isa_case.h"
#include "harness/ptxgen/trace.h"
#include "harness/recording.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace warpsim::cli {

namespace {

constexpr const char* kRecordUsage =
    R"(usage: warpsim isa-record --out DIR [--count N] [--seed S] [--approx] [--video] [--contract]
       [--mma]

Generates N random ISA programs (seeds S, S+1, ...; harness/ptxgen), runs each on the GPU and
writes DIR/prog-<seed>.ptx and DIR/prog-<seed>.isacase (launch, input kinds and hash, a hash
and thread 0's value per output word, the instruction forms used). Each program also runs in
the simulator at once; every disagreement is printed with the first differing output word, its
register and the instructions that wrote it, and then where the runs part: a variant that stores
every instruction's operands and results names the first instruction whose result differs, with
its operand values, and whether it is one of the known ways the driver's compilation decides
bits (harness/ptxgen/trace.h: nan-bits, guard-ignored, immediate-field, byte-store-of-half,
context-dependent, not-reproduced) or
UNEXPLAINED. Exit status 1 when any difference is unexplained. A program that faults on the
GPU ends the run (the process's CUDA context is unusable after it); the summary then says with which --seed and --count to go on. Needs a CUDA device (exit
status 2 without one).
--approx adds the .approx SFU forms (measured, not bit-exact in the simulator).
--video adds the video instructions (vadd ... vset, vadd2/4 ... vset2/4).
--contract adds mul + add/sub pairs without rounding modifiers, which ptxas fuses into one fma
(and a neg between, two consumers, a consumer with .rn): the simulator fuses them by ptxas's
rule (isa/contract.h), which these recordings check on the chip.
--mma generates programs of one matrix instruction instead: mma.sync in every shape and type
warpsim executes, ldmatrix, movmatrix; seeds cycle through the forms and through random inputs
and targeted ones that reveal the order and rounding of the tensor cores' additions
(harness/ptxgen/mma_program.cpp).
--ptxas-check assembles each program with `ptxas -arch=sm_90` in a child process before the GPU
loads it: a program that crashes ptxas (which the driver's JIT shares) is reported and skipped
instead of taking the process down.
--simulator-as-gpu runs the whole command with the simulator in the GPU's place: a dry run of
the pipeline on a machine without a GPU (what it writes is no evidence of anything).
)";

constexpr const char* kReplayUsage = R"(usage: warpsim isa-replay [DIR]...

Replays every recorded ISA case (*.isacase) under the directories (default tests/recorded/isa)
in the simulator and compares each output word with the GPU's. Exit status 1 on any mismatch.
)";

constexpr const char* kCheckUsage =
    R"(usage: warpsim isa-check [--count N] [--seed S] [--approx] [--video] [--contract] [--mma]
       [--ptx-dir DIR]

Generates N random ISA programs and runs each in the simulator: every one must load and run
without a fault (exit status 1 otherwise). --ptx-dir writes them as DIR/prog-<seed>.ptx (to
check them with ptxas -arch=sm_90).
)";

constexpr const char* kTraceUsage =
    R"(usage: warpsim isa-trace --seed S --thread T [--match TEXT]

Runs generated program S in the simulator as its traced variant (harness/ptxgen/trace.h) and
prints, for global thread T, every trace word in program order: the instruction, the register,
"before" (an operand) or "after" (a result), and its value; a line the thread did not run reads
0. --match keeps the instructions that contain TEXT. The GPU's side of a divergence is what
isa-record prints.
)";

std::string stem(uint64_t seed) { return "prog-" + std::to_string(seed); }

}  // namespace

int isaRecordCommand(const std::vector<std::string>& args) {
  po::options_description opts("isa-record options");
  opts.add_options()("help,h", "show this help")("out", po::value<std::string>(),
                                                 "the directory to write cases into")(
      "count", po::value<unsigned>()->default_value(100), "programs to generate")(
      "seed", po::value<uint64_t>()->default_value(1), "the first program's seed")(
      "approx", "also generate .approx forms")("video", "also generate the video instructions")(
      "contract", "also generate mul + add/sub pairs that ptxas fuses into fma")(
      "mma", "programs of one matrix instruction instead (mma.sync, ldmatrix, movmatrix)")(
      "wgmma", "programs of one wgmma.mma_async instead (sm_90a, shared-memory layouts)")(
      "simulator-as-gpu", "dry run: the simulator stands in for the GPU")(
      "ptxas-check", "assemble each program with ptxas in a child process first");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kRecordUsage, "isa-record")) return kUsage;
  if (vm.count("help")) {
    std::cout << kRecordUsage << "\n" << opts;
    return kOk;
  }
  if (!vm.count("out")) {
    std::cerr << "warpsim isa-record: missing --out\n" << kRecordUsage;
    return kUsage;
  }
  const bool dryRun = vm.count("simulator-as-gpu") > 0;
  // A fresh backend. The old one goes first: it holds the device's primary context, which a
  // fault leaves unusable, and only releasing its last reference destroys it.
  std::unique_ptr<harness::Backend> gpu;
  auto makeGpu = [&]() -> std::unique_ptr<harness::Backend> {
    gpu.reset();
    if (dryRun) return harness::makeSimBackend();
    return harness::makeCudaBackend();
  };
  try {
    gpu = makeGpu();
  } catch (const harness::NoDevice& e) {
    std::cerr << "warpsim isa-record: " << e.what() << "\n";
    return kUsage;
  }
  ptxgen::GenOptions options;
  options.approx = vm.count("approx") > 0;
  options.video = vm.count("video") > 0;
  options.contract = vm.count("contract") > 0;
  options.mma = vm.count("mma") > 0;
  options.wgmma = vm.count("wgmma") > 0;
  const fs::path out = vm["out"].as<std::string>();
  fs::create_directories(out);
  const uint64_t first = vm["seed"].as<uint64_t>();
  const unsigned count = vm["count"].as<unsigned>();
  std::string ptxas;
  if (vm.count("ptxas-check")) {
    try {
      ptxas = harness::findPtxas();
    } catch (const harness::ToolError& e) {
      std::cerr << "warpsim isa-record: --ptxas-check: " << e.what() << "\n";
      return kUsage;
    }
  }
  unsigned recorded = 0, agreed = 0, rejected = 0, unexplained = 0, ptxasCrashes = 0;
  uint64_t stoppedAt = 0;  // the seed whose GPU fault ended the run early (0: none)
  std::map<std::string, unsigned> explained;  // by category
  for (uint64_t seed = first; seed < first + count; ++seed) {
    // A fresh context now and then: the driver keeps every loaded module until then.
    if (seed != first && (seed - first) % 250 == 0) gpu = makeGpu();
    const ptxgen::GeneratedProgram g = ptxgen::generateProgram(seed, options);
    const std::string ptxName = stem(seed) + ".ptx";
    std::ofstream(out / ptxName) << g.ptx;
    ptxgen::IsaCase c = ptxgen::caseFor(g, ptxName);
    c.device = dryRun ? "simulator (dry run, not a GPU)" : gpu->name();
    const std::vector<uint8_t> inputs = ptxgen::makeInputs(seed, g.inputs, g.threads());
    if (!ptxas.empty()) {
      const std::string verdict = harness::ptxasVerdict(ptxas, (out / ptxName).string());
      if (!verdict.empty()) {
        std::cout << (out / ptxName).string() << ": ptxas " << verdict
                  << " (a toolchain bug, which the driver's JIT shares): not run on the GPU\n"
                  << std::flush;
        ++(verdict.rfind("crashed", 0) == 0 ? ptxasCrashes : rejected);
        continue;
      }
    }
    ptxgen::IsaRun onGpu;
    try {
      onGpu = ptxgen::runIsa(*gpu, g.ptx, (out / ptxName).string(), c, inputs);
    } catch (const std::exception& e) {
      ++rejected;  // the JIT refused the module: a generator bug to fix, not a case
      std::cout << (out / ptxName).string() << ": the GPU refused it: " << e.what() << "\n";
      fs::remove(out / ptxName);
      gpu = makeGpu();
      continue;
    }
    if (onGpu.fault) {
      ++rejected;
      std::cout << (out / ptxName).string() << ": faulted on the GPU: " << onGpu.fault->message
                << "\n";
      fs::remove(out / ptxName);
      // A fault leaves this process's CUDA context unusable (every later call, a new primary
      // context included, fails with the fault's error): stop, and say where to go on.
      stoppedAt = seed;
      break;
    }
    ptxgen::recordOutputs(c, onGpu.out);
    const std::string casePath = (out / (stem(seed) + ".isacase")).string();
    ptxgen::writeIsaCase(c, casePath);
    ++recorded;
    std::string why;
    try {
      const ptxgen::IsaRun onSim =
          ptxgen::runIsaInSimulator(g.ptx, (out / ptxName).string(), c, inputs);
      if (onSim.fault)
        why = "the simulator faulted: " + onSim.fault->describe((out / ptxName).string());
      else
        why = ptxgen::describeDifference(c, g.ptx, onGpu.out, onSim.out);
    } catch (const std::exception& e) {
      why = std::string("the simulator refused it: ") + e.what();
    }
    if (why.empty()) {
      ++agreed;
    } else {
      std::cout << casePath << ": " << why << "\n";
      const ptxgen::Divergence d = ptxgen::explainDifference(*gpu, g.ptx, c, inputs);
      std::cout << "  " << d.text << "\n  "
                << (d.category.empty() ? "UNEXPLAINED" : "explained: " + d.category) << "\n";
      if (d.category.empty())
        ++unexplained;
      else
        ++explained[d.category];
    }
    if ((seed - first + 1) % 100 == 0)
      std::cout << (seed - first + 1) << " programs run, " << agreed << " agree\n" << std::flush;
  }
  std::cout << recorded << " programs, " << agreed << " agree, " << recorded - agreed
            << " differ: " << unexplained << " unexplained";
  for (const auto& [category, n] : explained) std::cout << ", " << n << " " << category;
  if (rejected)
    std::cout << " (" << rejected << " more not recorded: refused or faulted on the GPU)";
  if (ptxasCrashes) std::cout << " (" << ptxasCrashes << " not run: ptxas crashed on them)";
  if (stoppedAt && stoppedAt + 1 < first + count)
    std::cout << "; stopped after seed " << stoppedAt
              << " (a GPU fault leaves the process's CUDA context unusable): continue with --seed "
              << stoppedAt + 1 << " --count " << first + count - stoppedAt - 1;
  std::cout << "\n";
  return unexplained == 0 && !rejected ? kOk : kFailed;
}

int isaReplayCommand(const std::vector<std::string>& args) {
  return replayCommandFor(args, {"isa-replay", kReplayUsage, "tests/recorded/isa", ".isacase",
                                 "ISA cases", [](const std::string& path) {
                                   const auto r = ptxgen::replayIsaCase(ptxgen::readIsaCase(path));
                                   return r.ok ? std::string() : r.message;
                                 }});
}

int isaTraceCommand(const std::vector<std::string>& args) {
  po::options_description opts("isa-trace options");
  opts.add_options()("help,h", "show this help")("seed", po::value<uint64_t>(), "the program")(
      "thread", po::value<unsigned>()->default_value(0), "the global thread")(
      "match", po::value<std::string>()->default_value(""), "instructions containing this");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kTraceUsage, "isa-trace")) return kUsage;
  if (vm.count("help")) {
    std::cout << kTraceUsage << "\n" << opts;
    return kOk;
  }
  if (!vm.count("seed")) {
    std::cerr << "warpsim isa-trace: missing --seed\n" << kTraceUsage;
    return kUsage;
  }
  const uint64_t seed = vm["seed"].as<uint64_t>();
  const unsigned thread = vm["thread"].as<unsigned>();
  const ptxgen::GeneratedProgram g = ptxgen::generateProgram(seed);
  if (thread >= g.threads()) {
    std::cerr << "warpsim isa-trace: --thread: program " << seed << " has " << g.threads()
              << " threads\n";
    return kUsage;
  }
  const ptxgen::TracedProgram t = ptxgen::traceProgram(g.ptx, g.words);
  sim::LaunchOptions o;
  o.threads = 1;
  const auto simulator = harness::makeSimBackend(o);
  const ptxgen::IsaRun r = ptxgen::runTraced(*simulator, t, ptxgen::caseFor(g, stem(seed) + ".ptx"),
                                             ptxgen::makeInputs(seed, g.inputs, g.threads()));
  if (r.fault) {
    std::cerr << "warpsim isa-trace: " << r.fault->describe("traced.ptx") << "\n";
    return kFailed;
  }
  const std::string match = vm["match"].as<std::string>();
  std::cout << "program " << seed << ", thread " << thread % g.blockSize << " of block "
            << thread / g.blockSize << "\n";
  for (size_t k = 0; k < t.entries.size(); ++k) {
    const ptxgen::TraceEntry& e = t.entries[k];
    if (!match.empty() && e.insn.find(match) == std::string::npos) continue;
    const uint64_t v = ptxgen::traceWord(t, r.out, thread, k);
    std::cout << "line " << e.line + 1 << "  " << e.insn << "  "
              << (e.result ? "after " : "before ") << e.reg << " = "
              << ptxgen::formatRegisterWord(e.reg, v) << "\n";
  }
  return kOk;
}

int isaCheckCommand(const std::vector<std::string>& args) {
  po::options_description opts("isa-check options");
  opts.add_options()("help,h", "show this help")("count", po::value<unsigned>()->default_value(100),
                                                 "programs to generate")(
      "seed", po::value<uint64_t>()->default_value(1), "the first program's seed")(
      "approx", "also generate .approx forms")("video", "also generate the video instructions")(
      "contract", "also generate mul + add/sub pairs that ptxas fuses into fma")(
      "mma", "programs of one matrix instruction instead")(
      "wgmma", "programs of one wgmma.mma_async instead")("ptx-dir", po::value<std::string>(),
                                                          "write the programs here");
  po::positional_options_description pos;
  po::variables_map vm;
  if (!parseOptions(args, opts, pos, vm, kCheckUsage, "isa-check")) return kUsage;
  if (vm.count("help")) {
    std::cout << kCheckUsage << "\n" << opts;
    return kOk;
  }
  ptxgen::GenOptions options;
  options.approx = vm.count("approx") > 0;
  options.video = vm.count("video") > 0;
  options.contract = vm.count("contract") > 0;
  options.mma = vm.count("mma") > 0;
  options.wgmma = vm.count("wgmma") > 0;
  std::string dir;
  if (vm.count("ptx-dir")) {
    dir = vm["ptx-dir"].as<std::string>();
    fs::create_directories(dir);
  }
  const uint64_t first = vm["seed"].as<uint64_t>();
  const unsigned count = vm["count"].as<unsigned>();
  unsigned ok = 0;
  size_t bytes = 0, largest = 0;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    const ptxgen::GeneratedProgram g = ptxgen::generateProgram(seed, options);
    bytes += g.ptx.size();
    largest = std::max(largest, g.ptx.size());
    const std::string name = stem(seed) + ".ptx";
    const std::string path = dir.empty() ? name : (fs::path(dir) / name).string();
    if (!dir.empty()) std::ofstream(path) << g.ptx;
    const ptxgen::IsaCase c = ptxgen::caseFor(g, name);
    try {
      const ptxgen::IsaRun r = ptxgen::runIsaInSimulator(
          g.ptx, path, c, ptxgen::makeInputs(seed, g.inputs, g.threads()));
      if (r.fault)
        std::cout << path << ": " << r.fault->describe(path) << "\n";
      else
        ++ok;
    } catch (const std::exception& e) {
      std::cout << path << ": the simulator refused it: " << e.what() << "\n";
    }
  }
  std::cout << count << " programs (" << (count ? bytes / count : 0) << " bytes of PTX on average, "
            << largest << " at most), " << ok << " ran without a fault\n";
  return ok == count ? kOk : kFailed;
}

}  // namespace warpsim::cli
