// The device heap's timing (heap_timing.h), exact to the cycle: a warp's call ends when its own
// time, its SM's slot and the device's slot are through its lanes' calls.
#include "sim/timing/heap_timing.h"

#include <gtest/gtest.h>

#include <cmath>

namespace warpsim::sim::timing {
namespace {

// The H100's malloc as measured (configs/h200.json): 8,735 + 5,001 a lane, SM 2,499, device
// 1,715 a partial warp's lane, 150 + 0.0335 a block live a full warp's.
constexpr HeapCallCosts kMalloc{8735, 5001, 2499, 1715, 150, 0.0335};

TEST(HeapTiming, OneLaneAloneTakesTheWarpsFixedAndOneLanesTime) {
  HeapTiming h(4);
  EXPECT_EQ(h.call(kMalloc, 0, 1, 0, 100), 100u + 8735 + 5001);
}

TEST(HeapTiming, OneWarpAloneIsBoundByItsOwnTime) {
  HeapTiming h(4);
  EXPECT_EQ(h.call(kMalloc, 0, 32, 0, 0), 8735u + 32 * 5001);  // 168,767: the chip's round 168,778
}

TEST(HeapTiming, FourWarpsOfOneSmAreBoundByTheSmsSlot) {
  HeapTiming h(4);
  uint64_t last = 0;
  for (int w = 0; w < 4; ++w) last = h.call(kMalloc, 0, 32, 0, 0);
  EXPECT_EQ(last, 128u * 2499);  // 319,872: the chip's round 319,930
}

TEST(HeapTiming, ManySmsAreBoundByTheDevicesSlot) {
  // Warps of 31 lanes: 1,715 a lane.
  HeapTiming h(32);
  uint64_t last = 0;
  for (unsigned sm = 0; sm < 32; ++sm)
    for (int w = 0; w < 4; ++w) last = h.call(kMalloc, sm, 31, 0, 0);
  EXPECT_EQ(last, 3968u * 1715);
}

TEST(HeapTiming, AFullWarpsCallHoldsTheDevicesSlotByTheBlocksLive) {
  // 32 CTAs of four full warps on an empty heap: 150 a lane and 0.0335 a lane per block live
  // (the chip's 994,371 cycles for the launch: 243 a call).
  HeapTiming h(32);
  uint64_t last = 0, live = 0;
  for (unsigned sm = 0; sm < 32; ++sm)
    for (int w = 0; w < 4; ++w) {
      live += 32;
      last = h.call(kMalloc, sm, 32, live, 0);
    }
  // Each warp's 32 x (150 + 0.0335 x live), rounded: sum over live = 32, 64, ..., 4,096.
  uint64_t expect = 0;
  for (uint64_t l = 32; l <= 4096; l += 32)
    expect += uint64_t(std::llround(32 * (150 + 0.0335 * double(l))));
  EXPECT_EQ(last, expect);
  EXPECT_EQ(expect, 897'614u);  // 0.90 of the chip's launch
}

TEST(HeapTiming, ASlotFreeAgainBeforeTheCallCostsNothingOfThePast) {
  HeapTiming h(2);
  const HeapCallCosts slots{0, 0, 100, 300};
  EXPECT_EQ(h.call(slots, 0, 2, 0, 0), 600u);  // the device's slot: 2 x 300
  // The SM's slot is free at 200 and the device's at 600: a call at 5,000 waits for neither.
  EXPECT_EQ(h.call(slots, 0, 1, 0, 5000), 5300u);
  // Another SM's call at the same cycle queues behind it for the device's slot.
  EXPECT_EQ(h.call(slots, 1, 1, 0, 5000), 5600u);
}

TEST(HeapTiming, MallocAndFreeShareTheSlots) {
  HeapTiming h(1);
  EXPECT_EQ(h.call({0, 0, 0, 1000, 1000, 0}, 0, 32, 0, 0), 32000u);
  // A free issued while the mallocs' 32,000 cycles of the device's slot run waits behind them.
  EXPECT_EQ(h.call({0, 0, 0, 214, 214, 0}, 0, 32, 0, 1000), 32000u + 32 * 214);
}

}  // namespace
}  // namespace warpsim::sim::timing
