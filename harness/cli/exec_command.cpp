// warpsim exec [OPTIONS] PROGRAM [ARGS...]: runs an unmodified CUDA program on the simulator by
// putting the simulator's libcuda.so.1 first on the loader's path. The options reach that
// library (harness/driver/) through WARPSIM_EXEC_* variables; the program runs as a child so
// that warpsim can read what the checkers found once it has exited (the exit status of
// `warpsim check`).
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "harness/arg_spec.h"
#include "harness/cli/cli.h"
#include "harness/cli/command_line.h"
#include "harness/cli/timing_options.h"
#include "sim/check/session.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

constexpr const char* kExecUsage = R"(usage: warpsim exec [OPTIONS] [--] PROGRAM [ARGS...]

Runs a CUDA program built by nvcc on the simulator instead of a GPU: the program's CUDA runtime
finds warpsim's libcuda.so.1 (an H200 with compute capability 9.0) and every kernel runs in the
simulator. The program must embed PTX for compute_90 (or lower): build it with
  nvcc -gencode arch=compute_90,code=compute_90 ...   (add -lineinfo for CUDA lines in faults)
Kernel printf reaches the program's stdout; a kernel fault is reported on stderr with thread,
block and line, and the program's next CUDA call fails as on the GPU (cudaErrorIllegalAddress).

--timing runs every launch on the H200 timing model: one line per launch on stderr (kernel,
grid, predicted cycles and time) and the program's totals per kernel at exit; the program's
cudaEventElapsedTime then returns the predicted time of the launches between the two events.
--check runs every launch under the correctness checkers (--tool: memcheck, racecheck,
initcheck, synccheck or all): a line per launch with its new findings on stderr, and at exit
the compute-sanitizer style report of all launches (findings, "ERROR SUMMARY") on stdout.
--json FILE writes both, per launch and in total, as JSON when the program exits.
Exit status: the program's; 1 when a checker found an error; 2 when warpsim cannot start it.
)";

// Where `cmake --install` puts libcuda.so.1, under the prefix (cmake/install.cmake defines it
// for this file).
#ifndef WARPSIM_INSTALLED_DRIVER_DIR
#define WARPSIM_INSTALLED_DRIVER_DIR "lib/warpsim"
#endif

// Where the simulator's libcuda.so.1 lives: $WARPSIM_DRIVER_DIR, else driver/ beside the
// binary's bin/ directory (the build tree), else the install's library directory.
std::string driverDir() {
  if (const char* dir = std::getenv("WARPSIM_DRIVER_DIR"); dir && *dir) return dir;
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "";
  self[n] = '\0';
  const std::filesystem::path root = std::filesystem::path(self).parent_path().parent_path();
  const std::filesystem::path installed = root / WARPSIM_INSTALLED_DRIVER_DIR;
  if (!std::filesystem::exists(root / "driver" / "libcuda.so.1") &&
      std::filesystem::exists(installed / "libcuda.so.1"))
    return installed.string();
  return (root / "driver").string();
}

po::options_description execOptions() {
  po::options_description opts("exec options");
  opts.add_options()("help,h", "show this help")(
      "threads", po::value<unsigned>()->default_value(0),
      "host threads for a launch's CTAs (0 = every core)")(
      "serial", "CTAs one at a time, in order (deterministic float atomics)")(
      "budget", po::value<uint64_t>(),
      "warp-instructions a CTA may issue before the watchdog stops it (default 2^27 per warp)")(
      "report",
      "one line per launch on stderr (geometry, threads, instructions, time) and the "
      "program's totals at exit")("keep-ptx", po::value<std::string>(),
                                  "write each module's PTX to DIR (fault lines refer to it)")(
      "api-trace",
      "report every driver entry point and private table the program asks for that the "
      "simulator's driver does not provide")(
      "check", "run every launch under the correctness checkers (warpsim check --help)")(
      "tool", po::value<std::string>(),
      "with --check: memcheck, racecheck, initcheck, synccheck or all (default all)")(
      "print-limit", po::value<uint64_t>(), "with --check: findings printed per tool (0 = all)")(
      "json", po::value<std::string>(),
      "write FILE at the program's exit: every launch (kernel, grid, block; with --timing its "
      "prediction under ncu's metric names, with --check its new findings), the totals and the "
      "findings");
  addTimingOptions(opts);
  return opts;
}

// Where warpsim's options end and the program's command line starts: after "--", or at the
// first word that is neither an option nor an option's value.
size_t programStart(const std::vector<std::string>& args, const po::options_description& opts) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") return i + 1;
    if (a.size() < 2 || a[0] != '-') return i;
    if (a[1] != '-' || a.find('=') != std::string::npos) continue;
    const po::option_description* d = opts.find_nothrow(a.substr(2), false);
    if (d && d->semantic()->max_tokens() > 0) ++i;  // its value
  }
  return args.size();
}

