// warpsim: a GPU kernel simulator and verification harness for PTX.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "harness/build_info.h"
#include "harness/cli/cli.h"

namespace {

constexpr const char* kUsage = R"(usage: warpsim COMMAND [OPTIONS]

Commands:
  run FILE.cu|FILE.ptx ...   run one kernel in the simulator (warpsim run --help)
  suite [PATTERN]            run the kernel suite against its CPU references
  bench [PATTERN]            simulator speed: thread-instructions per second
  diff CARD | FILE ...       the same kernel on the simulator and the GPU, outputs compared
  record [PATTERN]           run suite cases on the GPU and write them as replayable data
  replay [DIR]...            replay recorded GPU cases in the simulator
  isa-record --out DIR       random ISA programs on the GPU and the simulator, recorded
  isa-replay [DIR]...        replay recorded ISA programs in the simulator
  isa-check                  random ISA programs in the simulator only (no GPU)
  isa-trace --seed S         one generated program's trace (operands and results) in the simulator
  approx-measure             the .approx forms over large input sets, GPU against simulator
  approx-replay [DIR]...     replay the committed .approx samples in the simulator
  exec PROGRAM [ARGS]...     run an unmodified CUDA program (built by nvcc) on the simulator
  measure [PATTERN]          suite launches on the GPU at a ladder of sizes, for Nsight Compute
  correlate [PATTERN]        the timing model's cycles against those measured on the H200
  check FILE ...             run one kernel under memcheck, racecheck, initcheck, synccheck
  fastmath-verify            the fast-math models against the H200's hashes of every input
  fastmath-exceptions F T    a 16-bit form's exception list from the chip's table

Every command takes --help; warpsim --version names the build's commit and CUDA toolkit.
Exit status: 0 ok, 1 kernel fault or wrong result, 2 bad input or usage.
)";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      !std::strcmp(argv[1], "help")) {
    std::cout << kUsage;
    return argc < 2 ? warpsim::cli::kUsage : warpsim::cli::kOk;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::cout << "warpsim (git " << warpsim::build::kGitCommit << "), CUDA toolkit "
              << warpsim::build::kCudaVersion << " (" << warpsim::build::kNvcc << ")\n";
    return warpsim::cli::kOk;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "run") return warpsim::cli::runCommand(args);
    if (command == "suite") return warpsim::cli::suiteCommand(args);
    if (command == "bench") return warpsim::cli::benchCommand(args);
    if (command == "diff") return warpsim::cli::diffCommand(args);
    if (command == "record") return warpsim::cli::recordCommand(args);
    if (command == "replay") return warpsim::cli::replayCommand(args);
    if (command == "isa-record") return warpsim::cli::isaRecordCommand(args);
    if (command == "isa-replay") return warpsim::cli::isaReplayCommand(args);
    if (command == "isa-check") return warpsim::cli::isaCheckCommand(args);
    if (command == "isa-trace") return warpsim::cli::isaTraceCommand(args);
    if (command == "approx-measure") return warpsim::cli::approxMeasureCommand(args);
    if (command == "approx-replay") return warpsim::cli::approxReplayCommand(args);
    if (command == "exec") return warpsim::cli::execCommand(args);
    if (command == "measure") return warpsim::cli::measureCommand(args);
    if (command == "correlate") return warpsim::cli::correlateCommand(args);
    if (command == "check") return warpsim::cli::checkCommand(args);
    if (command == "fastmath-verify") return warpsim::cli::fastmathVerifyCommand(args);
    if (command == "fastmath-exceptions") return warpsim::cli::fastmathExceptionsCommand(args);
  } catch (const std::exception& e) {
    std::cerr << "warpsim " << command << ": " << e.what() << "\n";
    return warpsim::cli::kUsage;
  }
  std::cerr << "warpsim: unknown command '" << command << "'\n" << kUsage;
  return warpsim::cli::kUsage;
}
