// warpsim --version: the commit the build was configured from and the CUDA toolkit it found.
#include <gtest/gtest.h>

#include <string>

#include "harness/build_info.h"
#include "tests/support/shell.h"

namespace {

TEST(CliVersion, NamesCommitAndCudaToolkit) {
  const warpsim::test::Outcome o = warpsim::test::shell(std::string(WARPSIM_BINARY) + " --version");
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.output, std::string("warpsim (git ") + warpsim::build::kGitCommit +
                          "), CUDA toolkit " + warpsim::build::kCudaVersion + " (" +
                          warpsim::build::kNvcc + ")\n");
  // Found at configure time: a git checkout and nvcc 13 (CMake requires nvcc).
  EXPECT_NE(std::string(warpsim::build::kCudaVersion), "unknown");
  EXPECT_EQ(std::string(warpsim::build::kCudaVersion).find_first_not_of("0123456789."),
            std::string::npos);
}

}  // namespace
