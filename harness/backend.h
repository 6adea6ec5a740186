// A place to run PTX: the simulator here, the real GPU through the CUDA driver API later.
// Both take the very same PTX text, buffers and launches, so results can be compared.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/func/fault.h"
#include "sim/func/launch.h"
#include "sim/func/memory.h"
#include "sim/observers/statistics.h"
#include "sim/timing/config.h"
#include "sim/timing/report.h"

namespace warpsim::harness {

struct LaunchSpec {
  std::string entry;
  sim::Dim3 grid, block;
  uint32_t dynamicShared = 0;
  std::vector<std::vector<uint8_t>> args;  // the bytes of each kernel parameter, in order
  // Cluster shape (x = 0: none; cuLaunchKernelEx's cluster attribute on the GPU) and a
  // cooperative launch (the cooperative attribute).
  sim::Dim3 cluster{0, 0, 0};
  bool cooperative = false;
};

struct LaunchOutcome {
  std::optional<sim::FaultInfo> fault;  // a kernel fault (the launch did not complete)
  sim::Stats stats;                     // simulator only
  std::string printfOutput;
  double seconds = 0;                    // host wall time (simulator) or GPU time (CUDA events)
  std::vector<sim::WriteRecord> writes;  // simulator only: writers of watched addresses
  // Simulator with timing (makeSimBackend with a TimingConfig): the predicted cycles
  // (timing->cycles, comparable to ncu's gpc__cycles_elapsed.max), stalls, caches, occupancy.
  // Empty without timing or when the launch faulted.
  std::optional<sim::timing::TimingReport> timing;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // Loads a module; later launches name its kernels. Throws isa::PtxError on bad PTX.
  virtual void loadModule(const std::string& ptx, const std::string& path) = 0;
  virtual uint64_t allocate(uint64_t bytes, const std::string& label) = 0;
  virtual void free(uint64_t address) = 0;
  virtual void copyIn(uint64_t dst, const void* src, uint64_t bytes) = 0;
  virtual void copyOut(void* dst, uint64_t src, uint64_t bytes) = 0;
  virtual LaunchOutcome launch(const LaunchSpec& spec) = 0;
};

// The simulator as a backend, with `deviceMemory` bytes of device memory (allocations beyond
// it throw sim::OutOfDeviceMemory).
std::unique_ptr<Backend> makeSimBackend(const sim::LaunchOptions& options = {},
                                        uint64_t deviceMemory = sim::kDefaultDeviceMemoryBytes);

// The simulator with the timing model (sim/timing/): every launch runs on the modelled H200
// (all SMs on the calling thread, so `options.threads` does not change the prediction) and its
// LaunchOutcome::timing holds the prediction. loadModule runs `ptxas -arch=sm_90 -v` once on
// the module for registers and shared memory per kernel; without ptxas the report says so and
// uses 32 registers per thread and the PTX's shared memory. For correlation:
//   auto b = makeTimedSimBackend(sim::timing::TimingConfig{});   // or loadTimingConfig(path)
//   b->loadModule(ptx, path); ... LaunchOutcome o = b->launch(spec); o.timing->cycles
std::unique_ptr<Backend> makeTimedSimBackend(
    const sim::timing::TimingConfig& timing, const sim::LaunchOptions& options = {},
    uint64_t deviceMemory = sim::kDefaultDeviceMemoryBytes);

}  // namespace warpsim::harness
