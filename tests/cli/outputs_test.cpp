// What `warpsim run` shows: --dump-limit, the dumps in --json, the statistics under Nsight
// Compute's names (thread-instructions both ways), the progress line.
#include <gtest/gtest.h>

#include <string>

#include "harness/cli/progress.h"
#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

// Triton's add kernel: out = x + y over 2500 elements, its loads and stores guarded by a mask
// (predicated off past the end in the last CTA).
constexpr const char* kAdd =
    "run tests/data/triton/add_kernel.ptx --kernel add_kernel --grid 3 --block 128 "
    "--arg 'x=f32[2500]:iota' --arg 'y=f32[2500]:const(1)' --arg out=f32[2500] --arg u32:2500 "
    "--arg u64:0 --arg u64:0 --dump out";

// The number after `"key":` in JSON text; -1 when absent.
double jsonNumber(const std::string& text, const std::string& key) {
  const size_t at = text.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + key.size() + 3));
}

TEST(RunOutputs, DumpLimitShowsTheWholeBufferOnRequest) {
  const Outcome first = warpsim(kAdd);
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("out (f32[2500]): 0x3f800000 (1) 0x40000000 (2)"), std::string::npos)
      << first.output;
  EXPECT_NE(first.output.find("0x41800000 (16) ...\n"), std::string::npos) << first.output;
  const Outcome all = warpsim(std::string(kAdd) + " --dump-limit 0");
  ASSERT_EQ(all.status, 0) << all.output;
  EXPECT_NE(all.output.find(" 0x451c3000 (2499) 0x451c4000 (2500)\n"), std::string::npos)
      << all.output.substr(all.output.size() - 200);
  const Outcome three = warpsim(std::string(kAdd) + " --dump-limit 3");
  EXPECT_NE(three.output.find("0x40400000 (3) ...\n"), std::string::npos) << three.output;
}

TEST(RunOutputs, JsonHasTheDumpsAndNcuNamedCounts) {
  const Outcome o = warpsim(std::string(kAdd) + " --dump-limit 3 --dump out:/dev/null --json");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(o.output.front(), '{') << o.output;
  EXPECT_NE(o.output.find(R"("dumps":[{"name":"out","type":"f32","count":2500,"values":[1,2,3],)"
                          R"("complete":false},{"name":"out","type":"f32","count":2500,)"
                          R"("path":"/dev/null","values":[1,2,3],"complete":false}])"),
            std::string::npos)
      << o.output;
  const double warp = jsonNumber(o.output, "smsp__inst_executed.sum");
  const double active = jsonNumber(o.output, "smsp__thread_inst_executed.sum");
  const double predOn = jsonNumber(o.output, "smsp__thread_inst_executed_pred_on.sum");
  EXPECT_EQ(warp, jsonNumber(o.output, "warp_instructions"));
  EXPECT_EQ(predOn, jsonNumber(o.output, "thread_instructions"));
  EXPECT_EQ(active, jsonNumber(o.output, "thread_instructions_active"));
  // 12 warps, all 32 lanes on the path throughout (the tail is masked by predicates, not by
  // branches): every warp-instruction has 32 active lanes, and the masked ones fewer true.
  EXPECT_EQ(active, 32 * warp);
  EXPECT_LT(predOn, active);
  EXPECT_GT(predOn, 0);
}

TEST(RunOutputs, ProgressLineCountsWhatTheWatchdogCounts) {
  const Outcome o = warpsim(
      "run tests/data/spin.ptx --kernel spin --grid 2 --block 64 --arg flag=u32[1] "
      "--time-limit 1.7 --progress");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("\rwarpsim: 0/2 CTAs done, "), std::string::npos) << o.output;
  EXPECT_NE(o.output.find(" warp-instructions ("), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("ran past its time limit"), std::string::npos) << o.output;
}

// The timing model honours the launch's time limit too (it checked only the per-CTA budget,
// which a spinning warp takes minutes to reach there).
TEST(RunOutputs, TheTimeLimitStopsATimedRun) {
  const Outcome o = warpsim(
      "run tests/data/spin.ptx --kernel spin --grid 2 --block 64 --arg flag=u32[1] "
      "--time-limit 1 --timing");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("ran past its time limit of 1 s"), std::string::npos) << o.output;
}

TEST(RunOutputs, ProgressText) {
  EXPECT_EQ(warpsim::cli::progressText(12, 256, 1234567, 2.0),
            "warpsim: 12/256 CTAs done, 1,234,567 warp-instructions (0.617 M/s), ETA 41 s");
  EXPECT_EQ(warpsim::cli::progressText(0, 1, 999, 0),
            "warpsim: 0/1 CTAs done, 999 warp-instructions");
}

}  // namespace
