// The .param bytes a frame must zero at entry (isa/param_zeroing.h): those some path may read
// before it writes them, or the whole area when something the analysis does not follow may
// reach it. The run-level tests are in tests/sim/param_zeroing_run_test.cpp.
#include "isa/param_zeroing.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "isa/lower.h"
#include "isa/parser.h"

namespace warpsim::isa {
namespace {

using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;

// A module with the device function `f(.param .b32 x) -> (.param .b32 r)` whose body is `body`
// (x at offset 0 of its area, r at 4, its call-site variables after), and a kernel calling it.
Program lowered(const std::string& body) {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".func (.param .b32 r) f(.param .b32 x)\n{\n  .reg .pred %p<3>;\n"
      "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n" +
      body +
      "  ret;\n}\n"
      ".visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<4>;\n"
      "  {\n  .param .b32 a;\n  .param .b32 b;\n  st.param.b32 [a], %r1;\n"
      "  call (b), f, (a);\n  ld.param.b32 %r2, [b];\n  }\n  ret;\n}\n";
  return lower(parseModule(ptx, "param_zeroing.ptx"),
               [](const ir::VarDecl&) { return uint64_t(0); });
}

const FunctionCode& f(const Program& p) { return p.functions.at(size_t(p.findFunction("f"))); }

TEST(ParamZeroing, NothingWhenEveryReadFollowsAWriteOnEveryPath) {
  // The parameter is written by the call, the return value before ret on both paths.
  const Program p = lowered(
      "  ld.param.b32 %r1, [x];\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra ZERO;\n"
      "  st.param.b32 [r], %r1;\n  ret;\nZERO:\n  st.param.b32 [r], 7;\n");
  EXPECT_TRUE(f(p).paramZeroKnown);
  EXPECT_EQ(f(p).paramZeroRanges, Ranges{});
  // The kernel's call-site variables: a written before the call, b by the call's return.
  const FunctionCode& k = p.functions.at(size_t(p.findEntry("k")));
  EXPECT_TRUE(k.paramZeroKnown);
  EXPECT_EQ(k.paramZeroRanges, Ranges{});
}

TEST(ParamZeroing, AReturnValueWrittenOnOnePathIsZeroed) {
  // ret reads r, which the path through ZERO never writes.
  const Program p = lowered(
      "  ld.param.b32 %r1, [x];\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 bra ZERO;\n"
      "  st.param.b32 [r], %r1;\nZERO:\n");
  EXPECT_TRUE(f(p).paramZeroKnown);
  EXPECT_EQ(f(p).paramZeroRanges, (Ranges{{4, 4}}));
}

TEST(ParamZeroing, AGuardedStoreIsNoWrite) {
  // Lanes whose guard is false keep the old bytes: r and t are read before written.
  const Program p = lowered(
      "  .param .b32 t;\n  ld.param.b32 %r1, [x];\n  setp.eq.u32 %p1, %r1, 0;\n"
      "  @!%p1 st.param.b32 [t], %r1;\n  ld.param.b32 %r2, [t];\n"
      "  @!%p1 st.param.b32 [r], %r2;\n");
  EXPECT_TRUE(f(p).paramZeroKnown);
  EXPECT_EQ(f(p).paramZeroRanges, (Ranges{{4, 8}}));  // r at 4, t at 8: one run of bytes
}

TEST(ParamZeroing, OnlyTheBytesReadBeforeWrittenOfAVariable) {
  // st.param.b16 writes t's low half; the .b32 load then reads its high half unwritten.
  const Program p = lowered(
      "  .param .b32 t;\n  st.param.b32 [r], 1;\n  mov.u32 %r1, 3;\n"
      "  st.param.b16 [t], %r1;\n  ld.param.b32 %r2, [t];\n");
  EXPECT_TRUE(f(p).paramZeroKnown);
  EXPECT_EQ(f(p).paramZeroRanges, (Ranges{{10, 2}}));
}

TEST(ParamZeroing, ACallsArgumentsAreReadAndItsReturnsWritten) {
  // f calls itself: its argument variable a2 is read by the call before anything writes it; the
  // return variable b2 is written by the call before ld.param reads it.
  const Program p = lowered(
      "  st.param.b32 [r], 1;\n  {\n  .param .b32 a2;\n  .param .b32 b2;\n"
      "  call (b2), f, (a2);\n  ld.param.b32 %r2, [b2];\n  }\n");
  EXPECT_TRUE(f(p).paramZeroKnown);
  EXPECT_EQ(f(p).paramZeroRanges, (Ranges{{8, 4}}));
}

// Whether f's zeroing is known for `body`, which must lower (else it would be unknown for the
// error, not for what the body does).
bool known(const std::string& body) {
  const Program p = lowered(body);
  EXPECT_FALSE(f(p).error) << f(p).error->what();
  return f(p).paramZeroKnown;
}

TEST(ParamZeroing, AnythingTheAnalysisDoesNotFollowZeroesTheWholeArea) {
  // A .param address taken into a register.
  EXPECT_FALSE(known("  st.param.b32 [r], 1;\n  mov.u64 %rd1, r;\n"));
  // A .param access through a register.
  EXPECT_FALSE(known("  st.param.b32 [r], 1;\n  mov.u64 %rd1, 4;\n  ld.param.b32 %r1, [%rd1];\n"));
  // A generic access (it may reach the frame's .param area through the window).
  EXPECT_FALSE(known("  st.param.b32 [r], 1;\n  mov.u64 %rd1, 4;\n  ld.u32 %r1, [%rd1];\n"));
  // A global access cannot: still known.
  EXPECT_TRUE(known("  st.param.b32 [r], 1;\n  mov.u64 %rd1, 4;\n  ld.global.u32 %r1, [%rd1];\n"));
}

}  // namespace
}  // namespace warpsim::isa
