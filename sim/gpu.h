// The simulated GPU: device memory, loaded modules, launches. The entry point for everything
// that runs PTX in the simulator (CLI, tests, harness backends).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "isa/contract.h"
#include "isa/ir.h"
#include "isa/program.h"
#include "sim/func/device_heap.h"
#include "sim/func/device_launch.h"
#include "sim/func/grid_executor.h"
#include "sim/func/launch.h"
#include "sim/func/memory.h"

namespace warpsim::sim {

// A module parsed, its globals allocated and initialized, its functions lowered.
struct LoadedModule {
  ir::Module ir;
  isa::Program program;
  // Each .global and .const variable's device address and size in bytes, by PTX name (for a
  // host that reads or writes them: the Python module's Module.get_global/set_global).
  std::map<std::string, std::pair<uint64_t, uint64_t>> variables;
};

// A user error in a launch (bad geometry, too much shared memory, unknown kernel, wrong
// parameter size): a clear message naming what is wrong.
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Gpu {
 public:
  // `deviceMemory`: the bytes of device memory allocations may hold (see
  // kDefaultDeviceMemoryBytes); beyond it allocate() throws OutOfDeviceMemory.
  explicit Gpu(uint64_t deviceMemory = kDefaultDeviceMemoryBytes) : memory_(deviceMemory) {}
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  DeviceMemory& memory() { return memory_; }
  // The device heap of malloc and free, once a kernel that calls them was launched; else null.
  const DeviceHeap* heap() const { return heap_ ? &*heap_ : nullptr; }
  const DeviceLimits& limits() const { return limits_; }

  // Parses (throws isa::PtxError), allocates module variables (a variable that does not fit
  // the device memory is a PtxError at its declaration), lowers. The module stays valid as long
  // as the Gpu. A function that cannot be lowered (an unsupported construct) does not reject
  // the module: launching a kernel that reaches it throws that isa::PtxError, naming the kernel
  // (packParams and launch both check).
  // `options` says how it is lowered (isa/lower.h): contraction on by default.
  const LoadedModule& loadPtx(const std::string& text, const std::string& path,
                              const isa::LowerOptions& options = {});

  // Packs kernel arguments (each the bytes of one parameter, in order) per the entry's .param
  // layout. Throws LaunchError when the count or a size does not match, isa::PtxError when the
  // kernel cannot run.
  std::vector<uint8_t> packParams(const LoadedModule& m, const std::string& entry,
                                  const std::vector<std::vector<uint8_t>>& args) const;

  // Checks the launch against the device limits (throws LaunchError) and runs it.
  LaunchResult launch(const LoadedModule& m, const LaunchConfig& config,
                      const LaunchOptions& options = {});

 private:
  // The entry named `entry`: LaunchError when there is none, its isa::PtxError when it or a
  // function it calls could not be lowered.
  static const isa::FunctionCode& runnableEntry(const LoadedModule& m, const std::string& entry);
  void initializeGlobal(const ir::Module& m, const ir::VarDecl& v, uint64_t address);
  // The heap for a launch of a kernel in `m` that calls malloc or free (made at the first such
  // launch, `heapBytes` large), else null.
  DeviceHeap* heapFor(const LoadedModule& m, uint64_t heapBytes);
  // The device-launch arena when a kernel of `m` launches kernels (made at the first launch).
  DeviceLaunchArena* launchArenaFor(const LoadedModule& m, uint32_t pendingLimit);
  // Runs a checked launch of `fn` and then the grids it launched from the device, depth first.
  LaunchResult run(const LoadedModule& m, const isa::FunctionCode& fn, const LaunchConfig& config,
                   const LaunchOptions& options, uint32_t depth);
  DeviceMemory memory_;
  std::optional<DeviceHeap> heap_;
  std::optional<DeviceLaunchArena> launchArena_;
  DeviceLimits limits_;
  // Never unloaded: the executor's kept CTAs know their frames by function (Cta::restart).
  std::vector<std::unique_ptr<LoadedModule>> modules_;
  GridExecutor executor_;  // the host threads of the launches, one launch at a time
  uint32_t launches_ = 0;
};

}  // namespace warpsim::sim
