// Golden command-line diagnostics: each tests/golden/cli_errors/NAME.cmd holds the arguments of
// one warpsim invocation that must be refused; NAME.err holds the first line it must print.
// Every refusal exits with 2 (bad input), never a crash or a silent run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/shell.h"

namespace {

namespace fs = std::filesystem;

std::string readFirstLine(const fs::path& p) {
  std::ifstream f(p);
  std::string line;
  std::getline(f, line);
  return line;
}

TEST(CliGolden, RefusalsMatch) {
  const fs::path dir = fs::path(WARPSIM_SOURCE_DIR) / "tests/golden/cli_errors";
  std::vector<fs::path> cases;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cmd") cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  EXPECT_GE(cases.size(), 25u);
  for (const fs::path& cmd : cases) {
    SCOPED_TRACE(cmd.filename().string());
    fs::path errPath = cmd;
    errPath.replace_extension(".err");
    ASSERT_TRUE(fs::exists(errPath)) << "missing " << errPath;
    const warpsim::test::Outcome o =
        warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                             " " + readFirstLine(cmd));
    EXPECT_EQ(o.status, 2) << o.output;
    const std::string first = o.output.substr(0, o.output.find('\n'));
    EXPECT_EQ(first, readFirstLine(errPath));
  }
}

}  // namespace
