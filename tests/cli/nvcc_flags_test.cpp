// nvcc's flags for a .cu file: --nvcc-flag F, everything after --, -arch=sm_90a, --keep-ptx.
// tests/data/nvcc_flags/scale.cu compiles only with its -I directory and -DOFFSET=N.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

constexpr const char* kScale =
    "tests/data/nvcc_flags/scale.cu --kernel scale --grid 1 --block 32 "
    "--arg x=f32[4]:iota --arg y=f32[4] --arg u32:4 --dump y";

TEST(NvccFlags, FlagsOptionAndDoubleDashReachNvccAndThePtxIsKept) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("warpsim-keep-ptx-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const Outcome o = warpsim(std::string("run ") + kScale +
                            " --nvcc-flag -Itests/data/nvcc_flags/include --keep-ptx " +
                            dir.string() + " -- -DOFFSET=5 -arch=sm_90a");
  EXPECT_EQ(o.status, 0) << o.output;
  // y = 3 x + 5 over x = 0, 1, 2, 3
  EXPECT_NE(
      o.output.find("y (f32[4]): 0x40a00000 (5) 0x41000000 (8) 0x41300000 (11) 0x41600000 (14)"),
      std::string::npos)
      << o.output;
  std::ifstream kept(dir / "scale.ptx");
  ASSERT_TRUE(kept) << "no " << (dir / "scale.ptx");
  std::stringstream text;
  text << kept.rdbuf();
  // -arch=sm_90a after the default -arch=sm_90 wins, as nvcc's last value does.
  EXPECT_NE(text.str().find(".target sm_90a"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(NvccFlags, AMissingFlagIsNvccsErrorWithExitTwo) {
  const Outcome o =
      warpsim(std::string("check ") + kScale + " --nvcc-flag=-Itests/data/nvcc_flags/include");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("nvcc failed on 'tests/data/nvcc_flags/scale.cu'"), std::string::npos)
      << o.output;
  EXPECT_NE(o.output.find("compile with -DOFFSET=N"), std::string::npos) << o.output;
}

TEST(NvccFlags, RefusedForPtx) {
  const Outcome flag = warpsim(
      "run tests/data/off_by_one.ptx --kernel off_by_one --grid 1 --block 32 "
      "--arg out=f32[32] --arg u32:31 -- -O3");
  EXPECT_EQ(flag.status, 2);
  EXPECT_NE(flag.output.find("--nvcc-flag '-O3': 'tests/data/off_by_one.ptx' is PTX"),
            std::string::npos)
      << flag.output;
  const Outcome keep = warpsim(
      "run tests/data/off_by_one.ptx --kernel off_by_one --grid 1 --block 32 "
      "--arg out=f32[32] --arg u32:31 --keep-ptx /tmp");
  EXPECT_EQ(keep.status, 2);
  EXPECT_NE(keep.output.find("--keep-ptx: 'tests/data/off_by_one.ptx' is PTX already"),
            std::string::npos)
      << keep.output;
}

}  // namespace
