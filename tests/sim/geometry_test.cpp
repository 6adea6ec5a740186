// positionIn: a linear index's position in a box, x fastest; the first row's shortcut (no
// division) gives what the divisions give.
#include "sim/func/geometry.h"

#include <gtest/gtest.h>

namespace {

using warpsim::sim::Dim3;
using warpsim::sim::positionIn;
using warpsim::sim::ThreadPos;

void expectPos(const ThreadPos& p, uint32_t x, uint32_t y, uint32_t z) {
  EXPECT_EQ(p.x, x);
  EXPECT_EQ(p.y, y);
  EXPECT_EQ(p.z, z);
}

TEST(Geometry, PositionInABoxIsXFastestInsideAndPastTheFirstRow) {
  expectPos(positionIn({96, 1, 1}, 0), 0, 0, 0);
  expectPos(positionIn({96, 1, 1}, 95), 95, 0, 0);
  const Dim3 box{8, 4, 3};
  expectPos(positionIn(box, 7), 7, 0, 0);
  expectPos(positionIn(box, 8), 0, 1, 0);
  expectPos(positionIn(box, 8 * 4 + 8 + 5), 5, 1, 1);
  expectPos(positionIn(box, 8 * 4 * 3 - 1), 7, 3, 2);
  // Every index of the box against the divisions.
  for (uint64_t i = 0; i < box.count(); ++i)
    expectPos(positionIn(box, i), uint32_t(i % 8), uint32_t(i / 8 % 4), uint32_t(i / 32));
  // A grid's CTA index past 2^32 (positionIn also places CTAs).
  const Dim3 grid{1u << 31, 65535, 4};
  expectPos(positionIn(grid, (uint64_t(3) << 31) + 9), 9, 3, 0);
}

}  // namespace
