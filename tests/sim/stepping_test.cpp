// The steppable core (Cta::step): a driver above sim/func/ holds several resident CTAs and
// picks which warp issues next, one instruction at a time, as a timing model's scheduler will.
// Any schedule of a race-free kernel gives the functional driver's result.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "sim/func/cta.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim {
namespace {

// A block-wide tree reduction in shared memory with a barrier per level: CTA c writes
// sum(c * 1000 + tid) over its 128 threads.
constexpr const char* kReduce = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 1000, %r1;
  mov.u32 %r4, s;
  shl.b32 %r5, %r1, 2;
  add.s32 %r6, %r4, %r5;
  st.shared.u32 [%r6], %r3;
  bar.sync 0;
  mov.u32 %r7, 64;
LOOP:
  setp.ge.u32 %p1, %r1, %r7;
  @%p1 bra SKIP;
  shl.b32 %r8, %r7, 2;
  add.s32 %r9, %r6, %r8;
  ld.shared.u32 %r10, [%r9];
  ld.shared.u32 %r11, [%r6];
  add.s32 %r11, %r11, %r10;
  st.shared.u32 [%r6], %r11;
SKIP:
  bar.sync 0;
  shr.u32 %r7, %r7, 1;
  setp.ne.u32 %p2, %r7, 0;
  @%p2 bra LOOP;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.shared.u32 %r10, [%r4];
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r10;
DONE:
  ret;
}
)";

constexpr uint32_t kCtas = 3;

uint32_t expectedSum(uint32_t cta) { return 128 * 1000 * cta + 127 * 128 / 2; }

// What Gpu::launch sets up, built by hand as a timing model above sim/func/ would.
struct Launch {
  test::PtxRunner runner{kReduce, "reduce.ptx"};
  uint64_t out = runner.buffer<uint32_t>(kCtas);
  std::vector<uint8_t> params = test::PtxRunner::ptr(out);
  LaunchContext ctx;
  Launch() {
    const isa::Program& p = runner.module().program;
    ctx.program = &p;
    ctx.entry = &p.functions[size_t(p.findEntry("k"))];
    ctx.memory = &runner.gpu().memory();
    ctx.grid = {kCtas, 1, 1};
    ctx.block = {128, 1, 1};
    ctx.params = &params;
  }
};

TEST(Stepping, AWarpReportsBlockedAtABarrierAndFinishedAtTheEnd) {
  Launch l;
  Cta cta(l.ctx, 0);
  ASSERT_EQ(cta.warpCount(), 4u);
  // Up to the first bar.sync: 9 instructions, the last of them the barrier.
  StepResult r = cta.step(0, 100);
  EXPECT_EQ(r.status, StepStatus::Blocked);
  EXPECT_EQ(r.issued, 9u);
  EXPECT_EQ(cta.warp(0).state, WarpState::AtBarrier);
  // One instruction at a time: issued, not blocked.
  r = cta.step(1, 1);
  EXPECT_EQ(r.status, StepStatus::Issued);
  EXPECT_EQ(r.issued, 1u);
  EXPECT_EQ(cta.warp(1).state, WarpState::Ready);
  // Run every warp to its end in turn; the last arrival releases the others.
  for (bool any = true; any;) {
    any = false;
    for (unsigned w = 0; w < cta.warpCount(); ++w)
      if (cta.warp(w).state == WarpState::Ready) {
        r = cta.step(w, 1000);
        any = true;
        if (cta.warp(w).state == WarpState::Done) {
          EXPECT_EQ(r.status, StepStatus::Finished);
        }
      }
  }
  EXPECT_TRUE(cta.finished());
  EXPECT_EQ(l.runner.read<uint32_t>(l.out, 1)[0], expectedSum(0));
}

