// The warpsim binary end to end: exit codes, messages that name the bad argument, a user .cu
// run through nvcc, a kernel fault, JSON output.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

// warpsim run from the source directory, so that the tests' data paths are relative to it.
Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

TEST(Cli, HelpOnEveryCommand) {
  EXPECT_EQ(warpsim("--help").status, 0);
  for (const char* c : {"run", "suite", "bench"}) {
    const Outcome o = warpsim(std::string(c) + " --help");
    EXPECT_EQ(o.status, 0) << c;
    EXPECT_NE(o.output.find("usage: warpsim"), std::string::npos) << o.output;
  }
}

// The help's command list and the dispatch are one table (harness/main.cpp): every command it
// lists answers --help with its own usage.
TEST(Cli, EveryListedCommandAnswersHelp) {
  const Outcome help = warpsim("--help");
  ASSERT_EQ(help.status, 0);
  size_t at = help.output.find("Commands:\n");
  ASSERT_NE(at, std::string::npos) << help.output;
  at += 10;
  int commands = 0;
  for (size_t end; (end = help.output.find('\n', at)) != std::string::npos && end > at;
       at = end + 1) {
    const std::string line = help.output.substr(at, end - at);
    const std::string name = line.substr(2, line.find(' ', 2) - 2);
    const Outcome o = warpsim(name + " --help");
    EXPECT_EQ(o.status, 0) << name << ": " << o.output;
    EXPECT_NE(o.output.find("usage: warpsim " + name), std::string::npos) << o.output;
    ++commands;
  }
  EXPECT_EQ(commands, 20);
}

TEST(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(warpsim("").status, 2);
  EXPECT_EQ(warpsim("frobnicate").status, 2);
  const Outcome missing = warpsim("run tests/data/off_by_one.ptx --kernel off_by_one");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("missing --grid"), std::string::npos) << missing.output;
}

TEST(Cli, BadArgumentIsNamed) {
  const Outcome o = warpsim(
      "run tests/data/off_by_one.ptx --kernel off_by_one --grid 1 --block 32 "
      "--arg 'out=f32[32]:random(x)' --arg u32:31");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("--arg 1 'out=f32[32]:random(x)': 'x' is not a number"),
            std::string::npos)
      << o.output;
  const Outcome g =
      warpsim("run tests/data/off_by_one.ptx --kernel off_by_one --grid 0 --block 32");
  EXPECT_EQ(g.status, 2);
  EXPECT_NE(g.output.find("--grid '0'"), std::string::npos) << g.output;
}

TEST(Cli, BadPtxNamesFileLineAndColumn) {
  const Outcome o =
      warpsim("run tests/data/bad_operand.ptx --kernel k --grid 1 --block 1 --arg u64:0");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.output.find("tests/data/bad_operand.ptx:8:3: error: kernel 'k' cannot run: 'add.s32' "
                          "takes 3 operands, 2 given"),
            std::string::npos)
      << o.output;
}

TEST(Cli, KernelFaultExitsWithOneAndNamesTheThread) {
  const Outcome o = warpsim(
      "run tests/data/off_by_one.ptx --kernel off_by_one --grid 1 --block 64 --arg out=u32[32] "
      "--arg u32:32");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("kernel fault (out-of-bounds access): store of 4 bytes"),
            std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("thread (32,0,0) block (0,0,0)"), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("off_by_one.ptx:18"), std::string::npos) << o.output;
}

TEST(Cli, RunsAUserCudaFileThroughNvcc) {
  const Outcome o = warpsim(
      "run tests/data/leaky_relu.cu --kernel leaky_relu --grid 2 --block 64 --arg y=f32[100] "
      "--arg 'x=f32[100]:iota(-50,1)' --arg f32:0.5 --arg s32:100 --dump y");
  ASSERT_EQ(o.status, 0) << o.output;
  // y = x > 0 ? x : 0.5 x, x = -50, -49, ...: first elements -25, -24.5, ...
  EXPECT_NE(o.output.find("y (f32[100]): 0xc1c80000 (-25) 0xc1c40000 (-24.5)"), std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("SIMD efficiency"), std::string::npos);
}

TEST(Cli, DeviceAssertIsAKernelFaultOfKindAssertion) {
  const Outcome o = warpsim(
      "run tests/data/assert_positive.cu --kernel check_positive --grid 1 --block 32 "
      "--arg 'in=s32[32]:iota(-3,1)' --arg out=s32[32] --arg s32:32");
  EXPECT_EQ(o.status, 1) << o.output;
  EXPECT_NE(o.output.find("kernel fault (assertion): tests/data/assert_positive.cu:8: void "
                          "check_positive(const int *, int *, int): Assertion `in[i] >= 0` "
                          "failed."),
            std::string::npos)
      << o.output;
}

TEST(Cli, SuiteJsonReportsPass) {
  const Outcome o = warpsim("suite vector_add --json");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("\"kernel\":\"vector_add\""), std::string::npos) << o.output;
  EXPECT_NE(o.output.find("\"passed\":true"), std::string::npos) << o.output;
}

}  // namespace
