// Properties of the timing mode over the suite: it changes nothing a kernel computes, its
// statistics equal the functional mode's, and it predicts the same cycles every time.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "harness/suite.h"
#include "tests/support/rc_check.h"

namespace warpsim {
namespace {

TEST(TimingProperty, SameOutputsAndCountsAsTheFunctionalMode) {
  test::checkProperty("timing changes no result", 8, 100, [] {
    // Every card, clusters (distributed shared memory, barrier.cluster) and cooperative grids
    // (a grid-wide sync) included: the engine co-schedules them (engine_clusters.cpp).
    std::vector<const kernels::Card*> cards;
    for (const kernels::Card& c : kernels::allCards()) cards.push_back(&c);
    const kernels::Card& card = *cards[*rc::gen::inRange<size_t>(0, cards.size())];
    const uint64_t hi = std::min(std::max(card.minSize, card.maxSize), card.minSize * 16 + 2048);
    const uint64_t size = *rc::gen::inRange<uint64_t>(card.minSize, hi + 1);
    const uint64_t seed = *rc::gen::arbitrary<uint32_t>();
    RC_TAG(card.name);
    sim::LaunchOptions o;
    o.serial = true;  // float atomics in CTA order in both
    const harness::CardResult plain = harness::runCardOnSim(card, size, seed, o);
    const sim::timing::TimingConfig config;
    const harness::CardResult timed = harness::runCardOnSim(card, size, seed, o, &config);
    RC_ASSERT(plain.run.fault.has_value() == timed.run.fault.has_value());
    if (plain.run.fault) return;
    RC_ASSERT(timed.run.timings.size() == card.make(size, seed).launches.size());
    // Integer-valued kernels give the same bits; float atomics may run in another CTA order
    // under timing (CTAs interleave), so the comparison takes the card's own tolerance.
    RC_ASSERT(timed.passed() == plain.passed());
    // A cooperative launch's grid-wide sync spins on a global counter (an ld.acquire loop):
    // how many trips a warp makes waiting depends on the order its CTAs run in, which timing
    // changes (grid_sync_reduce at 258: 4,325 warp-instructions in the functional mode, 2,297
    // under timing). Every other card issues the same instructions in both.
    bool spins = false;
    for (const kernels::Launch& l : card.make(size, seed).launches) spins |= l.cooperative;
    if (!spins) RC_ASSERT(timed.run.stats.totalWarpInsns() == plain.run.stats.totalWarpInsns());
    // The timing model also issues what the SASS adds (a call's frame words).
    uint64_t issued = 0;
    for (const auto& t : timed.run.timings) issued += t.warpInstructions - t.frameInstructions;
    RC_ASSERT(issued == timed.run.stats.totalWarpInsns());
    // Deterministic: the same launch predicts the same cycles again.
    const harness::CardResult again = harness::runCardOnSim(card, size, seed, o, &config);
    for (size_t i = 0; i < timed.run.timings.size(); ++i)
      RC_ASSERT(again.run.timings[i].cycles == timed.run.timings[i].cycles);
  });
}

// A cooperative grid's sync spins (the property above skips its counts): grid_sync_reduce's
// two CTAs at 258 wait for one another in an ld.acquire loop, long in the functional mode's
// fixed order (CTA 0 spins its slices until CTA 1 runs), short under timing, where they
// interleave. Both compute the same sum, and the timing report counts what the timed run issued.
TEST(TimingModel, ACooperativeGridSyncSpinsAsLongAsItsCtasOrderMakesIt) {
  const kernels::Card& card = *kernels::findCard("grid_sync_reduce");
  sim::LaunchOptions o;
  o.serial = true;
  const sim::timing::TimingConfig config;
  const harness::CardResult plain = harness::runCardOnSim(card, 258, 0, o);
  const harness::CardResult timed = harness::runCardOnSim(card, 258, 0, o, &config);
  ASSERT_TRUE(plain.passed());
  ASSERT_TRUE(timed.passed());
  EXPECT_EQ(plain.run.stats.totalWarpInsns(), 4325u);
  EXPECT_EQ(timed.run.stats.totalWarpInsns(), 2297u);
  ASSERT_EQ(timed.run.timings.size(), 1u);
  EXPECT_EQ(timed.run.timings[0].warpInstructions, 2297u);
}

// Grids launched from the device run after their parent; the host launch's prediction is the
// sum over the parent and every descendant (the property above once caught the model reporting
// only the last child grid's).
TEST(TimingModel, DeviceLaunchedGridsAddToTheHostLaunchsPrediction) {
  const kernels::Card& card = *kernels::findCard("cdp_quicksort");
  sim::LaunchOptions o;
  o.serial = true;
  const sim::timing::TimingConfig config;
  const harness::CardResult timed = harness::runCardOnSim(card, 33, 0, o, &config);
  ASSERT_FALSE(timed.run.fault.has_value());
  ASSERT_TRUE(timed.passed());
  ASSERT_EQ(timed.run.timings.size(), 1u);
  const sim::timing::TimingReport& t = timed.run.timings[0];
  EXPECT_EQ(t.warpInstructions, timed.run.stats.totalWarpInsns());
  // The parent is one CTA of one thread; its quicksort partitions launch the other grids.
  EXPECT_GT(t.ctas, 1u);
  EXPECT_GT(t.launchLatency, 0u);
}

}  // namespace
}  // namespace warpsim
