// The device heap's timing (heap_timing.h), exact to the cycle: a warp's call ends when its own
// time, its SM's slot and the device's slot are through its lanes' calls.
#include "sim/timing/heap_timing.h"

#include <gtest/gtest.h>

namespace warpsim::sim::timing {
namespace {

// The H100's malloc as measured (configs/h200.json): 8,735 + 5,001 a lane, SM 2,499, device 1,660.
constexpr HeapCallCosts kMalloc{8735, 5001, 2499, 1660};

TEST(HeapTiming, OneLaneAloneTakesTheWarpsFixedAndOneLanesTime) {
  HeapTiming h(4);
  EXPECT_EQ(h.call(kMalloc, 0, 1, 100), 100u + 8735 + 5001);
}

TEST(HeapTiming, OneWarpAloneIsBoundByItsOwnTime) {
  HeapTiming h(4);
  EXPECT_EQ(h.call(kMalloc, 0, 32, 0), 8735u + 32 * 5001);  // 168,767: the chip's round 168,778
}

TEST(HeapTiming, FourWarpsOfOneSmAreBoundByTheSmsSlot) {
  HeapTiming h(4);
  uint64_t last = 0;
  for (int w = 0; w < 4; ++w) last = h.call(kMalloc, 0, 32, 0);
  EXPECT_EQ(last, 128u * 2499);  // 319,872: the chip's round 319,930
}

TEST(HeapTiming, ManySmsAreBoundByTheDevicesSlot) {
  HeapTiming h(32);
  uint64_t last = 0;
  for (unsigned sm = 0; sm < 32; ++sm)
    for (int w = 0; w < 4; ++w) last = h.call(kMalloc, sm, 32, 0);
  EXPECT_EQ(last, 4096u * 1660);
}

TEST(HeapTiming, ASlotFreeAgainBeforeTheCallCostsNothingOfThePast) {
  HeapTiming h(2);
  const HeapCallCosts slots{0, 0, 100, 300};
  EXPECT_EQ(h.call(slots, 0, 2, 0), 600u);  // the device's slot: 2 x 300
  // The SM's slot is free at 200 and the device's at 600: a call at 5,000 waits for neither.
  EXPECT_EQ(h.call(slots, 0, 1, 5000), 5300u);
  // Another SM's call at the same cycle queues behind it for the device's slot.
  EXPECT_EQ(h.call(slots, 1, 1, 5000), 5600u);
}

TEST(HeapTiming, MallocAndFreeShareTheSlots) {
  HeapTiming h(1);
  EXPECT_EQ(h.call({0, 0, 0, 1000}, 0, 32, 0), 32000u);
  // A free issued while the mallocs' 32,000 cycles of the device's slot run waits behind them.
  EXPECT_EQ(h.call({0, 0, 0, 214}, 0, 32, 1000), 32000u + 32 * 214);
}

}  // namespace
}  // namespace warpsim::sim::timing
