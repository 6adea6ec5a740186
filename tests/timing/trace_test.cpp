// --trace: the Chrome/Perfetto trace of a timed launch, as a golden file
// (tests/golden/timing/small_trace.json; WARPSIM_UPDATE_GOLDEN=1 rewrites it), and what any
// trace must hold: states nested in their warp's slice and adding up to the report's
// warp-cycles, and a limit that drops events and says so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/timing/small_kernel.h"

namespace warpsim::sim::timing {
namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::filesystem::path tempTrace(const char* tag) {
  return std::filesystem::temp_directory_path() /
         ("warpsim-trace-" + std::to_string(::getpid()) + "-" + tag + ".json");
}

struct Traced {
  TimingReport report;
  std::string text;
};

Traced traceSmall(uint64_t limit, uint32_t ctas = 4) {
  TimingConfig c;
  const auto path = tempTrace(std::to_string(limit).c_str());
  c.run.traceFile = path.string();
  c.run.traceEventLimit = limit;
  Traced t{test::runSmallKernel(c, ctas).report, readFile(path)};
  std::filesystem::remove(path);
  return t;
}

TEST(TimingTrace, SmallKernelGolden) {
  const Traced t = traceSmall(1000000);
  const auto path =
      std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/golden/timing/small_trace.json";
  if (std::getenv("WARPSIM_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << t.text;
  EXPECT_EQ(t.text, readFile(path)) << "golden " << path;
  EXPECT_EQ(t.report.traceDropped, 0u);
}

TEST(TimingTrace, StatesNestInWarpsAndAddUpToTheWarpCycles) {
  const Traced t = traceSmall(1000000, 140);  // more CTAs than SMs: two on some SMs
  const nlohmann::json j = nlohmann::json::parse(t.text);
  ASSERT_TRUE(j.contains("traceEvents"));
  struct Span {
    uint64_t ts, end;
  };
  std::map<std::pair<int, int>, std::vector<Span>> warps;  // (pid, tid) -> warp slices
  uint64_t stateCycles = 0, issue = 0, ctas = 0, launches = 0;
  std::vector<std::tuple<int, int, uint64_t, uint64_t>> states;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::string name = e["name"];
    const uint64_t ts = e["ts"], dur = e["dur"];
    const int pid = e["pid"], tid = e["tid"];
    if (name.rfind("launch ", 0) == 0) {
      ++launches;
      EXPECT_EQ(dur, t.report.cycles);
    } else if (name.find(" warp ") != std::string::npos) {
      warps[{pid, tid}].push_back({ts, ts + dur});
    } else if (name.rfind("CTA ", 0) == 0) {
      ++ctas;
      EXPECT_LT(tid, 100);
    } else {
      stateCycles += dur;
      if (name == "issue") issue += dur;
      states.emplace_back(pid, tid, ts, ts + dur);
    }
  }
  EXPECT_EQ(launches, 1u);
  EXPECT_EQ(ctas, 140u);
  EXPECT_EQ(stateCycles, t.report.residentWarpCycles);
  EXPECT_EQ(issue, t.report.warpInstructions);
  // Every state lies inside one warp slice of its track (so viewers nest them).
  for (const auto& [pid, tid, ts, end] : states) {
    const auto& ws = warps[{pid, tid}];
    EXPECT_TRUE(std::any_of(ws.begin(), ws.end(),
                            [&](const Span& w) { return w.ts <= ts && end <= w.end; }))
        << "state on " << pid << "/" << tid << " at " << ts;
  }
  // Two CTAs on SM 0 (140 > 132 SMs) overlap in time: they take two CTA tracks.
  EXPECT_NE(t.text.find("\"name\":\"CTA slot 1\""), std::string::npos);
}

TEST(TimingTrace, TheLimitDropsEventsAndSaysSo) {
  const Traced t = traceSmall(10);
  const nlohmann::json j = nlohmann::json::parse(t.text);
  size_t slices = 0;
  for (const auto& e : j["traceEvents"]) slices += e["ph"] == "X";
  EXPECT_EQ(slices, 10u);
  EXPECT_EQ(j["otherData"]["events_written"], 10);
  EXPECT_GT(j["otherData"]["events_dropped"].get<uint64_t>(), 0u);
  EXPECT_EQ(t.report.traceEvents, 10u);
  EXPECT_EQ(t.report.traceDropped, j["otherData"]["events_dropped"].get<uint64_t>());
}

TEST(TimingTrace, RecordingChangesNoPrediction) {
  const TimingReport plain = test::runSmallKernel(TimingConfig{}).report;
  const Traced t = traceSmall(1000000);
  EXPECT_EQ(t.report.cycles, plain.cycles);
  EXPECT_EQ(t.report.stalls, plain.stalls);
}

}  // namespace
}  // namespace warpsim::sim::timing
