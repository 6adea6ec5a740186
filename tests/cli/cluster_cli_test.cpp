// --cluster and --cooperative on the command line: a cluster kernel as nvcc 13 compiles
// cooperative_groups' cluster code (tests/data/cluster_neighbour.ptx), a bad cluster shape named
// with the chip's error, and a cluster suite card against its reference.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/shell.h"

namespace {

using warpsim::test::Outcome;

Outcome warpsim(const std::string& args) {
  return warpsim::test::shell(std::string("cd ") + WARPSIM_SOURCE_DIR + " && " + WARPSIM_BINARY +
                              " " + args);
}

const std::string kNeighbour =
    "run tests/data/cluster_neighbour.ptx --kernel neighbour --grid 8 --block 32 "
    "--arg out=u32[8] --dump out ";

TEST(ClusterCli, EachCtaReadsItsNeighboursSharedMemory) {
  const Outcome o = warpsim(kNeighbour + "--cluster 4");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("out (u32[8]): 0x00000065 (101) 0x00000066 (102) 0x00000067 (103) "
                          "0x00000064 (100) 0x00000065 (101)"),
            std::string::npos)
      << o.output;
}

TEST(ClusterCli, AClusterTheGridIsNoMultipleOfIsALaunchError) {
  const Outcome o = warpsim(kNeighbour + "--cluster 3");
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_NE(o.output.find("warpsim run: launch error: grid dimension x = 8 is not a multiple of "
                          "the cluster's 3 (CUDA_ERROR_INVALID_CLUSTER_SIZE)"),
            std::string::npos)
      << o.output;
  const Outcome bad = warpsim(kNeighbour + "--cluster 0");
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--cluster '0'"), std::string::npos) << bad.output;
}

TEST(ClusterCli, WithoutAClusterEachCtaIsItsOwnNeighbour) {
  const Outcome o = warpsim(kNeighbour);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("out (u32[8]): 0x00000064 (100) 0x00000064 (100) 0x00000064 (100)"),
            std::string::npos)
      << o.output;
}

TEST(ClusterCli, TheClusterCardsPassTheirReferences) {
  const Outcome o = warpsim("suite cluster_reduce --size 20000");
  EXPECT_EQ(o.status, 0) << o.output;
  const Outcome g = warpsim("suite grid_sync_reduce --size 20000");
  EXPECT_EQ(g.status, 0) << g.output;
}

}  // namespace
