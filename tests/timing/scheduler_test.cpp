// The warp schedulers, by name: greedy-then-oldest and loose round-robin.
#include <gtest/gtest.h>

#include "sim/timing/scheduler.h"

namespace warpsim::sim::timing {
namespace {

std::vector<Candidate> warps(std::vector<std::pair<uint64_t, bool>> v) {
  std::vector<Candidate> out;
  for (auto [age, e] : v) out.push_back({age, e});
  return out;
}

TEST(Scheduler, RegisteredByName) {
  EXPECT_NE(findScheduler("gto"), nullptr);
  EXPECT_NE(findScheduler("lrr"), nullptr);
  EXPECT_EQ(findScheduler("fifo"), nullptr);
  EXPECT_EQ(schedulerNames(), "gto, lrr");
}

TEST(Scheduler, GreedyThenOldest) {
  const auto s = findScheduler("gto")->make();
  // The last warp keeps issuing while it can.
  EXPECT_EQ(s->pick(warps({{5, true}, {1, true}, {3, true}}), 0), 0);
  // Otherwise the oldest eligible one (smallest age), wherever it sits.
  EXPECT_EQ(s->pick(warps({{5, false}, {3, true}, {1, true}}), 0), 2);
  EXPECT_EQ(s->pick(warps({{5, true}, {3, true}, {1, false}}), -1), 1);
}

TEST(Scheduler, LooseRoundRobin) {
  const auto s = findScheduler("lrr")->make();
  EXPECT_EQ(s->pick(warps({{0, true}, {1, true}, {2, true}}), 0), 1);
  EXPECT_EQ(s->pick(warps({{0, true}, {1, true}, {2, true}}), 2), 0);
  EXPECT_EQ(s->pick(warps({{0, true}, {1, false}, {2, true}}), 0), 2);
  EXPECT_EQ(s->pick(warps({{0, true}, {1, false}, {2, false}}), -1), 0);
}

}  // namespace
}  // namespace warpsim::sim::timing