RC_GTEST_PROP(Stepping, AnyScheduleOfResidentCtasGivesTheFunctionalResult, ()) {
  Launch l;
  std::vector<std::unique_ptr<Cta>> resident;
  for (uint32_t c = 0; c < kCtas; ++c) resident.push_back(std::make_unique<Cta>(l.ctx, c));
  const auto picks =
      *rc::gen::container<std::vector<uint32_t>>(4096, rc::gen::inRange<uint32_t>(0, kCtas * 4));
  size_t next = 0;
  for (;;) {
    std::vector<std::pair<Cta*, unsigned>> ready;
    for (auto& c : resident)
      for (unsigned w = 0; w < c->warpCount(); ++w)
        if (c->warp(w).state == WarpState::Ready) ready.push_back({c.get(), w});
    if (ready.empty()) break;
    const auto [cta, w] = ready[picks[next++ % picks.size()] % ready.size()];
    cta->step(w, 1);
  }
  for (auto& c : resident) RC_ASSERT(c->finished());
  const auto sums = l.runner.read<uint32_t>(l.out, kCtas);
  for (uint32_t c = 0; c < kCtas; ++c) RC_ASSERT(sums[c] == expectedSum(c));
}

TEST(Stepping, TheFunctionalDriverComputesTheSame) {
  Launch l;
  const LaunchResult r =
      l.runner.launch("k", {kCtas, 1, 1}, {128, 1, 1}, {test::PtxRunner::ptr(l.out)});
  ASSERT_FALSE(r.fault);
  const auto sums = l.runner.read<uint32_t>(l.out, kCtas);
  for (uint32_t c = 0; c < kCtas; ++c) EXPECT_EQ(sums[c], expectedSum(c));
}

// A kernel without ret or exit: the warp faults when it would issue past the function's last
// instruction (the step runs straight up to the end and faults where the next run would start),
// also when a step ends exactly there; a path that branches to a label at the end faults at its
// lowest lane.
constexpr const char* kNoRet = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, 1;
  setp.ge.u32 %p1, %r1, SPLIT;
  @%p1 bra END;
  add.s32 %r3, %r2, 1;
END:
}
)";

std::string noRet(unsigned split) {
  std::string ptx = kNoRet;
  ptx.replace(ptx.find("SPLIT"), 5, std::to_string(split));
  return ptx;
}

TEST(Stepping, AWarpThatRunsOffItsFunctionsEndFaultsWhereItWouldIssuePastIt) {
  for (const unsigned split : {32u, 16u}) {
    test::PtxRunner r(noRet(split), "noret.ptx");
    const LaunchResult res = r.launch("k", {1, 1, 1}, {32, 1, 1}, {});
    ASSERT_TRUE(res.fault) << split;
    EXPECT_EQ(res.fault->kind, FaultKind::InvalidInstruction);
    EXPECT_EQ(res.fault->message, "execution ran off the end of 'k' (missing ret/exit)");
    // Every lane falls through (split 32); with split 16 lanes 16..31 branch to the end first.
    EXPECT_EQ(res.fault->lane, split == 32 ? 0u : 16u) << split;
  }
  // Stepped one instruction at a time: the five instructions issue, the sixth step faults.
  test::PtxRunner r(noRet(32), "noret.ptx");
  const isa::Program& p = r.module().program;
  LaunchContext ctx;
  ctx.program = &p;
  ctx.entry = &p.functions[size_t(p.findEntry("k"))];
  ctx.memory = &r.gpu().memory();
  ctx.grid = {1, 1, 1};
  ctx.block = {32, 1, 1};
  const std::vector<uint8_t> params;
  ctx.params = &params;
  Cta cta(ctx, 0);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(cta.step(0, 1).status, StepStatus::Issued) << i;
  EXPECT_THROW(cta.step(0, 1), KernelFault);
  // A step that ends exactly at the end, then the next one.
  Cta whole(ctx, 0);
  EXPECT_EQ(whole.step(0, 5).issued, 5u);
  EXPECT_THROW(whole.step(0, 5), KernelFault);
}

}  // namespace
}  // namespace warpsim::sim
