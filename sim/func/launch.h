// A kernel launch: what to run, how, and what came of it.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "isa/program.h"
#include "sim/func/fault.h"
#include "sim/func/geometry.h"
#include "sim/func/schedule.h"
#include "sim/observer.h"
#include "sim/observers/statistics.h"

namespace warpsim::sim {

// Warp-instructions per warp of a CTA before the watchdog (LaunchOptions::instructionBudget).
constexpr uint64_t kDefaultWarpBudget = uint64_t(1) << 27;

struct LaunchConfig {
  std::string entry;  // the kernel's name in the module
  Dim3 grid, block;
  uint32_t dynamicShared = 0;   // bytes of extern shared memory
  std::vector<uint8_t> params;  // the kernel parameter buffer (see packParams)
  // Thread-block clusters (sim/func/group.h): the cluster shape; x = 0: none given (the
  // kernel's .reqnctapercluster, if any, applies). Up to 8 CTAs, or 16 with
  // `nonPortableCluster` (cudaFuncAttributeNonPortableClusterSizeAllowed).
  Dim3 cluster{0, 0, 0};
  bool nonPortableCluster = false;
  // A cooperative launch (cuLaunchCooperativeKernel): every CTA resident at once, so the grid
  // must fit the chip (smCount x CTAs per SM for `registersPerThread`, 0: 32 assumed), and
  // cg::this_grid().sync() finds its workspace.
  bool cooperative = false;
  uint32_t registersPerThread = 0;
};

class GridRunner;

struct LaunchOptions {
  unsigned threads = 0;  // host threads for CTAs; 0 = every core
  bool serial = false;   // CTAs one at a time in order: deterministic float atomics
  // The watchdog. A CTA that issues more than `instructionBudget` warp-instructions (0: 2^27,
  // about 134 million, per warp of the CTA) is taken to be stuck in a loop and stopped with a
  // Watchdog fault: a count, so the same CTA is stopped at the same instruction on any host.
  // A launch that runs longer than `timeLimit` seconds of wall time (0: no limit) is stopped
  // too, and so is one whose `interrupt` flag is set (Ctrl-C in the command line).
  uint64_t instructionBudget = 0;
  double timeLimit = 600;
  const std::atomic<bool>* interrupt = nullptr;
  uint32_t warpSlice = 2048;  // warp-instructions a warp runs before the next is picked
  // Byte addresses (sorted) whose writers to report: `warpsim diff` asks who wrote the
  // elements that differ. Empty: nothing is tracked, and stores pay nothing for it.
  std::vector<uint64_t> watch;
  // Count LaunchResult::stats (an observer of every instruction and access). Off, and with no
  // watch and no observers, the core builds no events at all.
  bool statistics = true;
  // Further analyses, each made per CTA and merged in CTA order (sim/observer.h); not owned.
  std::vector<ObserverFactory*> observers;
  // Runs the launch's CTAs in place of the functional driver (sim/func/grid.h): the timing
  // model (sim/timing/timing_model.h). Not owned; null = the functional driver.
  GridRunner* runner = nullptr;

  // An out-of-bounds or misaligned load, store or atomic goes to the observers
  // (Observer::invalidAccess) and is skipped, instead of stopping the CTA: what `warpsim check`
  // uses to report every invalid access (up to a million per CTA, then the next one faults).
  // Needs an observer; off, every such access faults.
  bool recoverInvalidAccess = false;

  // The call stack (sim/func/call_stack.h): bytes per thread, as cudaLimitStackSize (CUDA's
  // default 1 KiB), checked for kernels that reach recursion; a call past it is a stack-overflow
  // fault. `frameBytes`: ptxas's stack frame per function name, when the harness ran ptxas
  // (otherwise each frame is estimated from the PTX).
  uint64_t stackSize = 1024;
  std::map<std::string, uint32_t> frameBytes;

  // Read when a backend loads a module (harness::makeSimBackend), not per launch: fuse the
  // mul + add pairs that ptxas fuses, so results round as on the chip (isa/contract.h). Off
  // (`--no-contract`), each PTX instruction rounds on its own, as PTX literally says.
  bool contract = true;

  // Schedule exploration (sim/func/schedule.h): CTAs one at a time in a drawn order, warps and
  // divergent paths in drawn orders. Unset: the functional driver's fixed order, at full speed.
  std::optional<SchedulePolicy> schedule;
  // The device heap's size, as cudaDeviceSetLimit(cudaLimitMallocHeapSize) (8 MiB by default,
  // as on the chip): read by the first launch of a kernel that calls malloc or free, which makes
  // the program's heap (sim/func/device_heap.h); later values are ignored, as CUDA ignores a
  // limit set after the heap exists.
  uint64_t mallocHeapSize = 8ull << 20;
  // cudaLimitDevRuntimePendingLaunchCount: device-side launches made and not yet started
  // (sim/func/device_launch.h); one more returns cudaErrorLaunchPendingCountExceeded.
  uint32_t pendingLaunchLimit = 2048;
};

// A store or atomic that wrote a watched address.
struct WriteRecord {
  uint64_t address = 0;
  ThreadPos thread, cta;
  uint32_t ptxLine = 0;
};

struct LaunchResult {
  Stats stats;                     // with LaunchOptions::statistics
  std::optional<FaultInfo> fault;  // the first fault (lowest CTA index when several)
  // CTAs 0 .. ctasRun-1 ran. After a fault, the CTAs of its batch of 4096 all run to their end
  // and no later CTA starts, whatever the host thread count. After the watchdog, a time limit
  // or an interrupt (a CTA that does not end), CTAs after the reported one may have stopped
  // part-way: ctasRun counts up to the reported CTA.
  uint64_t ctasRun = 0;
  std::string printfOutput;         // every printf line, CTA by CTA
  double seconds = 0;               // host wall time of the launch
  std::vector<WriteRecord> writes;  // of watched addresses, in CTA order (the last one won)
  // Grids launched from the device (dynamic parallelism) that ran, with all their descendants;
  // their printf text follows the parent's in printfOutput, their statistics add to `stats`
  // (as the timing model's prediction adds their cycles) and their first fault is `fault` when
  // the parent had none. ctasRun is the host-launched grid's alone.
  uint64_t childGrids = 0;
};

struct LaunchContext;

// Something that runs every CTA of a checked launch and reports like runGrid does.
class GridRunner {
 public:
  virtual ~GridRunner() = default;
  virtual LaunchResult run(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories) = 0;
};

// The hardware limits a launch is checked against (an H200, compute capability 9.0).
struct DeviceLimits {
  uint32_t maxThreadsPerBlock = 1024;
  uint32_t maxBlockDim[3] = {1024, 1024, 64};
  uint32_t maxGridDim[3] = {0x7FFFFFFF, 65535, 65535};
  uint32_t maxStaticShared = 48 * 1024;
  uint32_t maxSharedPerBlock = 227 * 1024;  // with the opt-in attribute
  uint32_t maxParamBytes = 32764;
  uint32_t smCount = 132;
  uint32_t maxWarpsPerSm = 64;
};

}  // namespace warpsim::sim
