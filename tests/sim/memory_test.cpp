#include "sim/func/memory.h"

#include <gtest/gtest.h>

#include <stdexcept>

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
