// The device heap's page search (sim/func/heap_page_runs.h) against a scan: after random
// changes of the pages' runs (growing, shrinking, to full and back, the tree growing between),
// the lowest page whose run is at least n is the first such page in a plain vector, for every n.
// The search remembers the page it found last per length, so the changes interleave with the
// searches as a heap's mallocs and frees do.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "sim/func/heap_page_runs.h"

namespace warpsim::test {
namespace {

uint32_t scan(const std::vector<uint8_t>& runs, uint8_t n) {
  for (uint32_t p = 0; p < runs.size(); ++p)
    if (runs[p] >= n) return p;
  return static_cast<uint32_t>(runs.size());
}

RC_GTEST_PROP(PageRunsProps, FirstAtLeastIsTheFirstPageOfAScan, ()) {
  sim::PageRuns tree;
  std::vector<uint8_t> runs;
  const auto grow = [&](uint32_t pages) {
    tree.reserve(pages, [](uint32_t) { return uint8_t(24); });
    runs.resize(tree.capacity(), 24);
  };
  grow(*rc::gen::inRange<uint32_t>(1, 200));
  const int steps = *rc::gen::inRange(1, 600);
  for (int i = 0; i < steps; ++i) {
    const int what = *rc::gen::inRange(0, 20);
    if (what == 0) {  // the tree doubles: a few times at most
      if (tree.capacity() < 1024) grow(tree.capacity() + *rc::gen::inRange<uint32_t>(1, 100));
      continue;
    }
    if (what < 10) {
      // Mostly the low pages, as first fit fills them; a run of 0 (full) often.
      const uint32_t page = *rc::gen::inRange<uint32_t>(0, std::min<uint32_t>(tree.capacity(), 40));
      const uint8_t run =
          *rc::gen::element<uint8_t>(0, 0, 1, 2, 5, 23, 24, *rc::gen::inRange<uint8_t>(0, 25));
      tree.set(page, run);
      runs[page] = run;
      continue;
    }
    const uint8_t n = *rc::gen::inRange<uint8_t>(1, 25);
    RC_ASSERT(tree.firstAtLeast(n) == scan(runs, n));
  }
  for (uint8_t n = 1; n <= sim::PageRuns::kMaxRun; ++n)
    RC_ASSERT(tree.firstAtLeast(n) == scan(runs, n));
}

// Filling pages one slot at a time from the lowest, then emptying one far below: the search
// finds the emptied page again, not the page it found last.
TEST(PageRuns, ARunThatGrowsBelowTheLastFoundPageIsFound) {
  sim::PageRuns tree;
  tree.reserve(64, [](uint32_t) { return uint8_t(24); });
  for (uint32_t p = 0; p < 10; ++p) {
    EXPECT_EQ(tree.firstAtLeast(1), p);
    tree.set(p, 0);
  }
  EXPECT_EQ(tree.firstAtLeast(1), 10u);
  EXPECT_EQ(tree.firstAtLeast(24), 10u);
  tree.set(3, 2);
  EXPECT_EQ(tree.firstAtLeast(1), 3u);
  EXPECT_EQ(tree.firstAtLeast(2), 3u);
  EXPECT_EQ(tree.firstAtLeast(3), 10u);
  tree.set(3, 0);
  EXPECT_EQ(tree.firstAtLeast(1), 10u);
  tree.set(63, 0);
  for (uint32_t p = 10; p < 63; ++p) tree.set(p, 0);
  EXPECT_EQ(tree.firstAtLeast(1), 64u);  // none: the capacity
  tree.reserve(100, [](uint32_t) { return uint8_t(24); });
  EXPECT_EQ(tree.firstAtLeast(1), 64u);  // the first page the tree grew by
}

}  // namespace
}  // namespace warpsim::test
