// The watchdog: a CTA stuck in a loop is stopped after its instruction budget (deterministic:
// the same CTA, the same count, on any host thread count), a launch after its time limit or an
// interrupt; the report names where every warp is.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

constexpr const char* kHeader = ".version 8.0\n.target sm_90\n.address_size 64\n";

// Every thread of CTA `stuck` spins forever; the others finish at once.
const std::string kStuckCta = std::string(kHeader) + R"(
.visible .entry k(.param .u32 stuck)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  ld.param.u32 %r1, [stuck];
  mov.u32 %r2, %ctaid.x;
  setp.ne.u32 %p1, %r1, %r2;
  @%p1 bra DONE;
  mov.u32 %r3, 0;
SPIN:
  add.u32 %r3, %r3, 1;
  bra SPIN;
DONE:
  ret;
}
)";

sim::LaunchResult launchStuck(uint32_t stuckCta, const sim::LaunchOptions& o) {
  PtxRunner r(kStuckCta);
  return r.launch("k", {64, 1, 1}, {64, 1, 1}, {PtxRunner::u32(stuckCta)}, o);
}

TEST(Watchdog, StopsTheStuckCtaAfterItsBudgetAndNamesWhereItsWarpsAre) {
  sim::LaunchOptions o;
  o.instructionBudget = 100000;
  const auto res = launchStuck(5, o);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Watchdog);
  EXPECT_EQ(res.fault->cta.x, 5u);
  EXPECT_NE(res.fault->message.find("budget of 100,000"), std::string::npos) << res.fault->message;
  // The headline is at the loop (the add or the branch: PTX lines 15-16), not "PTX line 0".
  EXPECT_GE(res.fault->ptxLine, 15u);
  EXPECT_LE(res.fault->ptxLine, 16u);
  EXPECT_NE(res.fault->details.find("warp 0: runs at (PTX line 1"), std::string::npos)
      << res.fault->details;
  EXPECT_NE(res.fault->details.find("warp 1: runs at (PTX line 1"), std::string::npos)
      << res.fault->details;
  // CTAs after the stuck one may have been stopped part-way; those before it ran.
  EXPECT_EQ(res.ctasRun, 6u);
}

TEST(Watchdog, TheReportDoesNotDependOnTheHostThreadCount) {
  sim::LaunchOptions one, many;
  one.instructionBudget = many.instructionBudget = 50000;
  one.threads = 1;
  many.threads = 4;
  const auto a = launchStuck(9, one), b = launchStuck(9, many);
  ASSERT_TRUE(a.fault && b.fault);
  EXPECT_EQ(a.fault->cta.x, b.fault->cta.x);
  EXPECT_EQ(a.fault->message, b.fault->message);
  EXPECT_EQ(a.fault->ptxLine, b.fault->ptxLine);
  EXPECT_EQ(a.fault->details, b.fault->details);
  EXPECT_EQ(a.ctasRun, b.ctasRun);
  EXPECT_EQ(a.stats.warpInsns, b.stats.warpInsns);
}

TEST(Watchdog, TheDefaultBudgetScalesWithTheWarpsOfTheCta) {
  // Not run to the default (2^27 per warp, seconds per warp): its value is what the docs say.
  EXPECT_EQ(sim::kDefaultWarpBudget, uint64_t(1) << 27);
  EXPECT_EQ(sim::LaunchOptions{}.instructionBudget, 0u);
}

TEST(Watchdog, ATimeLimitStopsALaunchThatRunsTooLong) {
  sim::LaunchOptions o;
  o.instructionBudget = uint64_t(1) << 60;
  o.timeLimit = 0.05;
  const auto start = std::chrono::steady_clock::now();
  const auto res = launchStuck(0, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Watchdog);
  EXPECT_NE(res.fault->message.find("time limit of 0.05 s"), std::string::npos)
      << res.fault->message;
  EXPECT_LT(s, 30.0);  // it stopped: without the limit it would spin for ever
}

TEST(Watchdog, ATimeLimitStopsAGridOfManyShortCtas) {
  // No CTA is stuck and each ends within its first round of warp slices, where the limit used to
  // be checked: a grid of 2^31-1 of them ran for hours past the limit (found by CliFuzz:
  // `warpsim run ... --grid 2324482 --time-limit 3` ran for over ten minutes).
  sim::LaunchOptions o;
  o.timeLimit = 0.05;
  PtxRunner r(kStuckCta);
  const auto start = std::chrono::steady_clock::now();
  const auto res = r.launch("k", {0x7FFFFFFF, 1, 1}, {32, 1, 1}, {PtxRunner::u32(~0u)}, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Watchdog);
  EXPECT_NE(res.fault->message.find("time limit of 0.05 s"), std::string::npos)
      << res.fault->message;
  EXPECT_LT(res.ctasRun, 0x7FFFFFFFu);
  EXPECT_LT(s, 30.0);
}

TEST(Watchdog, AnInterruptStopsTheLaunchAndSaysWhereTheWarpsAre) {
  std::atomic<bool> interrupted{true};
  sim::LaunchOptions o;
  o.instructionBudget = uint64_t(1) << 60;
  o.interrupt = &interrupted;
  const auto res = launchStuck(0, o);
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Interrupted);
  EXPECT_EQ(res.fault->cta.x, 0u);
  EXPECT_NE(res.fault->details.find("runs at"), std::string::npos);
}

}  // namespace
}  // namespace warpsim
