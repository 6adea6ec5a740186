// The timing configuration: configs/h200.json is the built-in defaults, every parameter has a
// unit and a source, unknown keys and bad values are errors naming the key.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "sim/timing/config.h"

namespace warpsim::sim::timing {
namespace {

std::string readFile(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(TimingConfig, ShippedH200FileIsTheDefaultsAndNamesEveryKey) {
  const std::string path = std::string(WARPSIM_SOURCE_DIR) + "/configs/h200.json";
  const TimingConfig c = loadTimingConfig(path);
  EXPECT_EQ(timingConfigJson(c), timingConfigJson(TimingConfig{}));
  const std::string text = readFile(path);
  for (const ParamInfo& p : parameterTable())
    EXPECT_NE(text.find("\"" + p.key + "\""), std::string::npos) << p.key;
}

TEST(TimingConfig, ShippedH100FileChangesOnlyWhatTheH100Differs) {
  // The H100 SXM the device tool lends: the H200's SM, its own launch overhead, L2 and HBM3.
  const TimingConfig c = loadTimingConfig(std::string(WARPSIM_SOURCE_DIR) + "/configs/h100.json");
  const TimingConfig h200;
  EXPECT_EQ(c.name, "h100");
  EXPECT_EQ(c.launchLatency, h200.launchLatency + 950);
  EXPECT_EQ(c.l2SizeKb, 51200u);
  EXPECT_DOUBLE_EQ(c.peakDramTbPerS, 3.35);
  EXPECT_LT(c.dramBytesPerCycle, h200.dramBytesPerCycle);
  EXPECT_EQ(c.latFp32, h200.latFp32);
  EXPECT_EQ(c.l2HitLatency, h200.l2HitLatency);
}

TEST(TimingConfig, EveryParameterHasUnitTypeAndSource) {
  std::set<std::string> keys;
  for (const ParamInfo& p : parameterTable()) {
    EXPECT_TRUE(keys.insert(p.key).second) << "duplicate " << p.key;
    EXPECT_FALSE(p.source.empty()) << p.key;
    EXPECT_TRUE(p.type == "integer" || p.type == "number" || p.type == "string") << p.key;
    if (p.type != "string") {
      EXPECT_FALSE(p.unit.empty()) << p.key;
    }
    // Unverified numbers say so where they are documented.
    if (!p.verified) {
      EXPECT_NE(p.source.find("[unverified"), std::string::npos) << p.key;
    }
  }
  EXPECT_GE(keys.size(), 45u);
}

TEST(TimingConfig, OverridesASubset) {
  const TimingConfig c = parseTimingConfig(
      R"({"latency.fp32": 5, "scheduler": "lrr", "dram.bytes_per_cycle": 1000.5})", "x.json");
  EXPECT_EQ(c.latFp32, 5u);
  EXPECT_EQ(c.scheduler, "lrr");
  EXPECT_DOUBLE_EQ(c.dramBytesPerCycle, 1000.5);
  EXPECT_EQ(c.latFp64, 8u);  // untouched
}

void expectError(const std::string& json, const std::string& fragment) {
  try {
    parseTimingConfig(json, "my.json");
    ADD_FAILURE() << "accepted " << json;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("my.json: ", 0), 0u) << e.what();
  }
}

TEST(TimingConfig, ErrorsNameTheKey) {
  expectError(R"({"latency.fp23": 4})", "unknown key 'latency.fp23'");
  expectError(R"({"latency.fp32": -1})", "'latency.fp32' must be a non-negative integer");
  expectError(R"({"latency.fp32": 2.5})", "'latency.fp32' must be a non-negative integer");
  expectError(R"({"clock_ghz": "fast"})", "'clock_ghz' must be a number");
  expectError(R"({"scheduler": "fifo"})", "unknown scheduler 'fifo' (known: gto, lrr)");
  expectError(R"({"issue.sfu": 0})", "initiation intervals must be at least 1");
  expectError(R"({"l2.line_bytes": 96})", "l2.line_bytes");
  expectError(R"([1, 2])", "expected a JSON object");
  expectError(R"({"sm.count": 132,})", "not valid JSON");
}

TEST(TimingConfig, MissingFileIsAnError) {
  EXPECT_THROW(loadTimingConfig("/nonexistent/h200.json"), ConfigError);
}

TEST(TimingConfig, PrintedConfigurationShowsValueUnitAndSource) {
  const std::string text = formatTimingConfig(TimingConfig{});
  EXPECT_NE(text.find("latency.fp32 = 4 cycles"), std::string::npos) << text;
  EXPECT_NE(text.find("S3 -ptx_opcode_latency_fp 4"), std::string::npos);
  EXPECT_NE(text.find("scheduler = \"gto\""), std::string::npos);
}

}  // namespace
}  // namespace warpsim::sim::timing
