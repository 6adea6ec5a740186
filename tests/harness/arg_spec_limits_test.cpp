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
