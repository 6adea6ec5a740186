// Function symbols as values (issue 10, item 1): `mov.u64 %rd, f;` and a function's address in
// a `.global` initializer (a function-pointer table) load and give the function's address
// (isa/lower.h: functionAddress), distinct per function and equal wherever it is taken; a call
// through such a value enters the function (tests/isa/indirect_call_test.cpp has the rest).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "isa/lower.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

constexpr const char* kPtx = R"(.version 9.0
.target sm_90
.address_size 64
.func (.param .b32 r) twice(.param .b32 a);
.visible .func (.param .b32 r) thrice(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  mul.lo.s32 %r2, %r1, 3;
  st.param.b32 [r], %r2;
  ret;
}
.visible .func (.param .b32 r) twice(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.global .align 8 .u64 table[3] = {twice, thrice, generic(twice)};
.visible .entry addresses(.param .u64 out)
{
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, twice;
  mov.u64 %rd3, thrice;
  st.global.u64 [%rd1], %rd2;
  st.global.u64 [%rd1+8], %rd3;
  ld.global.u64 %rd4, [table];
  ld.global.u64 %rd5, [table+8];
  ld.global.u64 %rd6, [table+16];
  st.global.u64 [%rd1+16], %rd4;
  st.global.u64 [%rd1+24], %rd5;
  st.global.u64 [%rd1+32], %rd6;
  ret;
}
.visible .entry indirect(.param .u64 out)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [out];
  ld.global.u64 %rd2, [table];
  {
  .param .b32 param0;
  st.param.b32 [param0], 5;
  .param .b32 retval0;
  prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
  call (retval0), %rd2, (param0), prototype_0;
  ld.param.b32 %r1, [retval0];
  }
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

TEST(FunctionValues, AFunctionsNameIsItsAddressInRegistersAndInitializers) {
  PtxRunner r(kPtx);
  const uint64_t out = r.buffer<uint64_t>(5);
  const auto res = r.launch("addresses", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault);
  const std::vector<uint64_t> v = r.read<uint64_t>(out, 5);
  // Functions are numbered in declaration order; a name's last declaration (the definition of
  // `twice`, index 2) is the one lowering numbers.
  EXPECT_EQ(v[0], isa::functionAddress(2));
  EXPECT_EQ(v[1], isa::functionAddress(1));
  EXPECT_NE(v[0], v[1]);
  EXPECT_EQ(v[2], v[0]);  // the table's entries are the same values
  EXPECT_EQ(v[3], v[1]);
  EXPECT_EQ(v[4], v[0]);
}

TEST(FunctionValues, ACallThroughATableEntryEntersTheFunction) {
  PtxRunner r(kPtx);
  const uint64_t out = r.buffer<uint64_t>(5);
  const auto res = r.launch("indirect", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
  EXPECT_EQ(r.read<uint32_t>(out, 1)[0], 10u);  // table[0] is twice, called with 5
}

}  // namespace
}  // namespace warpsim::test
