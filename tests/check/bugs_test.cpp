// The planted-bug suite (kernels/bugs/): every bug is found by its tool at its CUDA line, with
// the report in tests/check/golden/NAME.txt (WARPSIM_UPDATE_GOLDEN=1 rewrites them; then read
// the diff), and no tool reports anything on its corrected twin.
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

struct BugSpec {
  std::string name, tool, args;
  unsigned line = 0;
  unsigned schedules = 1;  // > 1: a bug only schedule exploration finds (check --schedules N)
};

BugSpec readSpec(const fs::path& p) {
  BugSpec s;
  s.name = p.stem().string();
  std::ifstream f(p);
  std::string key;
  while (f >> key) {
    if (key == "tool")
      f >> s.tool;
    else if (key == "line")
      f >> s.line;
    else if (key == "schedules")
      f >> s.schedules;
    else if (key == "args")
      std::getline(f >> std::ws, s.args);
  }
  return s;
}

std::vector<BugSpec> specs() {
  std::vector<BugSpec> all;
  for (const auto& e : fs::directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "kernels/bugs"))
    if (e.path().extension() == ".spec") all.push_back(readSpec(e.path()));
  std::sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return all;
}

// The build's PTX of kernels/bugs/NAME.cu (compiled with the suite).
std::string ptxOf(const std::string& name) {
  return (fs::path(WARPSIM_BINARY).parent_path().parent_path() / "ptx" / (name + ".ptx")).string();
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
}

// Paths that depend on where the tree and the build are.
std::string normalized(std::string out) {
  replaceAll(out, fs::path(WARPSIM_BINARY).parent_path().parent_path().string() + "/", "BUILD/");
  replaceAll(out, std::string(WARPSIM_SOURCE_DIR) + "/", "");
  return out;
}

// The spec's arguments, each in single quotes for the shell (INITs hold parentheses).
std::string quoted(const std::string& args) {
  std::istringstream in(args);
  std::string word, out;
  while (in >> word) out += " '" + word + "'";
  return out;
}

warpsim::test::Outcome check(const std::string& tool, const BugSpec& b, const std::string& kernel) {
  const std::string schedules =
      b.schedules > 1 ? " --schedules " + std::to_string(b.schedules) : std::string();
  return warpsim::test::shell(std::string(WARPSIM_BINARY) + " check --tool " + tool + " " +
                              ptxOf(b.name) + " --kernel " + kernel + quoted(b.args) + schedules);
}

TEST(PlantedBugs, EachIsFoundByItsToolAtItsLine) {
  const auto all = specs();
  EXPECT_GE(all.size(), 40u);
  for (const BugSpec& b : all) {
    SCOPED_TRACE(b.name);
    const warpsim::test::Outcome o = check(b.tool, b, b.name);
    EXPECT_EQ(o.status, 1) << o.output;
    // A finding ends its line with the CUDA place; a schedule difference names the line of the
    // store that wrote the differing byte last ("... at NAME.cu:8 (PTX line ...").
    const std::string place = b.name + ".cu:" + std::to_string(b.line);
    if (b.schedules > 1) {
      EXPECT_NE(o.output.find("Output depends on the schedule"), std::string::npos) << o.output;
      EXPECT_NE(o.output.find(place + " (PTX line"), std::string::npos) << o.output;
    } else {
      EXPECT_NE(o.output.find(place + "\n"), std::string::npos) << o.output;
    }
    EXPECT_EQ(o.output.find("ERROR SUMMARY: 0 errors"), std::string::npos) << o.output;
    const std::string text = normalized(o.output);
    const fs::path golden = fs::path(WARPSIM_SOURCE_DIR) / "tests/check/golden" / (b.name + ".txt");
    if (std::getenv("WARPSIM_UPDATE_GOLDEN")) std::ofstream(golden, std::ios::binary) << text;
    std::ifstream f(golden, std::ios::binary);
    ASSERT_TRUE(f) << "missing " << golden;
    std::stringstream want;
    want << f.rdbuf();
    EXPECT_EQ(text, want.str());
  }
}

TEST(PlantedBugs, NoToolReportsOnTheTwins) {
  for (const BugSpec& b : specs()) {
    SCOPED_TRACE(b.name);
    const warpsim::test::Outcome o = check("all", b, b.name + "_fixed");
    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_NE(o.output.find("========= ERROR SUMMARY: 0 errors\n"), std::string::npos) << o.output;
    EXPECT_EQ(o.output.find("Warning"), std::string::npos) << o.output;
  }
}

}  // namespace
