// The small kernel the timing report's tests run: y[i] = a * x[i] + y[i] through a shared tile
// read back with a two-way bank conflict, CTAs of 64 threads (tests/golden/timing/).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim::timing::test {

constexpr const char* kSmallKernel = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 y, .param .f32 a) {
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .f32 %f<6>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b8 tile[512];
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.f32 %f1, [a];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.s32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f2, [%rd4];
  mov.u32 %r5, tile;
  shl.b32 %r6, %r1, 3;
  and.b32 %r7, %r6, 252;
  add.u32 %r8, %r5, %r7;
  st.shared.f32 [%r8], %f2;
  bar.sync 0;
  ld.shared.f32 %f3, [%r8];
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f4, [%rd5];
  fma.rn.f32 %f5, %f1, %f3, %f4;
  st.global.f32 [%rd5], %f5;
  ret;
}
)";

struct SmallRun {
  TimingReport report;
  std::vector<float> y;  // 5.0 everywhere when the kernel ran right
};

// `ctas` CTAs of 64 threads under `c` (x = 1, y = 2, a = 3).
inline SmallRun runSmallKernel(const TimingConfig& c, uint32_t ctas = 4) {
  warpsim::test::PtxRunner r(kSmallKernel, "small.ptx");
  const size_t n = size_t(ctas) * 64;
  const uint64_t x = r.buffer<float>(n, std::vector<float>(n, 1.0f));
  const uint64_t y = r.buffer<float>(n, std::vector<float>(n, 2.0f));
  TimingModel model{c};
  LaunchOptions o;
  o.runner = &model;
  const LaunchResult res =
      r.launch("k", {ctas, 1, 1}, {64, 1, 1},
               {warpsim::test::PtxRunner::ptr(x), warpsim::test::PtxRunner::ptr(y),
                warpsim::test::PtxRunner::f32(3.0f)},
               o);
  EXPECT_FALSE(res.fault.has_value());
  EXPECT_TRUE(model.lastReport().has_value());
  return {model.lastReport().value_or(TimingReport{}), r.read<float>(y, n)};
}

}  // namespace warpsim::sim::timing::test
