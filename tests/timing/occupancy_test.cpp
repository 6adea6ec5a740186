// Occupancy: CTAs per SM and the limiter, register allocation per warp, the shared-memory
// carve-out and what it leaves to the L1; ptxas -v parsing.
#include <gtest/gtest.h>

#include "harness/ptxas_resources.h"
#include "sim/timing/occupancy.h"

namespace warpsim::sim::timing {
namespace {

Occupancy occ(uint32_t regs, uint32_t smem, uint32_t threads, uint32_t dyn = 0) {
  KernelResources k;
  k.registers = regs;
  k.staticShared = smem;
  return computeOccupancy(TimingConfig{}, k, threads, dyn);
}

TEST(Occupancy, RegistersLimit) {
  // 64 registers x 32 lanes = 2048 per warp: 32 warps of 65536; 8 warps per CTA: 4 CTAs.
  const Occupancy o = occ(64, 0, 256);
  EXPECT_EQ(o.ctasPerSm, 4u);
  EXPECT_EQ(o.limiter, "registers");
  EXPECT_DOUBLE_EQ(o.theoretical(), 0.5);
}

TEST(Occupancy, RegisterAllocationRoundsPerWarp) {
  // 33 registers = 1056 per warp, rounded to 1280: 51 warps, 12 CTAs of 4 warps.
  EXPECT_EQ(occ(33, 0, 128).ctasPerSm, 12u);
  EXPECT_EQ(occ(32, 0, 128).ctasPerSm, 16u);  // 1024 per warp: 64 warps, 16 CTAs (warps too)
}

TEST(Occupancy, WarpsThreadsAndCtasLimit) {
  EXPECT_EQ(occ(32, 0, 1024).ctasPerSm, 2u);
  EXPECT_EQ(occ(32, 0, 1024).limiter, "warps");
  EXPECT_EQ(occ(16, 0, 32).ctasPerSm, 32u);
  EXPECT_EQ(occ(16, 0, 32).limiter, "ctas");
}

TEST(Occupancy, SharedMemoryLimitAndCarveout) {
  // 48 KB + 1 KB reserved per CTA: 4 CTAs in 228 KB; the driver picks the 196 KB carve-out,
  // leaving 60 KB of L1.
  const Occupancy o = occ(32, 48 * 1024, 128);
  EXPECT_EQ(o.ctasPerSm, 4u);
  EXPECT_EQ(o.limiter, "shared");
  EXPECT_EQ(o.sharedPerCta, 49u * 1024);
  EXPECT_EQ(o.carveoutKb, 196u);
  EXPECT_EQ(o.l1Bytes, 60u * 1024);
  // Dynamic shared memory counts the same.
  EXPECT_EQ(occ(32, 0, 128, 200 * 1024).ctasPerSm, 1u);
}

TEST(Occupancy, ACtaThatFitsNowhereIsAnError) {
  EXPECT_THROW(occ(255, 0, 1024), ConfigError);  // 255 x 1024 registers
}

TEST(PtxasResources, ParsesVerboseOutput) {
  const std::string text =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k1' for 'sm_90'\n"
      "ptxas info    : Function properties for k1\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, 380 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
      "ptxas info    : Used 8 registers, 360 bytes cmem[0]\n";
  const auto r = harness::parsePtxasVerbose(text);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r.at("k1").registers, 40u);
  EXPECT_EQ(r.at("k1").staticShared, 4096u);
  EXPECT_EQ(r.at("k1").source, "ptxas");
  EXPECT_EQ(r.at("k2").registers, 8u);
  EXPECT_EQ(r.at("k2").staticShared, 0u);
}

TEST(PtxasResources, RunsPtxasOnAModule) {
  const std::string ptx =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 p) {\n  .reg .b64 %rd<2>;\n"
      "  .shared .align 4 .b8 s[2048];\n  ld.param.u64 %rd1, [p];\n  ret;\n}\n";
  const harness::PtxasResources r = harness::ptxasResources(ptx);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.kernels.count("k"), 1u);
  EXPECT_EQ(r.kernels.at("k").staticShared, 2048u);
  EXPECT_GE(r.kernels.at("k").registers, 1u);
  // Bad PTX: ptxas refuses and the caller is told why.
  EXPECT_NE(harness::ptxasResources(".version 8.0\n.target sm_90\nbogus").error, "");
}

}  // namespace
}  // namespace warpsim::sim::timing
