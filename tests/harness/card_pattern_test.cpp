// Selecting cards by name on the command line (suite, bench, correlate, measure, record): a
// comma-separated list of substrings.
#include <gtest/gtest.h>

#include "harness/suite.h"

namespace warpsim::harness {
namespace {

TEST(CardPattern, EmptyMatchesEveryName) {
  EXPECT_TRUE(cardMatches("gemv_warp", ""));
  EXPECT_EQ(selectCards("").size(), kernels::allCards().size());
}

TEST(CardPattern, ASubstringMatchesTheNamesThatContainIt) {
  EXPECT_TRUE(cardMatches("gemv_warp", "gemv"));
  EXPECT_TRUE(cardMatches("gemv_warp", "warp"));
  EXPECT_FALSE(cardMatches("gemv_warp", "gemm"));
}

TEST(CardPattern, AListMatchesANameThatContainsAnyOfItsParts) {
  EXPECT_TRUE(cardMatches("daxpy", "gemv_warp,daxpy"));
  EXPECT_TRUE(cardMatches("gemv_warp", "gemv_warp,daxpy"));
  EXPECT_FALSE(cardMatches("saxpy_half", "gemv_warp,daxpy"));
  // Empty parts (a trailing or doubled comma) match nothing rather than everything.
  EXPECT_FALSE(cardMatches("saxpy", "daxpy,"));
  EXPECT_FALSE(cardMatches("saxpy", ",,daxpy"));
}

TEST(CardPattern, SelectCardsKeepsSuiteOrderAndTakesEachCardOnce) {
  const auto cards = selectCards("saxpy,vector_add,saxpy");
  ASSERT_EQ(cards.size(), 2u);
  EXPECT_EQ(cards[0]->name, "vector_add");
  EXPECT_EQ(cards[1]->name, "saxpy");
}

}  // namespace
}  // namespace warpsim::harness
