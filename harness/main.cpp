// warpsim: a GPU kernel simulator and verification harness for PTX.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "harness/build_info.h"
#include "harness/cli/cli.h"

namespace {

// Every command, in the order `warpsim --help` lists them: the dispatch and the help come from
// this one table. Each command parses its own options (Boost.Program_options, harness/cli/).
struct Command {
  const char* name;
  const char* synopsis;  // the name with its main arguments, as the help shows it
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

constexpr Command kCommands[] = {
    {"run", "run FILE.cu|FILE.ptx ...", "run one kernel in the simulator (warpsim run --help)",
     warpsim::cli::runCommand},
    {"suite", "suite [PATTERN]", "run the kernel suite against its CPU references",
     warpsim::cli::suiteCommand},
    {"bench", "bench [PATTERN]", "simulator speed: thread-instructions per second",
     warpsim::cli::benchCommand},
    {"diff", "diff CARD | FILE ...",
     "the same kernel on the simulator and the GPU, outputs compared", warpsim::cli::diffCommand},
    {"record", "record [PATTERN]", "run suite cases on the GPU and write them as replayable data",
     warpsim::cli::recordCommand},
    {"replay", "replay [DIR]...", "replay recorded GPU cases in the simulator",
     warpsim::cli::replayCommand},
    {"isa-record", "isa-record --out DIR",
     "random ISA programs on the GPU and the simulator, recorded", warpsim::cli::isaRecordCommand},
    {"isa-replay", "isa-replay [DIR]...", "replay recorded ISA programs in the simulator",
     warpsim::cli::isaReplayCommand},
    {"isa-check", "isa-check", "random ISA programs in the simulator only (no GPU)",
     warpsim::cli::isaCheckCommand},
    {"isa-trace", "isa-trace --seed S",
     "one generated program's trace (operands and results) in the simulator",
     warpsim::cli::isaTraceCommand},
    {"approx-measure", "approx-measure",
     "the .approx forms over large input sets, GPU against simulator",
     warpsim::cli::approxMeasureCommand},
    {"approx-replay", "approx-replay [DIR]...",
     "replay the committed .approx samples in the simulator", warpsim::cli::approxReplayCommand},
    {"exec", "exec PROGRAM [ARGS]...",
     "run an unmodified CUDA program (built by nvcc) on the simulator", warpsim::cli::execCommand},
    {"measure", "measure [PATTERN]",
     "suite launches on the GPU at a ladder of sizes, for Nsight Compute",
     warpsim::cli::measureCommand},
    {"correlate", "correlate [PATTERN]",
     "the timing model's cycles against those measured on the H200",
     warpsim::cli::correlateCommand},
    {"check", "check FILE ...", "run one kernel under memcheck, racecheck, initcheck, synccheck",
     warpsim::cli::checkCommand},
    {"fastmath-verify", "fastmath-verify",
     "the fast-math models against the H200's hashes of every input",
     warpsim::cli::fastmathVerifyCommand},
    {"fastmath-exceptions", "fastmath-exceptions F T",
     "a 16-bit form's exception list from the chip's table",
     warpsim::cli::fastmathExceptionsCommand},
    {"support", "support FILE...", "which kernels of these modules run, and what stops the others",
     warpsim::cli::supportCommand},
    {"link", "link FILE... -o OUT", "link translation units' PTX (nvcc -rdc=true) into one module",
     warpsim::cli::linkCommand},
};

std::string usage() {
  std::string s = "usage: warpsim COMMAND [OPTIONS]\n\nCommands:\n";
  for (const Command& c : kCommands) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-27s%s\n", c.synopsis, c.summary);
    s += line;
  }
  return s +
         "\nEvery command takes --help; warpsim --version names the build's commit and CUDA "
         "toolkit.\nExit status: 0 ok, 1 kernel fault or wrong result, 2 bad input or usage.\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    std::cout << usage();
    return argc < 2 ? warpsim::cli::kUsage : warpsim::cli::kOk;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "warpsim (git " << warpsim::build::kGitCommit << "), CUDA toolkit "
              << warpsim::build::kCudaVersion << " (" << warpsim::build::kNvcc << ")\n";
    return warpsim::cli::kOk;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  for (const Command& c : kCommands) {
    if (command != c.name) continue;
    try {
      return c.run(args);
    } catch (const std::exception& e) {
      std::cerr << "warpsim " << command << ": " << e.what() << "\n";
      return warpsim::cli::kUsage;
    }
  }
  std::cerr << "warpsim: unknown command '" << command << "'\n" << usage();
  return warpsim::cli::kUsage;
}
