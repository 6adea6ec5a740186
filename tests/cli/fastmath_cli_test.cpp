// warpsim fastmath-verify and fastmath-exceptions on the command line: exit codes and messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/shell.h"
#include "tests/support/temp_path.h"

namespace {

using warpsim::test::Outcome;

Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

TEST(FastmathCli, VerifyReportsAgreeingChunksAndFailsOnlyWhenAskedForExactness) {
  const Outcome half =
      warpsim("fastmath-verify --form tanh.approx.bf16x2 --chunks 63 --require-exact");
  EXPECT_EQ(half.status, 0) << half.output;
  EXPECT_NE(half.output.find("tanh.approx.bf16x2: 1 of 1 chunks agree\n"), std::string::npos)
      << half.output;
  // Every recorded form is exact now: a hashes file whose chunks are all 0 shows a disagreement.
  const std::filesystem::path zeros =
      warpsim::test::processTempPath("warpsim_fastmath_zero_hashes.txt");
  {
    std::ofstream f(zeros);
    f << "warpsim-fastmath-hashes 1\nchunk_bits 24\nform lg2.approx.f32\n";
    for (int i = 0; i < 256; ++i) f << "0\n";
  }
  const std::string args =
      "fastmath-verify --hashes " + zeros.string() + " --form lg2.approx.f32 --chunks 63";
  const Outcome lg2 = warpsim(args);
  EXPECT_EQ(lg2.status, 0) << lg2.output;
  EXPECT_NE(lg2.output.find("0 of 1 chunks agree (first that differs: 63, inputs "
                            "0x3f000000..0x3fffffff)"),
            std::string::npos)
      << lg2.output;
  EXPECT_EQ(warpsim(args + " --require-exact").status, 1);
  std::filesystem::remove(zeros);
}

TEST(FastmathCli, BadArgumentsAreNamed) {
  const Outcome chunks = warpsim("fastmath-verify --chunks 1,256");
  EXPECT_EQ(chunks.status, 2);
  EXPECT_NE(chunks.output.find("--chunks '1,256': expected 'all' or indices below 256"),
            std::string::npos)
      << chunks.output;
  const Outcome form = warpsim("fastmath-verify --form exp.approx.f32");
  EXPECT_EQ(form.status, 2);
  EXPECT_NE(form.output.find("--form exp.approx.f32: not in the recorded hashes"),
            std::string::npos)
      << form.output;
  const Outcome table = warpsim("fastmath-exceptions tanh.approx.f16 README.md");
  EXPECT_EQ(table.status, 2);
  EXPECT_NE(table.output.find("expected 131072 bytes"), std::string::npos) << table.output;
}

}  // namespace
