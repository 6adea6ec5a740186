// warpsim bench's comparison with the plain C++ loop: vector_add and saxpy time their own loop
// over arrays made before the clock starts (Card::plainLoopSeconds), not the CPU reference, whose
// buffer copies made the loop read several times slower than it is.
#include <gtest/gtest.h>

#include <string>

#include "kernels/card.h"
#include "tests/support/shell.h"

namespace {

TEST(BenchCli, VectorAddAndSaxpyHaveAPlainLoopWithoutCopies) {
  for (const char* name : {"vector_add", "saxpy"}) {
    const warpsim::kernels::Card* c = warpsim::kernels::findCard(name);
    ASSERT_NE(c, nullptr) << name;
    ASSERT_NE(c->plainLoopSeconds, nullptr) << name;
    const warpsim::kernels::Problem p = c->make(1 << 16, 1);
    EXPECT_GT(c->plainLoopSeconds(p, 2), 0.0) << name;
  }
  EXPECT_EQ(warpsim::kernels::findCard("reduce_shuffle")->plainLoopSeconds, nullptr);
}

TEST(BenchCli, TheJsonReportCarriesTheLoopsSeconds) {
  const warpsim::test::Outcome o =
      warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                           " bench vector_add --size 4096 --repeat 1 --json");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("\"native_seconds\""), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("\"slowdown_vs_native_2_threads\""), std::string::npos) << o.output;
}

// The memory target bounds one kernel's peak (bench --memory). A bench of several kernels reports
// the whole run's peak, which held every card's problem in turn: it once printed that against
// the largest card's target (78.8 MB "against" 74.9 over the 49 cards) as if the target failed.
TEST(BenchCli, SeveralKernelsReportTheirPeakWithoutTheOneKernelTarget) {
  const warpsim::test::Outcome o =
      warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                           " bench vector_add,saxpy --size 4096 --repeat 1");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("over the 2 kernels"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("the memory target is one kernel's: bench --memory KERNEL"),
            std::string::npos)
      << o.output;
  EXPECT_EQ(o.output.find("(target: at most"), std::string::npos) << o.output;
}

}  // namespace
