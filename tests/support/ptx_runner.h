// Runs small PTX programs in the simulator for tests: load a module, make buffers, launch,
// read buffers back.
//
//   PtxRunner r(kPtx);
//   uint64_t out = r.buffer<uint32_t>(64);
//   auto res = r.launch("k", {1,1,1}, {64,1,1}, {PtxRunner::ptr(out), PtxRunner::u32(64)});
//   auto v = r.read<uint32_t>(out, 64);
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "sim/gpu.h"

namespace warpsim::test {

class PtxRunner {
 public:
  explicit PtxRunner(const std::string& ptx, const std::string& path = "test.ptx",
                     const isa::LowerOptions& lowering = {})
      : module_(&gpu_.loadPtx(ptx, path, lowering)) {}

  template <class T>
  uint64_t buffer(size_t count, const std::vector<T>& init = {}) {
    const uint64_t a = gpu_.memory().allocate(count * sizeof(T), "test buffer");
    if (!init.empty()) gpu_.memory().copyIn(a, init.data(), init.size() * sizeof(T));
    return a;
  }
  template <class T>
  std::vector<T> read(uint64_t address, size_t count) {
    std::vector<T> v(count);
    gpu_.memory().copyOut(v.data(), address, count * sizeof(T));
    return v;
  }

  static std::vector<uint8_t> ptr(uint64_t a) { return bytes(a); }
  static std::vector<uint8_t> u32(uint32_t v) { return bytes(v); }
  static std::vector<uint8_t> u64(uint64_t v) { return bytes(v); }
  static std::vector<uint8_t> f32(float v) { return bytes(v); }

  sim::LaunchResult launch(const std::string& entry, sim::Dim3 grid, sim::Dim3 block,
                           const std::vector<std::vector<uint8_t>>& args,
                           sim::LaunchOptions options = {}, uint32_t dynamicShared = 0,
                           sim::Dim3 cluster = {0, 0, 0}) {
    sim::LaunchConfig c;
    c.entry = entry;
    c.grid = grid;
    c.block = block;
    c.dynamicShared = dynamicShared;
    c.cluster = cluster;  // x = 0: no cluster
    c.params = gpu_.packParams(*module_, entry, args);
    return gpu_.launch(*module_, c, options);
  }

  sim::Gpu& gpu() { return gpu_; }
  const sim::LoadedModule& module() const { return *module_; }

 private:
  template <class T>
  static std::vector<uint8_t> bytes(T v) {
    std::vector<uint8_t> b(sizeof(T));
    std::memcpy(b.data(), &v, sizeof(T));
    return b;
  }
  sim::Gpu gpu_;
  const sim::LoadedModule* module_;
};

}  // namespace warpsim::test
