// Runs a kernel with the installed library: y[i] = 2 * x[i] over 64 threads, printed as a sum.
#include <cstdint>
#include <cstring>
#include <iostream>
#include <vector>

#include "sim/gpu.h"

namespace {

constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry twice(.param .u64 x, .param .u64 y)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  shl.b32 %r3, %r2, 1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
)";

std::vector<uint8_t> pointer(uint64_t address) {
  std::vector<uint8_t> p(8);
  std::memcpy(p.data(), &address, 8);
  return p;
}

}  // namespace

int main() {
  warpsim::sim::Gpu gpu;
  const warpsim::sim::LoadedModule& m = gpu.loadPtx(kPtx, "twice.ptx");
  std::vector<uint32_t> x(64), y(64);
  for (uint32_t i = 0; i < 64; ++i) x[i] = i;
  const uint64_t dx = gpu.memory().allocate(256, "x"), dy = gpu.memory().allocate(256, "y");
  gpu.memory().copyIn(dx, x.data(), 256);
  warpsim::sim::LaunchConfig c;
  c.entry = "twice";
  c.grid = {1, 1, 1};
  c.block = {64, 1, 1};
  c.params = gpu.packParams(m, "twice", {pointer(dx), pointer(dy)});
  const warpsim::sim::LaunchResult r = gpu.launch(m, c);
  gpu.memory().copyOut(y.data(), dy, 256);
  uint64_t sum = 0;
  for (uint32_t v : y) sum += v;
  std::cout << "sum " << sum << ", warp-instructions " << r.stats.totalWarpInsns()
            << (r.fault ? ", faulted" : "") << "\n";
  return r.fault ? 1 : 0;
}
