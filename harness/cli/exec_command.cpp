// warpsim exec [OPTIONS] PROGRAM [ARGS...]: runs an unmodified CUDA program on the simulator by
// putting the simulator's libcuda.so.1 first on the loader's path; the program's exit status is
// warpsim's.
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "harness/cli/cli.h"

namespace warpsim::cli {

namespace {

constexpr const char* kExecUsage = R"(usage: warpsim exec [OPTIONS] [--] PROGRAM [ARGS...]

Runs a CUDA program built by nvcc on the simulator instead of a GPU: the program's CUDA runtime
finds warpsim's libcuda.so.1 (an H200 with compute capability 9.0) and every kernel runs in the
simulator. The program must embed PTX for compute_90 (or lower): build it with
  nvcc -gencode arch=compute_90,code=compute_90 ...   (add -lineinfo for CUDA lines in faults)
Kernel printf reaches the program's stdout; a kernel fault is reported on stderr with thread,
block and line, and the program's next CUDA call fails as on the GPU (cudaErrorIllegalAddress).
Exit status: the program's (2 when warpsim cannot start it).

Options:
  --threads N     host threads for a launch's CTAs (default: every core)
  --serial        CTAs one at a time, in order (deterministic float atomics)
  --budget N      warp-instructions a CTA may issue before the watchdog stops it (default
                  2^27 per warp of the CTA)
  --report        one line per launch on stderr (geometry, threads, instructions, time), and
                  the program's totals at exit
  --keep-ptx DIR  write each module's PTX to DIR (the PTX lines of fault reports refer to it)
  --trace         report every driver entry point and private table the program asks for that
                  the simulator's driver does not provide
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

}  // namespace

int execCommand(const std::vector<std::string>& args) {
  std::vector<std::pair<std::string, std::string>> env;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.empty() || a[0] != '-') break;
    if (a == "--help" || a == "-h") {
      std::cout << kExecUsage;
      return kOk;
    }
    auto value = [&](const char* var, bool number) {
      if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
      const std::string& v = args[++i];
      if (number && (v.empty() || v.find_first_not_of("0123456789") != std::string::npos))
        throw std::invalid_argument(a + " takes a number, not '" + v + "'");
      env.emplace_back(var, v);
    };
    if (a == "--threads") {
      value("WARPSIM_EXEC_THREADS", true);
    } else if (a == "--budget") {
      value("WARPSIM_EXEC_BUDGET", true);
    } else if (a == "--keep-ptx") {
      value("WARPSIM_EXEC_KEEP_PTX", false);
      std::error_code ec;
      std::filesystem::create_directories(env.back().second, ec);
      if (ec) throw std::invalid_argument("--keep-ptx: cannot create " + env.back().second);
    } else if (a == "--serial") {
      env.emplace_back("WARPSIM_EXEC_SERIAL", "1");
    } else if (a == "--report") {
      env.emplace_back("WARPSIM_EXEC_REPORT", "1");
    } else if (a == "--trace") {
      env.emplace_back("WARPSIM_EXEC_TRACE", "1");
    } else {
      std::cerr << "warpsim exec: unknown option '" << a << "'\n" << kExecUsage;
      return kUsage;
    }
  }
  if (i >= args.size()) {
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
  const std::string path = old && *old ? dir + ":" + old : dir;
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  for (const auto& [name, v] : env) setenv(name.c_str(), v.c_str(), 1);
  std::vector<char*> argv;
  for (size_t k = i; k < args.size(); ++k) argv.push_back(const_cast<char*>(args[k].c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  execvp(argv[0], argv.data());
  std::cerr << "warpsim exec: cannot run '" << args[i] << "': " << std::strerror(errno) << "\n";
  return kUsage;
}

}  // namespace warpsim::cli
