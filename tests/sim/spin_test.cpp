// A warp spinning in a pure loop while nothing else runs counts its slice's remaining passes
// without running them (sim/func/spin.h): the kernel must see exactly what it sees when every
// pass runs (an observed launch, here the statistics, runs every pass). %clock, which counts
// the warp's instructions, shows any pass counted wrong.
#include <gtest/gtest.h>

#include "isa/facts.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim {
namespace {

// Thread 0 spins on a shared flag (a volatile load, a compare, a branch back) that thread 32,
// in the next warp, sets after `work` passes of a counting loop; then every thread writes its
// %clock and thread 0 also the flag it saw. Warp 0 spins through its first slice before warp 1
// runs at all.
constexpr const char* kSpin = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 work)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 flag;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [work];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra START;
  st.shared.u32 [flag], 0;
START:
  bar.sync 0;
  @%p1 bra SETTER;
SPIN:
  ld.volatile.shared.u32 %r2, [flag];
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra SPIN;
  bra DONE;
SETTER:
  setp.ne.u32 %p3, %r1, 32;
  @%p3 bra DONE;
  mov.u32 %r3, 0;
WORK:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p3, %r3, %r9;
  @%p3 bra WORK;
  st.volatile.shared.u32 [flag], %r3;
DONE:
  mov.u32 %r4, %clock;
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ld.volatile.shared.u32 %r5, [flag];
  st.global.u32 [%rd3+4], %r5;
  ret;
}
)";

std::vector<uint32_t> run(bool observed, uint32_t slice, uint32_t work) {
  test::PtxRunner r(kSpin);
  const uint64_t out = r.buffer<uint32_t>(128);
  sim::LaunchOptions o;
  o.statistics = observed;
  o.warpSlice = slice;
  const auto res = r.launch("k", {1, 1, 1}, {64, 1, 1},
                            {test::PtxRunner::ptr(out), test::PtxRunner::u32(work)}, o);
  EXPECT_FALSE(res.fault) << res.fault->message;
  return r.read<uint32_t>(out, 128);
}

TEST(Spin, TheSpinLoopIsMarkedAndTheCountingLoopToo) {
  // Both loops only compute registers from registers and memory reads; the setter's store
  // and the branches out are outside them.
  test::PtxRunner r(kSpin);
  const isa::FunctionCode& fn = r.module().program.functions[0];
  unsigned marked = 0;
  for (const isa::Inst& in : fn.code)
    if (in.closesPureLoop) {
      ++marked;
      EXPECT_LE(in.target, in.pc);
    }
  EXPECT_EQ(marked, 2u);
}

TEST(Spin, UnobservedSpinsSeeWhatObservedOnesSee) {
  // Slices that end inside a pass and at its end, and setters that finish in the first slice or
  // several later: the spinning thread's clock (its warp's instructions) and the flag it saw
  // are the same with every pass run and with the passes counted.
  for (uint32_t slice : {2048u, 1000u, 7u, 3u})
    for (uint32_t work : {1u, 5000u}) {
      const std::vector<uint32_t> want = run(true, slice, work), got = run(false, slice, work);
      EXPECT_EQ(got, want) << "slice " << slice << " work " << work;
      EXPECT_EQ(want[1], work);  // thread 0 saw the setter's flag
      EXPECT_GT(want[0], slice) << "thread 0 spun through at least one slice";
    }
}

}  // namespace
}  // namespace warpsim::sim
