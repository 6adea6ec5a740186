// Every case recorded on the H200 (tests/recorded/**.case) replayed in the simulator: the
// outputs must equal the GPU's (bit for bit, or within the card's ULP tolerance where the case
// holds the GPU's data). CI has no GPU; this is how it checks the simulator against the chip.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "harness/recording.h"
#include "tests/support/temp_path.h"

namespace warpsim {
namespace {

namespace fs = std::filesystem;

const fs::path kRecorded = fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded";

std::vector<std::string> caseGroups() {
  std::vector<std::string> groups;
  if (!fs::is_directory(kRecorded)) return groups;
  for (const auto& set : fs::directory_iterator(kRecorded))
    if (set.is_directory())
      for (const auto& g : fs::directory_iterator(set.path()))
        if (g.is_directory() && g.path().filename() != "ptx")
          groups.push_back(fs::relative(g.path(), kRecorded).string());
  std::sort(groups.begin(), groups.end());
  return groups;
}

class RecordedOnH200 : public ::testing::TestWithParam<std::string> {};

TEST_P(RecordedOnH200, ReplaysIdenticallyInTheSimulator) {
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(kRecorded / GetParam()))
    if (e.path().extension() == ".case") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  ASSERT_FALSE(cases.empty());
  for (const fs::path& p : cases) {
    const harness::ReplayResult r = harness::replayCase(harness::readCase(p.string()));
    EXPECT_TRUE(r.ok) << p.filename().string() << ": " << r.message;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, RecordedOnH200, ::testing::ValuesIn(caseGroups()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '/', '_');
                           return n;
                         });

TEST(RecordedOnH200, EverySuiteCardHasAtLeastTwentyCases) {
  for (const std::string& g : caseGroups()) {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(kRecorded / g))
      n += e.path().extension() == ".case";
    EXPECT_GE(n, 20u) << g;
  }
  EXPECT_GE(caseGroups().size(), 43u);
}

TEST(RecordedCase, MalformedFilesNameTheLine) {
  const fs::path p = test::processTempPath("warpsim_bad.case");
  { std::ofstream(p) << "warpsim-case 1\ncard saxpy\nsize x\n"; }
  try {
    harness::readCase(p.string());
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(p.string() + ":3: malformed recorded case"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace warpsim
