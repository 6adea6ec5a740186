// The device the driver describes, and the HMAC-MD2 of the runtime's integrity check.
#include "harness/driver/device_attributes.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "harness/driver/md2.h"

namespace {

using namespace warpsim::driver;

TEST(DeviceAttributes, DescribeAnH200) {
  EXPECT_EQ(deviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), 9);
  EXPECT_EQ(deviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), 0);
  EXPECT_EQ(deviceAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), 132);
  EXPECT_EQ(deviceAttribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE), 32);
  EXPECT_EQ(deviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), 227 * 1024);
  EXPECT_EQ(deviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z), 64);
  EXPECT_EQ(kDeviceTotalMemory, 143771ull * 1024 * 1024);
}

TEST(DeviceAttributes, UnnamedNumbersInRangeAreZeroOthersUnknown) {
  EXPECT_EQ(deviceAttribute(139), 0);  // asked for by the runtime, not named in cuda.h
  EXPECT_FALSE(deviceAttribute(0).has_value());
  EXPECT_FALSE(deviceAttribute(CU_DEVICE_ATTRIBUTE_MAX).has_value());
}

std::string hex(const Md2Digest& d) {
  std::string s;
  char b[3];
  for (uint8_t v : d) {
    std::snprintf(b, sizeof b, "%02x", v);
    s += b;
  }
  return s;
}

// RFC 1319's test suite.
TEST(Md2, MatchesTheRfc) {
  auto md2Of = [](const std::string& s) {
    return hex(md2(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
  };
  EXPECT_EQ(md2Of(""), "8350e5a3e24c153df2275c9f80692773");
  EXPECT_EQ(md2Of("abc"), "da853b0d3f88d99b30283a69e6ded6bb");
  EXPECT_EQ(md2Of("message digest"), "ab4f496bfb2a530b219ff33031fe06b0");
  EXPECT_EQ(
      md2Of("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
      "d5976f79d83d3a0dc9806c3c66f3efd8");
}

TEST(Md2, HmacIsOuterOfInner) {
  std::array<uint8_t, 16> key{};
  for (int i = 0; i < 16; ++i) key[i] = uint8_t(i * 7 + 1);
  const std::vector<uint8_t> message = {1, 2, 3, 4, 5};
  std::vector<uint8_t> inner;
  for (uint8_t k : key) inner.push_back(k ^ 0x36);
  inner.insert(inner.end(), message.begin(), message.end());
  const Md2Digest in = md2(inner.data(), inner.size());
  std::vector<uint8_t> outer;
  for (uint8_t k : key) outer.push_back(k ^ 0x5c);
  outer.insert(outer.end(), in.begin(), in.end());
  EXPECT_EQ(hex(hmacMd2(key, message)), hex(md2(outer.data(), outer.size())));
  EXPECT_NE(hex(hmacMd2(key, message)), hex(hmacMd2(key, {1, 2, 3, 4, 6})));
}

}  // namespace
