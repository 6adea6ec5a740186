// The text report of one small kernel, as a golden file (tests/golden/timing/*.txt;
// WARPSIM_UPDATE_GOLDEN=1 rewrites it, then read the diff), and its JSON names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/timing_report.h"
#include "sim/timing/timing_model.h"
#include "tests/timing/small_kernel.h"

namespace warpsim::sim::timing {
namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TimingReport runSmall() {
  const test::SmallRun run = test::runSmallKernel(TimingConfig{});
  // Functionally it is still the kernel: timing changes nothing the program computes.
  EXPECT_EQ(run.y, std::vector<float>(256, 5.0f));
  return run.report;
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
