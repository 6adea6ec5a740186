#include "harness/backend.h"
#include "harness/ptxas_resources.h"
#include "sim/func/call_stack.h"
#include "sim/gpu.h"
#include "sim/timing/timing_model.h"

namespace warpsim::harness {
namespace {

class SimBackend final : public Backend {
 public:
  SimBackend(const sim::LaunchOptions& o, uint64_t deviceMemory,
             const sim::timing::TimingConfig* timing = nullptr)
      : options_(o), gpu_(deviceMemory) {
    if (timing) {
      timing_.emplace(*timing);
      options_.runner = &*timing_;
    }
  }
  std::string name() const override { return "sim"; }
  void loadModule(const std::string& ptx, const std::string& path) override {
    module_ = &gpu_.loadPtx(ptx, path, isa::LowerOptions{options_.contract});
    ptx_ = ptx;
    registers_.reset();
    const bool recursive = sim::hasRecursion(module_->program);
    options_.frameBytes.clear();
    if (!timing_ && !recursive) return;
    // Registers and shared memory as ptxas allocates them, and the stack frames of a module
    // with recursion (sim/func/call_stack.h; without ptxas they are estimated from the PTX);
    // for the timing model, the SASS's fixed stalls too (ptxas.sass_stalls).
    const PtxasResources r = ptxasResources(ptx, timing_ && timing_->config().ptxasSassStalls);
    if (recursive) options_.frameBytes = r.stackFrames;
    if (timing_) {
      timing_->clearResources();
      timing_->setFallbackNote(r.error);
      for (const auto& [entry, res] : r.kernels) timing_->setResources(entry, res);
    }
  }
  uint64_t allocate(uint64_t bytes, const std::string& label) override {
    return gpu_.memory().allocate(bytes, label);
  }
  void free(uint64_t address) override { gpu_.memory().free(address); }
  void copyIn(uint64_t dst, const void* src, uint64_t bytes) override {
    gpu_.memory().copyIn(dst, src, bytes);
  }
  void copyOut(void* dst, uint64_t src, uint64_t bytes) override {
    gpu_.memory().copyOut(dst, src, bytes);
  }
  LaunchOutcome launch(const LaunchSpec& spec) override {
    if (!module_) throw sim::LaunchError("no module loaded");
    sim::LaunchConfig c;
    c.entry = spec.entry;
    c.grid = spec.grid;
    c.block = spec.block;
    c.dynamicShared = spec.dynamicShared;
    c.cluster = spec.cluster;
    c.cooperative = spec.cooperative;
    if (spec.cooperative) c.registersPerThread = registersOf(spec.entry);
    c.params = gpu_.packParams(*module_, spec.entry, spec.args);
    sim::LaunchResult r;
    try {
      r = gpu_.launch(*module_, c, options_);
    } catch (const sim::timing::ConfigError& e) {
      throw sim::LaunchError(e.what());  // a CTA that fits on no SM
    }
    LaunchOutcome o;
    o.fault = std::move(r.fault);
    o.stats = r.stats;
    o.printfOutput = std::move(r.printfOutput);
    o.seconds = r.seconds;
    o.writes = std::move(r.writes);
    if (timing_ && !o.fault) o.timing = timing_->lastReport();
    return o;
  }

 private:
  // ptxas's registers per thread for `entry` (0 when ptxas is not there): what decides whether
  // a cooperative grid fits the chip. ptxas runs once per module, on the first cooperative launch.
  uint32_t registersOf(const std::string& entry) {
    if (!registers_) {
      registers_.emplace();
      for (const auto& [name, k] : ptxasResources(ptx_).kernels) (*registers_)[name] = k.registers;
    }
    auto it = registers_->find(entry);
    return it == registers_->end() ? 0 : it->second;
  }
  std::string ptx_;
  std::optional<std::map<std::string, uint32_t>> registers_;
  sim::LaunchOptions options_;
  std::optional<sim::timing::TimingModel> timing_;
  sim::Gpu gpu_;
  const sim::LoadedModule* module_ = nullptr;
};

}  // namespace

std::unique_ptr<Backend> makeSimBackend(const sim::LaunchOptions& options, uint64_t deviceMemory) {
  return std::make_unique<SimBackend>(options, deviceMemory);
}

std::unique_ptr<Backend> makeTimedSimBackend(const sim::timing::TimingConfig& timing,
                                             const sim::LaunchOptions& options,
                                             uint64_t deviceMemory) {
  return std::make_unique<SimBackend>(options, deviceMemory, &timing);
}

}  // namespace warpsim::harness
