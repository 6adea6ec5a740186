// Property (a) of the core issue: every suite kernel, on random problem sizes and inputs,
// equals its CPU reference within the card's tolerance. On failure RapidCheck shrinks to the
// smallest size and seed that still fail.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "harness/report.h"
#include "harness/suite.h"
#include "tests/support/rc_check.h"

namespace warpsim {
namespace {

class SuiteKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(SuiteKernel, EqualsItsReferenceOnRandomSizesAndInputs) {
  const kernels::Card& card = *kernels::findCard(GetParam());
  // A few cases per kernel keep the whole suite property in CI's budget; the random sizes
  // favour tails (sizes that are not multiples of the block) through the full range.
  test::checkProperty(card.name, 6, 100, [&card] {
    const uint64_t hi = std::max(card.minSize, card.maxSize);
    const uint64_t size = *rc::gen::inRange<uint64_t>(card.minSize, hi + 1);
    const uint64_t seed = *rc::gen::arbitrary<uint32_t>();
    const harness::CardResult r = harness::runCardOnSim(card, size, seed);
    if (r.run.fault) RC_FAIL(r.run.fault->describe(card.source + ".ptx"));
    if (!r.comparison.ok())
      RC_FAIL(std::to_string(r.comparison.mismatches) + " wrong elements, first: " +
              harness::formatMismatch(r.run.buffers, r.comparison.first.front()));
  });
}

std::vector<std::string> cardNames() {
  std::vector<std::string> names;
  for (const auto& c : kernels::allCards()) names.push_back(c.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllCards, SuiteKernel, ::testing::ValuesIn(cardNames()),
                         [](const auto& info) { return info.param; });

// The default-size run of every card, as `warpsim suite` does it.
class SuiteDefault : public ::testing::TestWithParam<std::string> {};

TEST_P(SuiteDefault, PassesAtItsDefaultSize) {
  const kernels::Card& card = *kernels::findCard(GetParam());
  const harness::CardResult r = harness::runCardOnSim(card, 0, 1);
  ASSERT_FALSE(r.run.fault) << r.run.fault->describe(card.source + ".ptx");
  ASSERT_TRUE(r.comparison.ok()) << harness::formatMismatch(r.run.buffers,
                                                            r.comparison.first.front());
  EXPECT_GT(r.comparison.compared, 0u);
  EXPECT_GT(r.run.stats.totalThreadInsns(), 0u);
}

// A card that names the largest size its kernel handles passes there, and warpsim refuses the
// next size up (the H100 faulted on attention_fwd at 512 and compact_ballot at 1M, which
// `warpsim measure`'s ladder asked for before the cards named their limits).
TEST(SuiteLargest, CardsPassAtTheLargestSizeTheyNameAndRefuseMore) {
  unsigned named = 0;
  for (const kernels::Card& card : kernels::allCards()) {
    if (!card.largestSize) continue;
    ++named;
    const harness::CardResult r = harness::runCardOnSim(card, card.largestSize, 1);
    ASSERT_FALSE(r.run.fault) << card.name << ": " << r.run.fault->describe(card.source + ".ptx");
    EXPECT_TRUE(r.comparison.ok()) << card.name;
    EXPECT_TRUE(harness::cardSizeError(card, card.largestSize).empty()) << card.name;
    EXPECT_NE(
        harness::cardSizeError(card, card.largestSize + 1).find("more than its kernel handles"),
        std::string::npos)
        << card.name;
    EXPECT_GE(card.largestSize, card.maxSize) << card.name << ": the properties draw past it";
  }
  EXPECT_EQ(named, 2u);
}

// bench runs a card's repeats on one simulator (as a program's repeated launches run in one
// context), so each run after the first finds the host threads' CTA objects, frames and device
// heap that the runs before it left: every run must give what a fresh simulator gives.
TEST_P(SuiteDefault, RunsAgainOnOneSimulatorAsOnAFreshOne) {
  const kernels::Card& card = *kernels::findCard(GetParam());
  sim::LaunchOptions two;
  two.threads = 2;
  const harness::CardResult fresh = harness::runCardOnSim(card, 0, 1, two);
  ASSERT_TRUE(fresh.passed());
  const std::unique_ptr<harness::Backend> backend = harness::makeSimBackend(two);
  harness::loadCard(*backend, card);
  for (int run = 0; run < 3; ++run) {
    const harness::CardResult again = harness::runLoadedCard(*backend, card, 0, 1);
    ASSERT_TRUE(again.passed()) << "run " << run;
    ASSERT_EQ(again.run.buffers.size(), fresh.run.buffers.size());
    for (size_t b = 0; b < fresh.run.buffers.size(); ++b)
      EXPECT_EQ(again.run.buffers[b].bytes, fresh.run.buffers[b].bytes)
          << "run " << run << ", buffer " << fresh.run.buffers[b].name;
    EXPECT_EQ(again.run.printfOutput, fresh.run.printfOutput) << "run " << run;
    EXPECT_EQ(again.run.stats.totalThreadInsns(), fresh.run.stats.totalThreadInsns());
  }
}

INSTANTIATE_TEST_SUITE_P(AllCards, SuiteDefault, ::testing::ValuesIn(cardNames()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace warpsim
