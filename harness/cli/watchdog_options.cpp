#include "harness/cli/watchdog_options.h"

#include <csignal>

#include "harness/arg_spec.h"

namespace po = boost::program_options;

namespace warpsim::cli {

namespace {

// A signal handler can reach only static storage: this flag is the one piece of process-wide
// state, written by the handler and read by the running launch.
std::atomic<bool>& interruptStorage() {
  static std::atomic<bool> flag{false};
  return flag;
}

extern "C" void onInterrupt(int) { interruptStorage().store(true); }

// A thread's stack lives in its local memory: 512 KiB per thread on compute capability 9.0.
constexpr uint64_t kMaxStackSize = 512 * 1024;
// The heap is device memory: no more than the simulator's largest device memory.
constexpr uint64_t kMaxHeapSize = 1ull << 40;

}  // namespace

const std::atomic<bool>* interruptFlag() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C ends the process
    return sigaction(SIGINT, &sa, nullptr) == 0;
  }();
  return installed ? &interruptStorage() : nullptr;
}

void addWatchdogOptions(po::options_description& opts) {
  opts.add_options()("budget", po::value<uint64_t>(),
                     "warp-instructions a CTA may issue before the watchdog stops it as stuck "
                     "(default 2^27 per warp of the CTA)")(
      "time-limit", po::value<double>()->default_value(600),
      "seconds of wall time a launch may take (0 = no limit)")(
      "stack-size", po::value<uint64_t>()->default_value(1024),
      "call stack bytes per thread, as cudaDeviceSetLimit(cudaLimitStackSize): a recursive "
      "call past it is a stack-overflow fault");
  addHeapOption(opts);
}

void addHeapOption(po::options_description& opts) {
  opts.add_options()("malloc-heap-size", po::value<uint64_t>()->default_value(8ull << 20),
                     "device heap bytes for malloc/free in kernels, as cudaDeviceSetLimit("
                     "cudaLimitMallocHeapSize): a malloc that does not fit returns NULL");
}

void applyHeapOption(const po::variables_map& vm, sim::LaunchOptions& lo) {
  lo.mallocHeapSize = vm["malloc-heap-size"].as<uint64_t>();
  if (lo.mallocHeapSize > kMaxHeapSize)
    throw harness::ArgError("--malloc-heap-size " + std::to_string(lo.mallocHeapSize) +
                            ": expected 0 to " + std::to_string(kMaxHeapSize) +
                            " bytes (it comes out of the device memory, --device-memory)");
}

void applyWatchdogOptions(const po::variables_map& vm, sim::LaunchOptions& lo) {
  if (vm.count("budget")) {
    lo.instructionBudget = vm["budget"].as<uint64_t>();
    if (lo.instructionBudget == 0) throw harness::ArgError("--budget must be at least 1");
  }
  const double limit = vm["time-limit"].as<double>();
  if (!(limit >= 0) || limit > 1e9)
    throw harness::ArgError("--time-limit must be a number of seconds from 0 to 1e9");
  lo.timeLimit = limit;
  lo.stackSize = vm["stack-size"].as<uint64_t>();
  if (lo.stackSize > kMaxStackSize)
    throw harness::ArgError("--stack-size " + std::to_string(lo.stackSize) + ": expected 0 to " +
                            std::to_string(kMaxStackSize) +
                            " bytes (a thread's 512 KiB of local memory)");
  lo.interrupt = interruptFlag();
  applyHeapOption(vm, lo);
}

}  // namespace warpsim::cli
