#include "harness/backend.h"
#include "sim/gpu.h"

namespace warpsim::harness {
namespace {

class SimBackend final : public Backend {
 public:
  SimBackend(const sim::LaunchOptions& o, uint64_t deviceMemory)
      : options_(o), gpu_(deviceMemory) {}
  std::string name() const override { return "sim"; }
  void loadModule(const std::string& ptx, const std::string& path) override {
    module_ = &gpu_.loadPtx(ptx, path);
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
    c.params = gpu_.packParams(*module_, spec.entry, spec.args);
    sim::LaunchResult r = gpu_.launch(*module_, c, options_);
    LaunchOutcome o;
    o.fault = std::move(r.fault);
    o.stats = r.stats;
    o.printfOutput = std::move(r.printfOutput);
    o.seconds = r.seconds;
    o.writes = std::move(r.writes);
    return o;
  }

 private:
  sim::LaunchOptions options_;
  sim::Gpu gpu_;
  const sim::LoadedModule* module_ = nullptr;
};

}  // namespace

std::unique_ptr<Backend> makeSimBackend(const sim::LaunchOptions& options, uint64_t deviceMemory) {
  return std::make_unique<SimBackend>(options, deviceMemory);
}

}  // namespace warpsim::harness
