// Which instructions are launch-invariant (isa/invariants.h): those a frame kept from the
// previous CTA of the launch may skip because their register already holds their value.
#include "isa/invariants.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "isa/lower.h"
#include "isa/parser.h"

namespace warpsim::isa {
namespace {

Program lowered(const std::string& functions) {
  const std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n" + functions;
  return lower(parseModule(ptx, "invariants.ptx"), [](const ir::VarDecl&) { return uint64_t(0); });
}

// The text of each invariant instruction of `fn`, in order.
std::vector<std::string> invariants(const FunctionCode& fn) {
  std::vector<std::string> out;
  uint32_t next = 0;
  for (const Inst& in : fn.code) {
    if (in.invariant == kNoInvariant) continue;
    EXPECT_EQ(in.invariant, next++) << in.text;  // numbered in program order from 0
    out.push_back(in.text + " @" + std::to_string(in.pc));
  }
  EXPECT_EQ(fn.numInvariants, next);
  return out;
}

TEST(LaunchInvariants, KernelParametersPlaceSpecialsImmediatesAndTheirGlobalConversions) {
  const Program p = lowered(R"(
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd2, %rd3;
  cvta.to.global.u64 %rd5, %rd4;
  mov.u32 %r6, 7;
  mov.u32 %r7, %r3;
  mov.u32 %r8, %r5;
  ld.param.u32 %r9, [n];
  mov.u32 %r9, %r4;
  cvta.to.shared.u64 %rd6, %rd1;
  st.global.u32 [%rd5], %r6;
  st.global.u32 [%rd5+4], %r7;
  st.global.u32 [%rd5+8], %r8;
  st.global.u32 [%rd5+12], %r9;
  st.global.u64 [%rd5+16], %rd6;
DONE:
  ret;
}
)");
  // Not: %ctaid (each CTA's own), values computed from it, a register written twice (%r9), a
  // conversion to .shared (not the identity on every machine).
  EXPECT_EQ(
      invariants(p.functions.at(0)),
      (std::vector<std::string>{"ld.param.u64 @0", "ld.param.u32 @1", "mov.u32 @3", "mov.u32 @4",
                                "cvta.to.global.u64 @8", "mov.u32 @12", "mov.u32 @13"}));
}

TEST(LaunchInvariants, NotRegistersAFrameZeroesNorADeviceFunctionsParameters) {
  const Program p = lowered(R"(
.func (.param .b32 r) f(.param .b32 a)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [a];
  mov.u32 %r2, %laneid;
  add.u32 %r3, %r1, %r2;
  st.param.b32 [r], %r3;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shfl.sync.idx.b32 %r2, %r3, 0, 31, -1;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  shfl.sync.idx.b32 %r5, %r4, 0, 31, -1;
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r1;
  call.uni (r0), f, (a0);
  ld.param.b32 %r6, [r0];
  }
  add.u32 %r7, %r6, %r2;
  add.u32 %r7, %r7, %r5;
  st.global.u32 [%rd1], %r7;
  ret;
}
)");
  const FunctionCode& f = p.functions.at(size_t(p.findFunction("f")));
  const FunctionCode& k = p.functions.at(size_t(p.findFunction("k")));
  // f: none in a device function (its own parameter is the caller's; the CTA keeps the lanes of
  // the kernel's frame only).
  EXPECT_EQ(invariants(f), std::vector<std::string>{});
  // k: %r3 is read before it is written (zeroed at entry), %r4 is a shuffle's source (zeroed at
  // entry: other lanes read it), a call's return is no kernel parameter.
  EXPECT_EQ(invariants(k), (std::vector<std::string>{"ld.param.u64 @0", "mov.u32 @1"}));
}

}  // namespace
}  // namespace warpsim::isa
