// The text report of one small kernel, as a golden file (tests/golden/timing/*.txt;
// WARPSIM_UPDATE_GOLDEN=1 rewrites it, then read the diff), and its JSON names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/timing_report.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim::timing {
namespace {

// y[i] = a * x[i] + y[i] through a shared tile read back transposed-ish (stride 2: a two-way
// bank conflict), 4 CTAs of 64 threads.
constexpr const char* kKernel = R"(.version 8.0
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

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TimingReport runSmall() {
  test::PtxRunner r(kKernel, "small.ptx");
  const uint64_t x = r.buffer<float>(256, std::vector<float>(256, 1.0f));
  const uint64_t y = r.buffer<float>(256, std::vector<float>(256, 2.0f));
  TimingModel model{TimingConfig{}};
  LaunchOptions o;
  o.runner = &model;
  const LaunchResult res =
      r.launch("k", {4, 1, 1}, {64, 1, 1},
               {test::PtxRunner::ptr(x), test::PtxRunner::ptr(y), test::PtxRunner::f32(3.0f)}, o);
  EXPECT_FALSE(res.fault.has_value());
  // Functionally it is still the kernel: timing changes nothing the program computes.
  EXPECT_EQ(r.read<float>(y, 256), std::vector<float>(256, 5.0f));
  EXPECT_TRUE(model.lastReport().has_value());
  return model.lastReport().value_or(TimingReport{});
}

TEST(TimingReportGolden, SmallKernelText) {
  const std::string text = harness::formatTiming(runSmall());
  const auto path = std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/golden/timing/small.txt";
  if (std::getenv("WARPSIM_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(text, readFile(path)) << "golden " << path;
}

TEST(TimingReportGolden, JsonUsesNcuMetricNames) {
  const TimingReport t = runSmall();
  harness::Json j;
  harness::timingJson(j, t);
  for (const char* name :
       {"\"gpc__cycles_elapsed.max\":", "\"smsp__inst_executed.sum\"",
        "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\"",
        "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\"",
        "\"lts__t_sector_hit_rate.pct\"", "\"dram__bytes_read.sum\"",
        "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum\"", "\"launch__occupancy_limit\""})
    EXPECT_NE(j.str().find(name), std::string::npos) << name << " in " << j.str();
  EXPECT_NE(j.str().find("\"gpc__cycles_elapsed.max\":" + std::to_string(t.cycles)),
            std::string::npos);
  // Conservation: every resident warp-cycle is in exactly one state.
  uint64_t sum = 0;
  for (uint64_t s : t.stalls) sum += s;
  EXPECT_EQ(t.stalls[size_t(Stall::Selected)], t.warpInstructions);
  EXPECT_GT(t.stalls[size_t(Stall::Barrier)], 0u);
  EXPECT_GT(t.stalls[size_t(Stall::LongScoreboard)], 0u);
  EXPECT_EQ(t.mem.dramReadBytes, 2u * 1024);  // x and y, 1 KB each, cold
  EXPECT_EQ(t.bankConflicts(), 16u);          // two-way on every shared load and store of 8 warps
  EXPECT_EQ(sum, t.residentWarpCycles);
}

}  // namespace
}  // namespace warpsim::sim::timing
