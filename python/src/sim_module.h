// The simulator behind one Python `warpsim.Module`: a simulated GPU with one PTX module loaded,
// its kernels, and launches whose array arguments are host memory (numpy arrays) copied to
// device buffers before the launch and back after it. Free of Python: bindings.cpp converts.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "harness/kernel_lookup.h"
#include "harness/ptxas_resources.h"
#include "sim/func/launch.h"
#include "sim/gpu.h"

namespace warpsim::python {

// One kernel argument: a scalar's bytes, or host memory standing for an array (a device
// pointer in the kernel). Arrays whose memory overlaps (the same array twice, or two views of
// one) share one device buffer, so the kernel sees the aliasing it would see on a GPU.
struct HostArg {
  bool isArray = false;
  std::vector<uint8_t> scalar;  // !isArray: exactly the parameter's bytes
  void* data = nullptr;         // isArray: contiguous host memory
  uint64_t bytes = 0;
  bool writable = true;  // false: copied in, never back (a read-only numpy array)
};

struct LaunchRequest {
  std::string entry;  // the kernel's PTX name (SimModule::find resolves user names)
  sim::Dim3 grid, block;
  uint32_t dynamicShared = 0;
  sim::Dim3 cluster{0, 0, 0};  // x = 0: no cluster shape given
  bool cooperative = false;
  uint32_t registersPerThread = 0;  // ptxas's, for the cooperative fit (0: 32 assumed)
  std::vector<HostArg> args;
  sim::LaunchOptions options;
};

class SimModule {
 public:
  // Loads the PTX (isa::PtxError on bad PTX); `path` names it in diagnostics. `contract`: fuse
  // mul + add/sub pairs as ptxas does (isa/contract.h); false executes the PTX literally.
  SimModule(const std::string& ptx, const std::string& path, uint64_t deviceMemory,
            bool contract = true);

  const std::string& path() const { return path_; }
  const std::string& ptx() const { return module_->ir.text; }
  const std::vector<harness::KernelSignature>& kernels() const { return kernels_; }
  // The PTX name of the kernel `name` denotes (harness::findKernel's rules).
  std::string find(const std::string& name) const;

  // The module's .global/.const variables: PTX name -> (device address, bytes).
  const std::map<std::string, std::pair<uint64_t, uint64_t>>& variables() const {
    return module_->variables;
  }
  // A variable's bytes, and writing them (exactly its size; .const included, as a host may).
  // Throws std::out_of_range for an unknown name, std::length_error for a wrong size.
  std::vector<uint8_t> readVariable(const std::string& name);
  void writeVariable(const std::string& name, const void* data, uint64_t bytes);

  // Copies the arrays in, launches, copies the writable arrays back (after a kernel fault too:
  // the memory as the faulting batch of CTAs left it) and frees the device buffers. Throws
  // sim::LaunchError (geometry, parameter sizes), sim::OutOfDeviceMemory, isa::PtxError (a
  // kernel that cannot run). Launches of one module run one at a time.
  sim::LaunchResult launch(const LaunchRequest& request);

  // Registers and shared memory of the module's kernels as ptxas allocates them, for the
  // timing model's occupancy: ptxas runs on the first call only.
  const harness::PtxasResources& ptxasResources();

 private:
  std::string path_;
  sim::Gpu gpu_;
  const sim::LoadedModule* module_ = nullptr;
  std::vector<harness::KernelSignature> kernels_;
  std::mutex launching_;
  std::once_flag ptxasRan_;
  harness::PtxasResources ptxas_;
};

}  // namespace warpsim::python
