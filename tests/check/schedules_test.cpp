// Schedule exploration (sim/func/schedule.h): the draws are reproducible, every schedule is a
// legal order (correct suite kernels give their fixed-order bytes under all of them), and the
// orders really change (a kernel whose output depends on the order shows it).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>

#include "harness/suite.h"
#include "kernels/card.h"
#include "sim/func/schedule.h"

namespace {

using warpsim::sim::CtaSchedule;
using warpsim::sim::SchedulePolicy;

TEST(Schedules, SeedsAreReproducibleDistinctAndNeverZero) {
  std::set<uint64_t> seeds;
  for (uint64_t i = 1; i <= 1000; ++i) {
    const uint64_t s = warpsim::sim::scheduleSeed(7, i);
    EXPECT_NE(s, 0u);
    EXPECT_LT(s, uint64_t(1) << 53);
    EXPECT_EQ(s, warpsim::sim::scheduleSeed(7, i));
    seeds.insert(s);
  }
  EXPECT_EQ(seeds.size(), 1000u);
  EXPECT_NE(warpsim::sim::scheduleSeed(7, 1), warpsim::sim::scheduleSeed(8, 1));
}

TEST(Schedules, CtaOrderIsAPermutationThatDependsOnTheSeed) {
  const auto a = warpsim::sim::ctaOrder(SchedulePolicy{11}, 100, 50);
  auto sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<uint64_t> want(50);
  std::iota(want.begin(), want.end(), 100);
  EXPECT_EQ(sorted, want);
  EXPECT_NE(a, want);
  EXPECT_EQ(a, warpsim::sim::ctaOrder(SchedulePolicy{11}, 100, 50));
  EXPECT_NE(a, warpsim::sim::ctaOrder(SchedulePolicy{12}, 100, 50));
}

TEST(Schedules, CtaDrawsAreInRangeAndTakeBothBranchOrders) {
  CtaSchedule s(SchedulePolicy{5, 16}, 3);
  unsigned taken = 0;
  std::set<uint32_t> slices;
  for (int i = 0; i < 1000; ++i) {
    const uint32_t n = s.slice();
    EXPECT_GE(n, 1u);
    EXPECT_LE(n, 16u);
    slices.insert(n);
    taken += s.takenFirst();
  }
  EXPECT_EQ(slices.size(), 16u);
  EXPECT_GT(taken, 400u);
  EXPECT_LT(taken, 600u);
  std::vector<unsigned> order(8);
  std::iota(order.begin(), order.end(), 0u);
  s.shuffle(order);
  auto sorted = order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// Correct kernels are deterministic: each card's buffers under three drawn schedules equal its
// buffers in the fixed order, byte for byte (and its CPU reference, as in the suite).
TEST(Schedules, SuiteKernelsGiveTheSameBytesUnderEverySchedule) {
  // Kernels whose correctness rests on what a schedule changes: barriers (scan, transpose,
  // bitonic sort, stencil), warp-synchronous code (compact_ballot, gemv_warp), shared and global
  // atomics between warps and CTAs (histogram_shared, reduce_atomic).
  const char* const cards[] = {"reduce_atomic",   "histogram_shared", "scan_blelloch",
                               "transpose_tiled", "bitonic_shared",   "compact_ballot",
                               "stencil5_shared", "gemv_warp"};
  for (const char* name : cards) {
    SCOPED_TRACE(name);
    const warpsim::kernels::Card* card = warpsim::kernels::findCard(name);
    ASSERT_NE(card, nullptr);
    const uint64_t size = std::max(card->minSize, card->defaultSize / 16);
    warpsim::sim::LaunchOptions fixed;
    fixed.serial = true;
    const auto base = warpsim::harness::runCardOnSim(*card, size, 1, fixed);
    ASSERT_TRUE(base.passed()) << name;
    for (uint64_t i = 1; i <= 3; ++i) {
      warpsim::sim::LaunchOptions lo;
      lo.schedule = SchedulePolicy{warpsim::sim::scheduleSeed(1, i)};
      const auto r = warpsim::harness::runCardOnSim(*card, size, 1, lo);
      EXPECT_TRUE(r.passed()) << "schedule " << i;
      ASSERT_EQ(r.run.buffers.size(), base.run.buffers.size());
      for (size_t b = 0; b < r.run.buffers.size(); ++b)
        EXPECT_TRUE(r.run.buffers[b].bytes == base.run.buffers[b].bytes)
            << "buffer " << r.run.buffers[b].name << " under schedule " << i;
    }
  }
}

}  // namespace
