// --timing-sample K: K waves of CTAs in detail, the rest functionally, the prediction
// extrapolated. On a two-SM chip (waves of 64 small CTAs) so that many waves stay cheap.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/timing/small_kernel.h"

namespace warpsim::sim::timing {
namespace {

TimingConfig twoSms(uint64_t sample) {
  TimingConfig c;
  c.smCount = 2;
  c.run.sampleWaves = sample;
  return c;
}

TEST(TimingSampling, ExtrapolatesCloseToTheFullSimulation) {
  const uint32_t ctas = 64 * 8;  // 8 waves
  const test::SmallRun full = test::runSmallKernel(twoSms(0), ctas);
  for (uint64_t k : {1u, 2u, 3u}) {
    const test::SmallRun s = test::runSmallKernel(twoSms(k), ctas);
    // The functional rest computed its part of the output.
    EXPECT_EQ(s.y, std::vector<float>(ctas * 64, 5.0f)) << k;
    EXPECT_EQ(s.report.sampledWaves, k);
    EXPECT_EQ(s.report.detailedCtas, 64 * k);
    EXPECT_EQ(s.report.ctas, ctas);
    EXPECT_EQ(s.report.waves, 8u);
    // Instruction and FLOP counts are exact; cycles within 5% of the full simulation from two
    // waves on (one wave also carries the first wave's staggered CTA starts: 15% here).
    EXPECT_EQ(s.report.warpInstructions, full.report.warpInstructions) << k;
    EXPECT_EQ(s.report.threadInstructions, full.report.threadInstructions) << k;
    EXPECT_EQ(s.report.flops, full.report.flops) << k;
    const double err =
        std::abs(double(s.report.cycles) - double(full.report.cycles)) / double(full.report.cycles);
    EXPECT_LT(err, k == 1 ? 0.20 : 0.05)
        << k << ": " << s.report.cycles << " vs " << full.report.cycles;
    EXPECT_LT(double(s.report.mem.dramReadBytes), 1.1 * double(full.report.mem.dramReadBytes));
    EXPECT_GT(double(s.report.mem.dramReadBytes), 0.9 * double(full.report.mem.dramReadBytes));
  }
}

TEST(TimingSampling, AGridWithinTheSampleIsSimulatedWhole) {
  const test::SmallRun full = test::runSmallKernel(twoSms(0), 128);
  const test::SmallRun s = test::runSmallKernel(twoSms(2), 128);
  EXPECT_EQ(s.report.sampledWaves, 0u);
  EXPECT_EQ(s.report.cycles, full.report.cycles);
  EXPECT_EQ(s.report.stalls, full.report.stalls);
}

TEST(TimingSampling, Deterministic) {
  const uint64_t a = test::runSmallKernel(twoSms(1), 64 * 5).report.cycles;
  EXPECT_EQ(test::runSmallKernel(twoSms(1), 64 * 5).report.cycles, a);
}

}  // namespace
}  // namespace warpsim::sim::timing
