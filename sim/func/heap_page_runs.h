// The device heap's search for a page with room (sim/func/device_heap.h): each page's longest
// run of free slots, in a max-tree over the pages, so that the lowest page whose run is at least
// n is one walk from the root (log2 of the pages: 12 steps for the default 8 MiB heap). A
// std::set of pages per run length did the same with a node allocated and freed at every
// change, which was a third of a malloc-heavy kernel's time.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace warpsim::sim {

// The longest run of ones in a page's free-slot bits (up to 24 slots), in a few steps where
// shortening every run by one until none is left took up to 24 (a fifth of a malloc): each
// 12-bit half's longest run from a table, and the run that crosses the halves from the ones at
// the top of the low half and at the bottom of the high one.
class LongestRun {
 public:
  static uint32_t of(uint32_t bits) {
    const uint32_t lo = bits & kHalfMask, hi = (bits >> kHalf) & kHalfMask;
    // Ones at the top of lo: the zeros above its highest zero (none: all 12).
    const uint32_t loTop = lo == kHalfMask ? kHalf : uint32_t(__builtin_clz(~lo & kHalfMask)) - 20;
    const uint32_t hiBottom = uint32_t(__builtin_ctz(~hi));  // ~hi has bit 12 set
    return std::max({uint32_t(table().run[lo]), uint32_t(table().run[hi]), loTop + hiBottom});
  }

 private:
  static constexpr uint32_t kHalf = 12, kHalfMask = (1u << kHalf) - 1;
  struct Table {
    uint8_t run[1u << kHalf];
  };
  static constexpr Table make() {
    Table t{};
    for (uint32_t v = 0; v < (1u << kHalf); ++v) {
      uint32_t run = 0, best = 0;
      for (uint32_t b = 0; b < kHalf; ++b) {
        run = (v >> b & 1) ? run + 1 : 0;
        best = std::max(best, run);
      }
      t.run[v] = static_cast<uint8_t>(best);
    }
    return t;
  }
  static const Table& table() {
    static constexpr Table t = make();
    return t;
  }
};

class PageRuns {
 public:
  static constexpr uint32_t kMaxRun = 31;  // a page's runs are 0 .. kMaxRun slots

  // Pages [0, capacity()) are held; each page past them starts with fresh(page) when they grow.
  uint32_t capacity() const { return cap_; }
  uint8_t operator[](uint32_t page) const { return tree_[cap_ + page]; }

  // Holds at least `pages` pages, the new ones' runs being fresh(page) (an empty page's slots,
  // so that a page never used is found like any other and the pages before it are not walked
  // up to the root at every change: their right-hand neighbours keep the maximum).
  template <class Fresh>
  void reserve(uint32_t pages, const Fresh& fresh) {
    if (pages <= cap_) return;
    uint32_t cap = std::max<uint32_t>(64, cap_);
    while (cap < pages) cap *= 2;
    std::vector<uint8_t> tree(2 * size_t(cap), 0);
    std::copy_n(tree_.begin() + cap_, cap_, tree.begin() + cap);
    for (uint32_t p = cap_; p < cap; ++p) tree[cap + p] = fresh(p);
    for (uint32_t node = cap - 1; node; --node)
      tree[node] = std::max(tree[2 * node], tree[2 * node + 1]);
    tree_ = std::move(tree);
    cap_ = cap;
  }

  void set(uint32_t page, uint8_t run) {
    uint32_t node = cap_ + page;
    if (tree_[node] == run) return;
    // A run that grows may put the page below the lowest one known for the lengths it reaches
    // (low_ rises with the length, so the lengths to lower are the longest ones up to `run`).
    if (run > tree_[node])
      for (uint32_t n = run; n > 0 && low_[n] > page; --n) low_[n] = page;
    tree_[node] = run;
    // Up to the root while the maximum below a node changes.
    for (node >>= 1; node; node >>= 1) {
      const uint8_t m = std::max(tree_[2 * node], tree_[2 * node + 1]);
      if (tree_[node] == m) break;
      tree_[node] = m;
    }
  }

  // The lowest page whose run is at least `run` (1 .. kMaxRun), or capacity() when none is.
  // Consecutive mallocs of one size find the same page until it fills: the page found last for a
  // length is tried first, and the walk from the root only when it no longer has room.
  uint32_t firstAtLeast(uint8_t run) {
    const uint32_t known = low_[run];
    if (known < cap_ && tree_[cap_ + known] >= run) return known;
    if (cap_ == 0 || tree_[1] < run) return cap_;
    uint32_t node = 1;
    // Without a branch: which child holds the lowest such page is data, not a pattern.
    while (node < cap_) node = 2 * node + uint32_t(tree_[2 * node] < run);
    const uint32_t page = node - cap_;
    // No page below it has a run of `run`, nor of any longer one.
    for (uint32_t n = run; n <= kMaxRun && low_[n] < page; ++n) low_[n] = page;
    return page;
  }

 private:
  uint32_t cap_ = 0;
  // tree_[1] is the root, node i's children are 2i and 2i + 1, page p is leaf cap_ + p.
  std::vector<uint8_t> tree_;
  // Per run length n: no page below low_[n] has a run of n or more (a lower bound on the
  // lowest such page, exact after a walk), rising with n.
  std::array<uint32_t, kMaxRun + 1> low_{};
};

}  // namespace warpsim::sim