// Runs the program as a child with `env` set; its exit status (128 + N when signal N ended it).
int runChild(const std::vector<std::string>& command,
             const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<char*> argv;
  for (const std::string& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  // Ctrl-C reaches the program (the terminal signals the whole process group): the program
  // decides, and warpsim reports what it did.
  struct sigaction ignore {
  }, oldInt{}, oldQuit{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &oldInt);
  sigaction(SIGQUIT, &ignore, &oldQuit);
  const pid_t child = fork();
  if (child == 0) {
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGQUIT, &oldQuit, nullptr);
    for (const auto& [name, v] : env) setenv(name.c_str(), v.c_str(), 1);
    execvp(argv[0], argv.data());
    std::cerr << "warpsim exec: cannot run '" << command[0] << "': " << std::strerror(errno)
              << "\n";
    _exit(kUsage);
  }
  int status = 0;
  pid_t waited = -1;
  if (child > 0) do
      waited = waitpid(child, &status, 0);
    while (waited < 0 && errno == EINTR);
  sigaction(SIGINT, &oldInt, nullptr);
  sigaction(SIGQUIT, &oldQuit, nullptr);
  if (child < 0 || waited < 0) {
    std::cerr << "warpsim exec: cannot start '" << command[0] << "': " << std::strerror(errno)
              << "\n";
    return kUsage;
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// The checkers' errors that the program's CUDA processes wrote at their exit, summed (a script
// may run several); 0 when none wrote (nothing launched, or no normal exit).
uint64_t checkErrors(const std::string& resultFile) {
  std::ifstream in(resultFile);
  std::string key;
  uint64_t n = 0, total = 0;
  while (in >> key >> n)
    if (key == "errors") total += n;
  return total;
}

}  // namespace

int execCommand(const std::vector<std::string>& args) {
  const po::options_description opts = execOptions();
  const size_t start = programStart(args, opts);
  std::vector<std::string> own(args.begin(), args.begin() + std::ptrdiff_t(start));
  if (!own.empty() && own.back() == "--") own.pop_back();
  po::variables_map vm;
  if (!parseOptions(own, opts, po::positional_options_description(), vm, kExecUsage, "exec"))
    return kUsage;
  if (vm.count("help")) {
    std::cout << kExecUsage << "\n" << opts;
    return kOk;
  }
  std::vector<std::pair<std::string, std::string>> env;
  try {
    env.emplace_back("WARPSIM_EXEC_THREADS", std::to_string(hostThreads(vm)));
    if (vm.count("budget"))
      env.emplace_back("WARPSIM_EXEC_BUDGET", std::to_string(vm["budget"].as<uint64_t>()));
    if (vm.count("keep-ptx")) {
      const std::string dir = vm["keep-ptx"].as<std::string>();
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      if (ec) throw harness::ArgError("--keep-ptx: cannot create " + dir);
      env.emplace_back("WARPSIM_EXEC_KEEP_PTX", dir);
    }
    if (vm.count("serial")) env.emplace_back("WARPSIM_EXEC_SERIAL", "1");
    if (vm.count("report")) env.emplace_back("WARPSIM_EXEC_REPORT", "1");
    if (vm.count("api-trace")) env.emplace_back("WARPSIM_EXEC_TRACE", "1");
    // The configuration is read here first so that a bad file is a usage error naming it.
    if (const auto timing = timingFrom(vm)) {
      if (printTimingConfig(vm))
        std::cerr << "timing configuration:\n" << sim::timing::formatTimingConfig(*timing);
      env.emplace_back("WARPSIM_EXEC_TIMING", "1");
      if (vm.count("timing-config"))
        env.emplace_back("WARPSIM_EXEC_TIMING_CONFIG",
                         std::filesystem::absolute(vm["timing-config"].as<std::string>()));
    }
    // The timing options' --trace FILE (a timeline of one kernel) has no whole-program form
    // yet: refused rather than ignored. --api-trace is exec's trace of driver entry points.
    if (vm.count("trace"))
      throw harness::ArgError(
          "--trace: exec writes no timeline trace of a program yet (--api-trace lists the "
          "driver entry points the program asked for that warpsim lacks)");
    if ((vm.count("tool") || vm.count("print-limit")) && !vm.count("check"))
      throw harness::ArgError("--tool and --print-limit go with --check");
    if (vm.count("json"))
      env.emplace_back("WARPSIM_EXEC_JSON",
                       std::filesystem::absolute(vm["json"].as<std::string>()).string());
    if (vm.count("check")) {
      const std::string tool = vm.count("tool") ? vm["tool"].as<std::string>() : "all";
      if (!check::ToolSet::parse(tool))
        throw harness::ArgError("--tool '" + tool +
                                "': expected memcheck, racecheck, initcheck, synccheck or all");
      env.emplace_back("WARPSIM_EXEC_CHECK", tool);
      if (vm.count("print-limit"))
        env.emplace_back("WARPSIM_EXEC_PRINT_LIMIT",
                         std::to_string(vm["print-limit"].as<uint64_t>()));
    }
  } catch (const harness::ArgError& e) {
    std::cerr << "warpsim exec: " << e.what() << "\n";
    return kUsage;
  }
  if (start >= args.size()) {
    std::cerr << "warpsim exec: no program given\n" << kExecUsage;
    return kUsage;
  }
  const std::string dir = driverDir();
  if (!std::filesystem::exists(std::filesystem::path(dir) / "libcuda.so.1")) {
    std::cerr << "warpsim exec: the simulator's libcuda.so.1 is not in '" << dir
              << "' (build the warpsim_cuda target, or set WARPSIM_DRIVER_DIR)\n";
    return kUsage;
  }
  const char* old = std::getenv("LD_LIBRARY_PATH");
  env.emplace_back("LD_LIBRARY_PATH", old && *old ? dir + ":" + old : dir);
  // The driver writes the checkers' error count here at the program's exit.
  std::string resultFile;
  if (vm.count("check")) {
    char path[] = "/tmp/warpsim-exec-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) {
      std::cerr << "warpsim exec: cannot create a file in /tmp: " << std::strerror(errno) << "\n";
      return kUsage;
    }
    close(fd);
    resultFile = path;
    env.emplace_back("WARPSIM_EXEC_RESULT", resultFile);
  }
  const int status =
      runChild(std::vector<std::string>(args.begin() + std::ptrdiff_t(start), args.end()), env);
  if (resultFile.empty()) return status;
  const uint64_t errors = checkErrors(resultFile);
  std::filesystem::remove(resultFile);
  return errors ? kFailed : status;
}

}  // namespace warpsim::cli
