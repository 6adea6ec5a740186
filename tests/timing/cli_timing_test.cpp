// warpsim run/suite --timing through the binary: the text and JSON reports and the configuration
// the user gives.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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

warpsim::test::Outcome warpsimFails(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

std::string tempPath(const std::string& tag) {
  return (std::filesystem::temp_directory_path() /
          ("warpsim-cli-" + std::to_string(::getpid()) + "-" + tag))
      .string();
}

const char* kVectorAdd =
    "run kernels/elementwise/vector_add.cu --kernel vector_add_f32 --grid 4 --block 256 "
    "--arg 'a=f32[1024]:random(1)' --arg 'b=f32[1024]:random(2)' --arg 'c=f32[1024]' "
    "--arg n=u32:1024 ";

TEST(TimingCli, TraceAndSourceLinesOnRun) {
  const std::string trace = tempPath("trace.json");
  const std::string out =
      warpsim(std::string(kVectorAdd) + "--trace " + trace + " --source-lines 2");
  EXPECT_NE(out.find("warpsim: trace " + trace + ": "), std::string::npos) << out;
  EXPECT_NE(out.find("  roofline: "), std::string::npos) << out;
  // nvcc's .loc names the .cu line.
  EXPECT_NE(out.find("  source lines (warp-cycles; top 2 of "), std::string::npos) << out;
  EXPECT_NE(out.find("vector_add.cu:"), std::string::npos) << out;
  std::ifstream f(trace);
  const nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_GT(j["traceEvents"].size(), 10u);
  EXPECT_EQ(j["otherData"]["events_dropped"], 0);
  std::filesystem::remove(trace);
  // --json carries every line.
  const std::string js = warpsim(std::string(kVectorAdd) + "--source-lines 1 --json");
  EXPECT_NE(js.find("\"source_lines\":[{\"file\":\""), std::string::npos) << js;
}

TEST(TimingCli, TraceOptionErrors) {
  const auto many = warpsimFails("suite reduce --trace /tmp/x.json");
  EXPECT_EQ(many.status, 2) << many.output;
  EXPECT_NE(many.output.find("--trace: the pattern selects"), std::string::npos) << many.output;
  const auto unwritable = warpsimFails(std::string(kVectorAdd) + "--trace /nonexistent-dir/t.json");
  EXPECT_NE(unwritable.status, 0);
  EXPECT_NE(unwritable.output.find("--trace /nonexistent-dir/t.json: cannot write the file"),
            std::string::npos)
      << unwritable.output;
  const auto limit = warpsimFails(std::string(kVectorAdd) + "--trace-limit 5");
  EXPECT_EQ(limit.status, 2);
  EXPECT_NE(limit.output.find("--trace-limit: only with --trace FILE"), std::string::npos);
  const auto sample = warpsimFails(std::string(kVectorAdd) + "--timing-sample 0");
  EXPECT_EQ(sample.status, 2);
  EXPECT_NE(sample.output.find("--timing-sample: must be at least 1"), std::string::npos);
}

TEST(TimingCli, SampledSuiteSaysSo) {
  const std::string out = warpsim("suite vector_add --size 2000000 --timing-sample 1 --json");
  EXPECT_NE(out.find("\"sampled_waves\":1"), std::string::npos) << out;
}

TEST(TimingCli, CorrelateLaunchesTellsAProblemsLaunchesApart) {
  // reduce_shuffle at 65536: two launches on the chip (h200_ncu.tsv), 4,984 and 4,411 cycles.
  // (The progress dots go to stderr, which the shell helper joins to the output.)
  const std::string out = warpsim("correlate reduce_shuffle --max-threads 40000 --launches --json");
  const auto j = nlohmann::json::parse(out.substr(out.find('{')));
  ASSERT_EQ(j["problems"].size(), 1u);
  const auto& p = j["problems"][0];
  const auto& launches = p["per_launch"];
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0]["launch"], 0);
  EXPECT_EQ(launches[1]["launch"], 1);
  EXPECT_EQ(launches[0]["kernel"], "reduce_shuffle_f32");
  EXPECT_EQ(launches[0]["grid"], "128,1,1");
  EXPECT_EQ(launches[0]["measured_cycles"], 4984);
  EXPECT_EQ(launches[1]["measured_cycles"], 4411);
  EXPECT_EQ(launches[0]["measured_warp_instructions"], 41728);
  EXPECT_EQ(launches[0]["stalls_per_issue"]["long_scoreboard"]["measured"], 15.92);
  EXPECT_EQ(launches[0]["stalls_per_issue"].size(), 10u);  // every reason but "selected"
  // The problem's row is its launches summed.
  EXPECT_EQ(
      launches[0]["predicted_cycles"].get<double>() + launches[1]["predicted_cycles"].get<double>(),
      p["predicted_cycles"].get<double>());
  EXPECT_GT(launches[0]["predicted_warp_instructions"].get<double>(), 0);
  // Without --launches the JSON keeps its shape; the text lists each launch under its problem.
  EXPECT_EQ(warpsim("correlate reduce_shuffle --max-threads 40000 --json").find("per_launch"),
            std::string::npos);
  const std::string text = warpsim("correlate reduce_shuffle --max-threads 40000 --launches");
  EXPECT_NE(text.find("launches of reduce_shuffle at 65536 (stalls per issued instruction, "
                      "chip / model):"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("   1 reduce_shuffle_f32       1,1,1      256,1,1          4411"),
            std::string::npos)
      << text;
}

TEST(TimingCli, PlotWithoutPythonIsAClearError) {
  // No python3 on PATH: the check fails before any simulation.
  const auto o =
      warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && PATH=/nonexistent " +
                           WARPSIM_BINARY + " correlate vector_add --plot /tmp/p.png");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("--plot: python3 with matplotlib is needed"), std::string::npos)
      << o.output;
  const auto quote = warpsimFails("correlate vector_add --plot \"a'b.png\"");
  EXPECT_EQ(quote.status, 2);
  EXPECT_NE(quote.output.find("a file name without single quotes"), std::string::npos);
}

TEST(TimingCli, PlotDrawsAPng) {
  if (warpsim::test::shell("python3 -c 'import matplotlib'").status != 0)
    GTEST_SKIP() << "python3-matplotlib is not installed (scripts/setup.sh installs it)";
  const std::string png = tempPath("plot.png");
  warpsim("correlate saxpy --max-threads 300000 --plot " + png);
  std::ifstream f(png, std::ios::binary);
  char magic[8] = {};
  f.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  std::filesystem::remove(png);
}

}  // namespace
