// A frame's .param variables read as zero until written, though the frame's storage is the
// previous call's (sim/func/warp.h) and only the bytes isa/param_zeroing.h names are zeroed.
#include <gtest/gtest.h>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

// f(x): t and r are written only by lanes with x != 0 (guarded stores: no write for the
// others), so f(0) must read t as 0 and return 0, not the bytes f(5) left in the same frame
// storage. out[2i] = f(5), out[2i+1] = f(0); the odd lanes first call f(9) inside a divergent
// branch, whose reconvergence point is the call's next pc (the call returns onto it).
const char* kStaleParams = R"(
.version 9.0
.target sm_90
.address_size 64
.func (.param .b32 r) f(.param .b32 x)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .param .b32 t;
  ld.param.b32 %r1, [x];
  setp.eq.u32 %p1, %r1, 0;
  @!%p1 st.param.b32 [t], %r1;
  ld.param.b32 %r2, [t];
  add.u32 %r3, %r2, %r1;
  @!%p1 st.param.b32 [r], %r3;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r6, 77;
  and.b32 %r7, %r1, 1;
  setp.eq.u32 %p1, %r7, 0;
  @%p1 bra WARM;
  {
    .param .b32 a0;
    .param .b32 b0;
    st.param.b32 [a0], 9;
    call (b0), f, (a0);
  }
WARM:
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], 5;
    call (b), f, (a);
    ld.param.b32 %r3, [b];
  }
  st.global.u32 [%rd3], %r3;
  {
    .param .b32 a2;
    .param .b32 b2;
    st.param.b32 [a2], 0;
    call (b2), f, (a2);
    ld.param.b32 %r5, [b2];
  }
  st.global.u32 [%rd3+4], %r5;
  ret;
}
)";

TEST(ParamZeroing, ParamsReadBeforeWrittenReadZeroInARecycledFrame) {
  PtxRunner r(kStaleParams);
  const uint64_t out = r.buffer<uint32_t>(2 * 64, std::vector<uint32_t>(2 * 64, 0xAAAAAAAAu));
  for (unsigned threads : {1u, 2u}) {
    sim::LaunchOptions o;
    o.threads = threads;
    const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)}, o);
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    const auto v = r.read<uint32_t>(out, 2 * 64);
    for (uint32_t i = 0; i < 64; ++i) {
      EXPECT_EQ(v[2 * i], 10u) << i;     // f(5): t = 5, r = 5 + 5
      EXPECT_EQ(v[2 * i + 1], 0u) << i;  // f(0): t reads 0, r is never written
    }
  }
}

}  // namespace
}  // namespace warpsim
