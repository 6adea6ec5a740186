// The argument language's bounds: file(PATH) never reads past the buffer, sizes are checked
// against the device memory before anything is allocated, and the kernel's parameter types
// are checked (the messages themselves are golden files in tests/golden/cli_errors).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "harness/arg_spec.h"
#include "isa/insn_table.h"
#include "isa/parser.h"

namespace warpsim::harness {
namespace {

TEST(ArgSpecLimits, FileFromADeviceReadsOnlyTheBuffer) {
  // /dev/zero has no end: with a count, exactly the buffer is read.
  const ParsedArg a = parseArg("z=u32[8]:file(/dev/zero)", 1, 0);
  ASSERT_TRUE(a.isBuffer);
  EXPECT_EQ(a.buffer.bytes, std::vector<uint8_t>(32, 0));
  // Without one, a device is refused instead of read without end.
  EXPECT_THROW(parseArg("z=u32[]:file(/dev/zero)", 1, 0), ArgError);
}

TEST(ArgSpecLimits, BufferSizeIsCheckedAgainstTheLimitBeforeAllocating) {
  EXPECT_NO_THROW(parseArg("b=u8[1024]", 1, 0, 1024));
  EXPECT_THROW(parseArg("b=u8[1025]", 1, 0, 1024), ArgError);
  // 2^62 elements of 8 bytes wrap a 64-bit byte count to 0: refused all the same.
  EXPECT_THROW(parseArg("b=u64[4611686018427387904]", 1, 0), ArgError);
  // Buffers add up: the second finds only what the first left.
  EXPECT_THROW(buildProblem({"a=u8[600]", "b=u8[600]"}, "k", {}, {}, 0, 1000), ArgError);
}

// u64 values past 2^63 were converted through a signed 64-bit integer: undefined behaviour
// (UBSan), and in practice every such value became 0x8000000000000000.
TEST(ArgSpecLimits, U64RandomAndIotaPastTwoToThe63DoNotWrap) {
  auto values = [](const std::string& s) {
    const ParsedArg a = parseArg(s, 1, 0);
    std::vector<uint64_t> v(a.buffer.bytes.size() / 8);
    std::memcpy(v.data(), a.buffer.bytes.data(), a.buffer.bytes.size());
    return v;
  };
  const std::vector<uint64_t> r = values("r=u64[64]:random(1,0,1e19)");
  unsigned above = 0;
  for (uint64_t x : r) {
    EXPECT_LE(x, 10000000000000000000ull);
    above += x > (uint64_t(1) << 63);
  }
  EXPECT_GT(above, 0u);  // about 8% of [0, 1e19] lies past 2^63: some of 64 draws
  EXPECT_LT(above, 20u);
  EXPECT_EQ(values("i=u64[2]:iota(1e19,0)"),
            (std::vector<uint64_t>{10000000000000000000ull, 10000000000000000000ull}));
  EXPECT_EQ(
      values("s=s64[2]:iota(-9e18,1e18)"),
      (std::vector<uint64_t>{uint64_t(-9000000000000000000ll), uint64_t(-8000000000000000000ll)}));
  // The top of the range: 2^64 - 2048 is the largest double below 2^64.
  EXPECT_EQ(values("t=u64[1]:random(5,18446744073709549568,18446744073709549568)"),
            (std::vector<uint64_t>{18446744073709549568ull}));
}

TEST(ArgSpecLimits, HexIsABitPatternDecimalIsAValue) {
  auto bits = [](const std::string& s) {
    const ParsedArg a = parseArg(s, 1, 0);
    uint64_t v = 0;
    std::memcpy(&v, a.arg.scalar.data(), a.arg.scalar.size());
    return v;
  };
  EXPECT_EQ(bits("s32:0xFFFFFFFF"), 0xFFFFFFFFu);
  EXPECT_EQ(bits("s32:-2147483648"), 0x80000000u);
  EXPECT_EQ(bits("s8:-1"), 0xFFu);
  EXPECT_EQ(bits("u64:18446744073709551615"), UINT64_MAX);
  EXPECT_THROW(parseArg("s32:2147483648", 1, 0), ArgError);
  EXPECT_THROW(parseArg("s32:0x100000000", 1, 0), ArgError);
  EXPECT_THROW(parseArg("u64:18446744073709551616", 1, 0), ArgError);
  EXPECT_THROW(parseArg("u32: 1", 1, 0), ArgError);
  EXPECT_EQ(bits("f32:inf"), 0x7F800000u);  // an explicit infinity is a value
  EXPECT_EQ(bits("f64:1e-320"), 2024u);     // a subnormal is a value, not an overflow
  // Floats follow the same rule: hexadecimal digits are the bits (f32:0x3727C5AC was read as
  // the hexadecimal float 925353388 and made a Triton layer norm's eps 9.25e8); a C
  // hexadecimal float with an exponent is a value.
  EXPECT_EQ(bits("f32:0x3727C5AC"), 0x3727C5ACu);
  EXPECT_EQ(bits("f16:0x3C00"), 0x3C00u);
  EXPECT_EQ(bits("f64:0x3FF0000000000000"), 0x3FF0000000000000u);
  EXPECT_EQ(bits("f32:0x1.8p1"), 0x40400000u);  // 3.0
  EXPECT_THROW(parseArg("f32:0x100000000", 1, 0), ArgError);
  EXPECT_THROW(parseArg("f16:0x10000", 1, 0), ArgError);
}

TEST(ArgSpecLimits, TypesAreCheckedNotOnlySizes) {
  const ir::Module m = isa::parseModule(
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 p, .param .u32 n, .param .f32 x, .param .b32 b,"
      " .param .align 4 .b8 s[8])\n{\n  ret;\n}\n",
      "t.ptx", isa::validateInstruction);
  const ir::Function& k = m.functions.front();
  auto given = [](std::vector<std::string> args) {
    return buildProblem(args, "k", {}, {}, 0).given;
  };
  // nvcc declares int as .u32: s32 is fine; .b32 takes a float; a struct is sized at launch.
  EXPECT_NO_THROW(checkArgTypes(k, given({"p=f32[4]", "s32:-1", "f32:1", "f32:2", "u64:0"})));
  EXPECT_NO_THROW(checkArgTypes(k, given({"u64:0", "u32:1", "f32:1", "s32:2", "u64:0"})));
  EXPECT_THROW(checkArgTypes(k, given({"p=f32[4]", "f32:1", "f32:1", "u32:2", "u64:0"})), ArgError);
  EXPECT_THROW(checkArgTypes(k, given({"p=f32[4]", "u32:1", "u32:1", "u32:2", "u64:0"})), ArgError);
  EXPECT_THROW(checkArgTypes(k, given({"f64:0", "u32:1", "f32:1", "u32:2", "u64:0"})), ArgError);
  EXPECT_THROW(checkArgTypes(k, given({"p=f32[4]", "u32:1"})), ArgError);
}

}  // namespace
}  // namespace warpsim::harness
