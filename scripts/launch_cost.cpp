// What a launch costs on its own: N launches of a kernel of 9 instructions a thread (each
// thread stores its index), grid G x B threads, on T host threads, with one Gpu for all of them
// or a new Gpu for each ("fresh": what bench's runs do, each loading its module anew). Prints the
// best of 5 rounds of the mean per launch: runGrid's own seconds (LaunchResult::seconds, what
// bench times) and the whole Gpu::launch with the parameters' packing. Built on request:
//
//   cmake --build build --target launch_cost
//   build/bin/launch_cost G T N [B [fresh]]      e.g. build/bin/launch_cost 4 2 3000 128
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include "tests/support/ptx_runner.h"
using namespace warpsim;
constexpr const char* kPtx = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";
int main(int argc, char** argv) {
  const unsigned G = atoi(argv[1]), T = atoi(argv[2]), N = atoi(argv[3]);
  const unsigned B = argc > 4 ? atoi(argv[4]) : 256;
  const bool fresh = argc > 5 && !strcmp(argv[5], "fresh");
  sim::LaunchOptions o;
  o.threads = T;
  o.statistics = false;
  double best = 1e30, bestWall = 1e30;
  auto runner = std::make_unique<test::PtxRunner>(kPtx, "k.ptx");
  uint64_t out = runner->buffer<uint32_t>(G * B);
  for (int rep = 0; rep < 5; ++rep) {
    double inside = 0, wall = 0;
    for (unsigned i = 0; i < N; ++i) {
      if (fresh) {
        runner = std::make_unique<test::PtxRunner>(kPtx, "k.ptx");
        out = runner->buffer<uint32_t>(G * B);
      }
      auto t0 = std::chrono::steady_clock::now();
      inside += runner->launch("k", {G, 1, 1}, {B, 1, 1}, {test::PtxRunner::ptr(out)}, o).seconds;
      wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    best = std::min(best, inside / N);
    bestWall = std::min(bestWall, wall / N);
  }
  std::printf(
      "grid %u x %u threads, %u host threads%s: %.2f us a launch in runGrid, %.2f us in "
      "Gpu::launch (with packParams)\n",
      G, B, T, fresh ? " (a new Gpu each)" : "", best * 1e6, bestWall * 1e6);
}
