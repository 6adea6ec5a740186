// Dynamic parallelism (sim/func/device_launch.h): child grids run with their parameters, after
// their parent grid and before it is complete; tail launches after the other children; the
// nesting depth and pending-launch limits fail the launches past them, as on the chip.
// tests/data/cdp_ops.ptx is nvcc 13's PTX (-rdc=true) of tests/data/cdp_ops.cu.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/func/device_launch.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

std::string readData(const std::string& name) {
  std::ifstream f(std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/data" / name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(DeviceLaunch, EachCtaLaunchesAChildGridWithItsArguments) {
  PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  const uint64_t out = r.buffer<uint32_t>(3 * 128);
  const sim::LaunchResult res = r.launch("cdp_fill", {3, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(res.childGrids, 3u);
  const auto v = r.read<uint32_t>(out, 3 * 128);
  for (uint32_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], i + 1) << i;
}

TEST(DeviceLaunch, ChildrenRunAfterTheParentAndTailLaunchesLast) {
  PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  const uint64_t log = r.buffer<uint32_t>(16, std::vector<uint32_t>(16, 0));
  const sim::LaunchResult res = r.launch("cdp_order", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(log)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(res.childGrids, 3u);
  const auto v = r.read<uint32_t>(log, 6);
  EXPECT_EQ(v, (std::vector<uint32_t>{5, 1, 2, 10, 20, 30}));
}

// The H200 nested 40 levels without an error (tests/recorded/heap: cdp deep), more than the
// Programming Guide's 24; the simulator stops one level past 40.
TEST(DeviceLaunch, NestingStopsAtDepth40) {
  PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  const uint64_t reached = r.buffer<uint32_t>(48, std::vector<uint32_t>(48, 0));
  const sim::LaunchResult res =
      r.launch("cdp_deep", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(reached), PtxRunner::u32(0)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(sim::kMaxLaunchDepth, 40u);
  EXPECT_EQ(res.childGrids, 40u);
  const auto v = r.read<uint32_t>(reached, 48);
  for (uint32_t d = 0; d < 48; ++d) EXPECT_EQ(v[d], d <= 40 ? 1u : 0u) << d;
}

TEST(DeviceLaunch, LaunchesPastThePendingLimitFail) {
  PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  const uint64_t flags = r.buffer<uint32_t>(8, std::vector<uint32_t>(8, 0));
  sim::LaunchOptions o;
  o.pendingLaunchLimit = 5;
  const sim::LaunchResult res =
      r.launch("cdp_many", {1, 1, 1}, {8, 1, 1}, {PtxRunner::ptr(flags)}, o);
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(res.childGrids, 5u);
  EXPECT_EQ(r.read<uint32_t>(flags, 8), (std::vector<uint32_t>{1, 1, 1, 1, 1, 0, 0, 0}));
  // The count is of launches not started yet: the next launch of the program starts afresh.
  const sim::LaunchResult again =
      r.launch("cdp_many", {1, 1, 1}, {4, 1, 1}, {PtxRunner::ptr(flags)}, o);
  EXPECT_EQ(again.childGrids, 4u);
}

// cudaGetLastError / cudaPeekAtLastError in device code (cdpAdvancedQuicksort calls them):
// each thread's own error from a failed device runtime call; Get clears it, Peek does not.
TEST(DeviceLaunch, TheLastErrorIsEachThreadsOwn) {
  PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  const uint64_t out = r.buffer<uint32_t>(16, std::vector<uint32_t>(16, 0xffffffffu));
  const sim::LaunchResult res = r.launch("cdp_errors", {1, 1, 1}, {2, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(res.childGrids, 0u);
  const auto v = r.read<uint32_t>(out, 16);
  const uint32_t invalidValue = 1, invalidConfiguration = 9;
  // Thread 0: the stream call fails (1), Peek and the first Get see it, the second Get does
  // not; the launch of 2048 threads per block fails with cudaErrorInvalidConfiguration.
  EXPECT_EQ(std::vector<uint32_t>(v.begin(), v.begin() + 6),
            (std::vector<uint32_t>{0, invalidValue, invalidValue, invalidValue, 0,
                                   invalidConfiguration}));
  // Thread 1 called nothing that fails.
  EXPECT_EQ(std::vector<uint32_t>(v.begin() + 8, v.begin() + 14),
            (std::vector<uint32_t>{0, 0xffffffffu, 0, 0, 0, 0}));
}

// A host thread runs its CTAs one after the other in one CTA object, and a Gpu's launches reuse
// those objects: a thread's last error was once kept from one CTA to the next (CTA 1's thread 0
// read CTA 0's cudaErrorInvalidConfiguration), and must not pass from one launch to the next.
TEST(DeviceLaunch, NoThreadStartsWithAnotherThreadsError) {
  PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  const uint64_t out = r.buffer<uint32_t>(128);
  for (int launch = 0; launch < 2; ++launch) {
    r.gpu().memory().copyIn(out, std::vector<uint32_t>(128, 0xffffffffu).data(), 128 * 4);
    const sim::LaunchResult res =
        r.launch("cdp_error_left", {2, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    EXPECT_EQ(res.childGrids, 0u);  // the one launch failed
    EXPECT_EQ(r.read<uint32_t>(out, 128), std::vector<uint32_t>(128, 0)) << "launch " << launch;
  }
}

}  // namespace
}  // namespace warpsim::test
