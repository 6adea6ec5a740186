// warpsim run/suite --timing through the binary: the text and JSON reports and the configuration
// the user gives.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/shell.h"

namespace {

std::string warpsim(const std::string& args) {
  const warpsim::test::Outcome o = warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR +
                                                        " && " + WARPSIM_BINARY + " " + args);
  EXPECT_EQ(o.status, 0) << args << "\n" << o.output;
  return o.output;
}

TEST(TimingCli, SuiteJsonCarriesNcuMetricsAndTheConfiguration) {
  const std::string out = warpsim("suite micro_ffma_chain --timing --json");
  for (const char* key : {"\"gpc__cycles_elapsed.max\":", "\"timing_config\":",
                          "\"latency.fp32\":4", "\"launch__registers_source\":\"ptxas\"",
                          "\"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio\""})
    EXPECT_NE(out.find(key), std::string::npos) << key << " in " << out;
}

TEST(TimingCli, AConfigFileChangesThePrediction) {
  // One more cycle of FP32 latency costs a chain of 64 dependent adds 64 cycles.
  const std::string run =
      "run tests/data/timing/fadd_chain.ptx --kernel chain --grid 1 --block 32 "
      "--arg 'out=f32[1]' --json ";
  const std::string base = warpsim(run + "--timing");
  const std::string slow = warpsim(run + "--timing-config tests/data/timing/fp32_latency_5.json");
  auto cycles = [](const std::string& s) {
    const std::string key = "\"gpc__cycles_elapsed.max\":";
    return std::stoull(s.substr(s.find(key) + key.size()));
  };
  EXPECT_EQ(cycles(slow) - cycles(base), 64u);
}

TEST(TimingCli, RunPrintsTheTextReport) {
  const std::string out = warpsim(
      "run kernels/elementwise/vector_add.cu --kernel vector_add_f32 --grid 4 --block 256 "
      "--arg 'a=f32[1024]:random(1)' --arg 'b=f32[1024]:random(2)' --arg 'c=f32[1024]' "
      "--arg n=u32:1024 --timing --print-timing-config");
  for (const char* line : {"timing configuration:", "  latency.fp32 = 4 cycles",
                           "predicted cycles: ", "stall_long_scoreboard",
                           "L2 hit rate: ", "limited by ", "registers/thread from ptxas"})
    EXPECT_NE(out.find(line), std::string::npos) << line << " in " << out;
}

}  // namespace
