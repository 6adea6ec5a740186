#include "sim/func/memory.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace warpsim::sim {
namespace {

TEST(DeviceMemory, AllocationsAreAlignedZeroedAndSeparated) {
  DeviceMemory m;
  const uint64_t a = m.allocate(100, "a");
  const uint64_t b = m.allocate(100, "b");
  EXPECT_EQ(a % 256, 0u);
  EXPECT_EQ(b % 256, 0u);
  EXPECT_GE(b, a + 100 + 4096);  // an unmapped gap lies between them
  uint8_t* p = m.find(a, 100);
  ASSERT_NE(p, nullptr);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(p[i], 0);
  EXPECT_EQ(m.bytesAllocated(), 200u);
}

TEST(RecentAllocations, FindsTheRememberedAndForgetsTheOldestPastFour) {
  DeviceMemory m;
  uint64_t base[5];
  const Allocation* a[5];
  for (int i = 0; i < 5; ++i) {
    base[i] = m.allocate(64, "a" + std::to_string(i));
    a[i] = m.allocationContaining(base[i]);
  }
  const Allocation* empty = m.allocationContaining(m.allocate(0, "empty"));
  RecentAllocations r;
  EXPECT_EQ(r.find(base[0]), nullptr);
  for (int i = 0; i < 4; ++i) r.add(a[i]);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(r.find(base[i]), a[i]) << i;
    EXPECT_EQ(r.find(base[i] + 63), a[i]) << i;
    EXPECT_EQ(r.find(base[i] + 64), nullptr) << i;  // one past the end
    EXPECT_EQ(r.find(base[i] - 1), nullptr) << i;
  }
  r.add(a[4]);  // replaces a[0], the one remembered longest ago
  EXPECT_EQ(r.find(base[0]), nullptr);
  EXPECT_EQ(r.find(base[4] + 8), a[4]);
  EXPECT_EQ(r.find(base[1]), a[1]);
  if (empty) {  // an allocation of no bytes holds no address, its base included
    r.add(empty);
    EXPECT_EQ(r.find(empty->base), nullptr);
  }
  r.clear();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(r.find(base[i]), nullptr) << i;
}

TEST(DeviceMemory, FindChecksTheWholeRange) {
  DeviceMemory m;
  const uint64_t a = m.allocate(64, "a");
  EXPECT_NE(m.find(a + 60, 4), nullptr);
  EXPECT_EQ(m.find(a + 61, 4), nullptr);  // runs past the end
  EXPECT_EQ(m.find(a - 1, 1), nullptr);
  EXPECT_EQ(m.find(0, 4), nullptr);
  EXPECT_EQ(m.allocationContaining(a + 10)->label, "a");
}

TEST(DeviceMemory, CopyRoundTripAndFree) {
  DeviceMemory m;
  const uint64_t a = m.allocate(8, "a");
  const uint64_t v = 0x1122334455667788ull;
  m.copyIn(a, &v, 8);
  uint64_t w = 0;
  m.copyOut(&w, a, 8);
  EXPECT_EQ(w, v);
  EXPECT_THROW(m.copyIn(a + 4, &v, 8), std::out_of_range);
  m.free(a);
  EXPECT_EQ(m.find(a, 1), nullptr);
  EXPECT_THROW(m.free(a), std::invalid_argument);
}

}  // namespace
}  // namespace warpsim::sim
