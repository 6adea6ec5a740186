// The one comma-separated integer list parser (harness/arg_spec.h) behind --grid/--block/
// --cluster, texture extents and tensor-map fields, and parseDim3's checks on top of it.
#include <gtest/gtest.h>

#include "harness/arg_spec.h"

namespace warpsim::harness {
namespace {

TEST(IntegerList, ReadsEachPartOrNamesTheFirstBadOne) {
  const IntegerList<uint64_t> a = parseIntegerList<uint64_t>("32,4,1");
  EXPECT_FALSE(a.bad);
  EXPECT_EQ(a.values, (std::vector<uint64_t>{32, 4, 1}));
  const IntegerList<int64_t> signedList = parseIntegerList<int64_t>("-3,0,7");
  EXPECT_FALSE(signedList.bad);
  EXPECT_EQ(signedList.values, (std::vector<int64_t>{-3, 0, 7}));
  EXPECT_EQ(parseIntegerList<uint64_t>("-3").bad, "-3");  // no sign where T is unsigned
  EXPECT_EQ(parseIntegerList<uint64_t>("1,,2").bad, "");
  EXPECT_EQ(parseIntegerList<uint64_t>("").bad, "");
  EXPECT_EQ(parseIntegerList<uint64_t>("1, 2").bad, " 2");
  EXPECT_EQ(parseIntegerList<uint64_t>("7,x9,3").bad, "x9");
  EXPECT_EQ(parseIntegerList<uint32_t>("4294967296").bad, "4294967296");  // out of range
}

TEST(IntegerList, Dim3TakesOneToThreePositiveParts) {
  const kernels::Dim3 d = parseDim3("4", "--grid");
  EXPECT_EQ(d.x, 4u);
  EXPECT_EQ(d.y, 1u);
  EXPECT_EQ(d.z, 1u);
  const kernels::Dim3 e = parseDim3("2,3,4", "--block");
  EXPECT_EQ(e.x * 100 + e.y * 10 + e.z, 234u);
  auto message = [](const std::string& text) {
    try {
      parseDim3(text, "--grid");
    } catch (const ArgError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("1,2,3,4"), "--grid '1,2,3,4': at most three dimensions");
  for (const char* bad : {"1,0", "1,,2", "", "0", "4294967296", "2,x", "-1"})
    EXPECT_EQ(message(bad),
              "--grid '" + std::string(bad) + "': expected X[,Y[,Z]] with positive integers")
        << bad;
}

}  // namespace
}  // namespace warpsim::harness
