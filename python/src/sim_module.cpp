#include "python/src/sim_module.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace warpsim::python {

namespace {

// Host memory spans that overlap, merged: each becomes one device buffer.
struct Span {
  uintptr_t begin = 0, end = 0;
  bool writable = false;
  uint64_t device = 0;
};

// Frees the device buffers of a launch on every way out, exceptions included.
class Buffers {
 public:
  explicit Buffers(sim::DeviceMemory& m) : memory_(m) {}
  ~Buffers() {
    for (uint64_t a : addresses_) memory_.free(a);
  }
  uint64_t allocate(uint64_t bytes) {
    const uint64_t a = memory_.allocate(std::max<uint64_t>(bytes, 1), "numpy array argument");
    addresses_.push_back(a);
    return a;
  }

 private:
  sim::DeviceMemory& memory_;
  std::vector<uint64_t> addresses_;
};

}  // namespace

SimModule::SimModule(const std::string& ptx, const std::string& path, uint64_t deviceMemory,
                     bool contract)
    : path_(path), gpu_(deviceMemory) {
  module_ = &gpu_.loadPtx(ptx, path, isa::LowerOptions{contract});
  kernels_ = harness::kernelSignatures(module_->ir);
}

std::string SimModule::find(const std::string& name) const {
  return harness::findKernel(module_->ir, name, path_).name;
}

std::vector<uint8_t> SimModule::readVariable(const std::string& name) {
  const std::lock_guard<std::mutex> lock(launching_);
  const auto& [address, bytes] = module_->variables.at(name);
  std::vector<uint8_t> out(bytes);
  gpu_.memory().copyOut(out.data(), address, bytes);
  return out;
}

void SimModule::writeVariable(const std::string& name, const void* data, uint64_t bytes) {
  const std::lock_guard<std::mutex> lock(launching_);
  const auto& [address, size] = module_->variables.at(name);
  if (bytes != size)
    throw std::length_error("variable '" + name + "' holds " + std::to_string(size) + " bytes; " +
                            std::to_string(bytes) + " given");
  gpu_.memory().copyIn(address, data, bytes);
}

const harness::PtxasResources& SimModule::ptxasResources() {
  std::call_once(ptxasRan_, [this] { ptxas_ = harness::ptxasResources(ptx()); });
  return ptxas_;
}

sim::LaunchResult SimModule::launch(const LaunchRequest& request) {
  const std::lock_guard<std::mutex> lock(launching_);
  std::vector<Span> spans;
  for (const HostArg& a : request.args)
    if (a.isArray) {
      const auto b = reinterpret_cast<uintptr_t>(a.data);
      spans.push_back({b, b + a.bytes, a.writable, 0});
    }
  std::sort(spans.begin(), spans.end(),
            [](const Span& x, const Span& y) { return x.begin < y.begin; });
  std::vector<Span> merged;
  for (const Span& s : spans) {
    if (!merged.empty() && s.begin < merged.back().end) {
      merged.back().end = std::max(merged.back().end, s.end);
      merged.back().writable = merged.back().writable || s.writable;
    } else {
      merged.push_back(s);
    }
  }
  sim::DeviceMemory& memory = gpu_.memory();
  Buffers buffers(memory);
  for (Span& s : merged) {
    s.device = buffers.allocate(s.end - s.begin);
    memory.copyIn(s.device, reinterpret_cast<const void*>(s.begin), s.end - s.begin);
  }
  std::vector<std::vector<uint8_t>> params;
  for (const HostArg& a : request.args) {
    if (!a.isArray) {
      params.push_back(a.scalar);
      continue;
    }
    const auto b = reinterpret_cast<uintptr_t>(a.data);
    const Span& s = *std::find_if(merged.begin(), merged.end(),
                                  [&](const Span& m) { return b >= m.begin && b <= m.end; });
    const uint64_t pointer = s.device + (b - s.begin);
    std::vector<uint8_t> p(8);
    std::memcpy(p.data(), &pointer, 8);
    params.push_back(std::move(p));
  }
  sim::LaunchConfig config;
  config.entry = request.entry;
  config.grid = request.grid;
  config.block = request.block;
  config.dynamicShared = request.dynamicShared;
  config.cluster = request.cluster;
  config.cooperative = request.cooperative;
  config.registersPerThread = request.registersPerThread;
  config.params = gpu_.packParams(*module_, request.entry, params);
  sim::LaunchResult result = gpu_.launch(*module_, config, request.options);
  for (const Span& s : merged)
    if (s.writable) memory.copyOut(reinterpret_cast<void*>(s.begin), s.device, s.end - s.begin);
  return result;
}

}  // namespace warpsim::python
