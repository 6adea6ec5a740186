// The device heap's timing (heap_timing.h), exact to the cycle: a warp's call ends when its own
// time, its SM's slot and the device's slot are through its lanes' calls.
#include "sim/timing/heap_timing.h"

#include <gtest/gtest.h>

namespace warpsim::sim::timing {
namespace {

// The H100's malloc as measured (configs/h200.json): 8,735 + 5,001 a lane, SM 2,499, device 148
// a lane, 135 more a lane per malloc its thread made before, 3,700 more for a warp's first.
constexpr HeapCallCosts kMalloc{8735, 5001, 2499, 148, 135, 3700};

TEST(HeapTiming, OneLaneAloneTakesTheWarpsFixedAndOneLanesTime) {
  HeapTiming h(4);
  EXPECT_EQ(h.call(kMalloc, 0, 1, 0, true, 100), 100u + 8735 + 5001);
}

TEST(HeapTiming, OneWarpAloneIsBoundByItsOwnTime) {
  HeapTiming h(4);
  EXPECT_EQ(h.call(kMalloc, 0, 32, 0, true, 0), 8735u + 32 * 5001);  // the chip's round 168,778
}

TEST(HeapTiming, FourWarpsOfOneSmAreBoundByTheSmsSlot) {
  HeapTiming h(4);
  uint64_t last = 0;
  for (int w = 0; w < 4; ++w) last = h.call(kMalloc, 0, 32, 0, true, 0);
  EXPECT_EQ(last, 128u * 2499);  // 319,872: the chip's round 319,930
}

TEST(HeapTiming, ManySmsAreBoundByTheDevicesSlot) {
  // 32 CTAs of four warps, every thread's first malloc: each warp's first call and its lanes'.
  HeapTiming h(32);
  uint64_t last = 0;
  for (unsigned sm = 0; sm < 32; ++sm)
    for (int w = 0; w < 4; ++w) last = h.call(kMalloc, sm, 32, 0, true, 0);
  EXPECT_EQ(last, 128u * 3700 + 4096 * 148);  // 1,079,808: the chip's 994,371 and 1,111,146
}

TEST(HeapTiming, AThreadsLaterCallsHoldTheDevicesSlotLonger) {
  // The same warps' second round: no first-call part, 135 a lane for each thread's one call
  // before.
  HeapTiming h(32);
  for (unsigned sm = 0; sm < 32; ++sm)
    for (int w = 0; w < 4; ++w) h.call(kMalloc, sm, 32, 0, true, 0);
  uint64_t last = 0;
  for (unsigned sm = 0; sm < 32; ++sm)
    for (int w = 0; w < 4; ++w) last = h.call(kMalloc, sm, 32, 32, false, 0);
  EXPECT_EQ(last, 128u * 3700 + 4096 * 148 + 4096 * (148 + 135));  // 2,239,040: chip 2.05-2.14M
}

TEST(HeapTiming, ASlotFreeAgainBeforeTheCallCostsNothingOfThePast) {
  HeapTiming h(2);
  const HeapCallCosts slots{0, 0, 100, 300};
  EXPECT_EQ(h.call(slots, 0, 2, 0, false, 0), 600u);  // the device's slot: 2 x 300
  // The SM's slot is free at 200 and the device's at 600: a call at 5,000 waits for neither.
  EXPECT_EQ(h.call(slots, 0, 1, 0, false, 5000), 5300u);
  // Another SM's call at the same cycle queues behind it for the device's slot.
  EXPECT_EQ(h.call(slots, 1, 1, 0, false, 5000), 5600u);
}

TEST(HeapTiming, MallocAndFreeShareTheSlots) {
  HeapTiming h(1);
  EXPECT_EQ(h.call({0, 0, 0, 1000}, 0, 32, 0, false, 0), 32000u);
  // A free issued while the mallocs' 32,000 cycles of the device's slot run waits behind them.
  EXPECT_EQ(h.call({0, 0, 0, 214}, 0, 32, 0, false, 1000), 32000u + 32 * 214);
}

}  // namespace
}  // namespace warpsim::sim::timing
