// warpsim support: the survey of which kernels run, over the load-error examples, whose
// blockers are known one by one (tests/golden/load_errors/).
#include <gtest/gtest.h>

#include <string>

#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

TEST(SupportCommand, NamesTheBlockerOfEveryKernel) {
  const Outcome o = warpsim("support --kernels tests/golden/load_errors/*.ptx 2>&1");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("5 files (0 not parsed), 6 kernels: 1 run (16.7%), 2 reach an "
                          "instruction not supported yet, 3 do not load"),
            std::string::npos)
      << o.output;
  // The one that runs, one that reaches an unsupported instruction (with the user's line) and
  // one that cannot be built (the construct without its names and place).
  EXPECT_NE(o.output.find("local_recursion_in_kernel.ptx: good: runs"), std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("unsupported_executed.ptx:15:3: k: not supported yet: pmevent (at "
                          "k.cu:9)"),
            std::string::npos)
      << o.output;
  // Every stopped kernel's line names its construct with its names and the user's CUDA line,
  // once: a call names the function it calls, and a kernel that cannot be built names the
  // line of the .loc (an inlined header's caller) as `warpsim run` does.
  EXPECT_NE(o.output.find("external_call_executed.ptx:18:3: k: not supported yet: call to "
                          "external function cudaStreamCreateWithFlags (at k.cu:5)\n"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("inlined_header_line.ptx:17:3: k: does not load: 'mov.b128' needs "
                          "128-bit registers, which are not supported yet (at k.cu:3)\n"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("local_recursion_in_kernel.ptx:10:1: bad: does not load: recursion "
                          "through 'depth', which has .local memory\n"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("  1  recursion through '…', which has .local memory  (e.g. "
                          "tests/golden/load_errors/local_recursion_in_kernel.ptx:10:1 bad)"),
            std::string::npos)
      << o.output;
}

TEST(SupportCommand, ModulesThatDoNotParseAndListsAndJson) {
  const Outcome bad = warpsim(
      "support tests/data/does_not_exist.ptx tests/golden/load_errors/"
      "unsupported_executed.ptx --json");
  ASSERT_EQ(bad.status, 0) << bad.output;
  EXPECT_NE(bad.output.find("\"files\":2,\"files_not_parsed\":1,\"kernels\":1,\"runs\":0"),
            std::string::npos)
      << bad.output;
  EXPECT_NE(bad.output.find("{\"construct\":\"pmevent\",\"count\":1"), std::string::npos)
      << bad.output;
  EXPECT_EQ(warpsim("support @tests/data/no_such_list").status, 2);
  EXPECT_EQ(warpsim("support").status, 2);
}

}  // namespace
