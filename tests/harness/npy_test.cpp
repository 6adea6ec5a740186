// numpy's .npy format for --dump NAME:FILE.npy: the header numpy.load parses and the data
// after it on a 64-byte boundary (python/tests/test_cli_outputs.py loads such files with numpy).
#include "harness/npy.h"

#include <gtest/gtest.h>

#include <cstring>

namespace warpsim::harness {
namespace {

kernels::HostBuffer buffer(kernels::ElemType t, std::vector<uint8_t> bytes) {
  kernels::HostBuffer b;
  b.name = "b";
  b.type = t;
  b.bytes = std::move(bytes);
  return b;
}

TEST(Npy, HeaderAndDataOfAnF32Buffer) {
  const float values[3] = {1.5f, -2.0f, 0.25f};
  std::vector<uint8_t> bytes(sizeof values);
  std::memcpy(bytes.data(), values, sizeof values);
  const std::string f = npyFile(buffer(kernels::ElemType::F32, bytes));
  ASSERT_EQ(f.size(), 128u + 12u);  // a 57-character dictionary padded to 128 bytes
  EXPECT_EQ(f.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t headerLength = uint8_t(f[8]) | (uint8_t(f[9]) << 8);
  EXPECT_EQ(headerLength, 118u);
  const std::string header = f.substr(10, headerLength);
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  EXPECT_EQ(header.substr(0, dict.size()), dict);
  EXPECT_EQ(header.find_first_not_of(' ', dict.size()), headerLength - 1);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(std::memcmp(f.data() + 128, values, sizeof values), 0);
}

TEST(Npy, EveryElementTypeHasItsDescr) {
  using kernels::ElemType;
  const std::pair<ElemType, const char*> expected[] = {
      {ElemType::U8, "|u1"},   {ElemType::S8, "|i1"},  {ElemType::U16, "<u2"},
      {ElemType::S16, "<i2"},  {ElemType::U32, "<u4"}, {ElemType::S32, "<i4"},
      {ElemType::U64, "<u8"},  {ElemType::S64, "<i8"}, {ElemType::F16, "<f2"},
      {ElemType::BF16, "<u2"}, {ElemType::F32, "<f4"}, {ElemType::F64, "<f8"}};
  for (const auto& [t, descr] : expected) EXPECT_EQ(npyDescr(t), descr) << kernels::elemName(t);
}

TEST(Npy, DataStartsOnA64ByteBoundary) {
  for (size_t n : {0, 1, 999, 123456}) {
    const std::string f = npyFile(buffer(kernels::ElemType::U8, std::vector<uint8_t>(n, 7)));
    const size_t headerLength = uint8_t(f[8]) | (uint8_t(f[9]) << 8);
    EXPECT_EQ((10 + headerLength) % 64, 0u);
    EXPECT_NE(f.find("'shape': (" + std::to_string(n) + ",)"), std::string::npos);
    EXPECT_EQ(f.size(), 10 + headerLength + n);
  }
}

TEST(Npy, PathsEndingInNpyAskForIt) {
  EXPECT_TRUE(isNpyPath("out/y.npy"));
  EXPECT_FALSE(isNpyPath("y.bin"));
  EXPECT_FALSE(isNpyPath(".npy"));
  EXPECT_FALSE(isNpyPath("y.npy.bin"));
}

}  // namespace
}  // namespace warpsim::harness
