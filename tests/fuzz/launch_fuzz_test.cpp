// Mutation fuzzing of the front end and the launch path: the suite's PTX (embedded by the
// build) and the recorded programs under tests/recorded, mutated (byte flips, fragments,
// deleted runs, duplicated tokens, truncation, moved text, swapped and deleted lines, extreme
// numbers), then parsed, lowered and launched on a small grid with a small budget
// (tests/support/fuzz_launch.h). Every input must end in a clean user error or a result.
// RC_PARAMS="max_success=N seed=S" runs N RapidCheck cases (8 inputs each) instead of CI's 100; the
// inputs that ever broke it are replayed from tests/fuzz/regressions.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/ptx_registry.h"
#include "tests/support/fuzz_launch.h"

namespace warpsim::test {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The source tree: the build's, or $WARPSIM_SOURCE_DIR where the binary runs from another
// checkout (scripts/fuzz_long.sh on the device machine, whose copy of the tree lies elsewhere).
fs::path sourceDir() {
  const char* env = std::getenv("WARPSIM_SOURCE_DIR");
  return env && *env ? fs::path(env) : fs::path(WARPSIM_SOURCE_DIR);
}

// Every seed: the suite's modules, then the recorded programs (sorted, so runs repeat).
const std::vector<std::string>& seeds() {
  static const std::vector<std::string> s = [] {
    std::vector<std::string> out;
    for (const kernels::EmbeddedPtx& e : kernels::embeddedPtx()) out.emplace_back(e.text);
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(sourceDir() / "tests/recorded"))
      if (e.path().extension() == ".ptx") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& p : files) out.push_back(readFile(p));
    return out;
  }();
  return s;
}

// The peak resident memory of this process, in MiB.
long peakMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

// The bound every fuzz run stays under: the test binary itself, a 64 MiB device, and the
// simulator's per-launch state for a 64-thread grid.
constexpr long kPeakBoundMiB = 2048;

TEST(LaunchFuzz, SeedsCoverTheSuiteAndTheRecordedPrograms) {
  EXPECT_GE(seeds().size(), kernels::embeddedPtx().size() + 1000);
}

TEST(LaunchFuzz, UnmutatedSeedsRunCleanly) {
  HangGuard guard;
  // Every suite module and every 50th recorded program, as they are.
  for (size_t i = 0; i < seeds().size(); i += i < kernels::embeddedPtx().size() ? 1 : 50) {
    guard.starting(seeds()[i]);
    EXPECT_EQ(fuzzLaunch(seeds()[i], uint32_t(i)), "") << "seed " << i;
  }
}

RC_GTEST_PROP(LaunchFuzz, MutatedModulesLoadAndLaunchOrFailCleanly, ()) {
  static HangGuard guard;
  const uint32_t shape = *rc::gen::arbitrary<uint32_t>();
  for (int variant = 0; variant < 8; ++variant) {
    std::string text = *rc::gen::elementOf(seeds());
    const int rounds = *rc::gen::inRange(1, 6);
    for (int i = 0; i < rounds; ++i) mutate(text);
    guard.starting(text);
    RC_ASSERT(fuzzLaunch(text, shape + uint32_t(variant)) == std::string());
  }
  RC_ASSERT(peakMiB() < kPeakBoundMiB);
}

// Inputs that once crashed, hung or blew up memory, committed as found.
TEST(LaunchFuzz, RegressionInputsRunCleanly) {
  HangGuard guard;
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(sourceDir() / "tests/fuzz/regressions")) {
    if (e.path().extension() != ".ptx") continue;
    ++n;
    const std::string text = readFile(e.path());
    guard.starting(text);
    for (uint32_t shape = 0; shape < 4; ++shape)
      EXPECT_EQ(fuzzLaunch(text, shape), "") << e.path().filename();
  }
  EXPECT_GE(n, 1u);
  EXPECT_LT(peakMiB(), kPeakBoundMiB);
}

}  // namespace
}  // namespace warpsim::test
