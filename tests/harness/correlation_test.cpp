// The correlation arithmetic (MAPE, Pearson r, the pairs) and the measurement reader.
#include "harness/correlation.h"
#include "tests/support/temp_path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace warpsim::harness {
namespace {

ProblemComparison problem(const std::string& card, uint64_t size, double measured,
                          double predicted) {
  ProblemComparison c;
  c.card = card;
  c.size = size;
  c.launches = 1;
  c.measuredCycles = measured;
  c.predictedCycles = predicted;
  return c;
}

TEST(Correlation, MapeAndPearsonOverTheScoredProblemsOnly) {
  const std::vector<ProblemComparison> ps = {
      problem("a", 1, 10000, 12000),  // +20%
      problem("b", 1, 20000, 15000),  // -25%
      problem("c", 1, 40000, 40000),  // 0%
      problem("d", 1, 5000, 50000),   // small: listed, not scored
  };
  const CorrelationSummary s = summarize(ps, {}, 8000);
  EXPECT_EQ(s.problems, 4u);
  EXPECT_EQ(s.small, 1u);
  EXPECT_NEAR(s.mape, (0.20 + 0.25 + 0.0) / 3, 1e-12);
  // Pearson r of (10000,12000) (20000,15000) (40000,40000), by hand: sxy / sqrt(sxx syy) with
  // deviations from the means 23333.3 and 22333.3: 4.5667e8 / sqrt(4.6667e8 * 4.7267e8).
  EXPECT_NEAR(s.pearson, 0.97234, 1e-4);
}

TEST(Correlation, APerfectModelHasRAndPairsExact) {
  std::vector<ProblemComparison> ps = {problem("sgemm_naive", 256, 90000, 90000),
                                       problem("sgemm_tiled", 256, 30000, 30000),
                                       problem("sgemm_tiled", 512, 200000, 200000)};
  const auto pairs = comparePairs(ps);
  ASSERT_EQ(pairs.size(), 1u);  // naive vs tiled at 256 only: the sizes must match
  EXPECT_DOUBLE_EQ(pairs[0].measuredSpeedup, 3.0);
  EXPECT_DOUBLE_EQ(pairs[0].predictedSpeedup, 3.0);
  EXPECT_TRUE(pairs[0].sameDirection());
  EXPECT_DOUBLE_EQ(pairs[0].ratioError(), 0.0);
  const CorrelationSummary s = summarize(ps, pairs, 8000);
  EXPECT_NEAR(s.pearson, 1.0, 1e-12);
  EXPECT_EQ(s.pairsSameDirection, 1u);
  EXPECT_EQ(s.pairsWithin25, 1u);
}

TEST(Correlation, AModelThatRanksThePairTheWrongWayIsCounted) {
  std::vector<ProblemComparison> ps = {problem("transpose_tiled", 1024, 20000, 10000),
                                       problem("transpose_padded", 1024, 10000, 12000)};
  const auto pairs = comparePairs(ps);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_FALSE(pairs[0].sameDirection());
  const CorrelationSummary s = summarize(ps, pairs, 8000);
  EXPECT_EQ(s.pairsSameDirection, 0u);
}

MeasuredLaunch launch(const std::string& kernel, double cycles, double instructions,
                      double l2ReadSectors) {
  MeasuredLaunch m;
  m.card = kernel;
  m.kernel = kernel;
  m.grid = "1,1,1";
  m.block = "256,1,1";
  m.shared = "0";
  m.metrics = {{"gpc__cycles_elapsed.max", cycles},
               {"smsp__inst_executed.sum", instructions},
               {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 8},
               {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 8},
               {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0},
               {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0},
               {"lts__t_sectors_op_read.sum", l2ReadSectors}};
  return m;
}

TEST(Correlation, TheChipsNoiseIsPooledOverLaunchesThatDoTheSameWork) {
  const std::vector<MeasuredLaunch> ms = {
      launch("k", 4000, 500, 1000),   launch("k", 4400, 500, 1020),  // repeats: mean 4200
      launch("k", 4200, 500, 990),                                   // deviations -200 200 0
      launch("j", 9000, 700, 50),     launch("j", 9200, 700, 50),    // repeats: -100 100
      launch("k", 90000, 600, 1000),   // other instructions: other work
      launch("j", 500000, 700, 5000),  // its L2 footprint 100x: other work (a longer chase)
      launch("q", 7000, 100, 10),      // recorded once
  };
  const LaunchNoise n = launchNoise(ms);
  EXPECT_EQ(n.groups, 2u);
  EXPECT_EQ(n.launches, 5u);
  // (200^2 + 200^2 + 0 + 100^2 + 100^2) / (2 + 1) degrees of freedom.
  EXPECT_NEAR(n.sigmaCycles, std::sqrt(100000.0 / 3), 1e-9);
}

// Long launches (a mean of longCycles or more) scatter beyond the short ones' sigma in
// proportion to their cycles: that part is a fraction of a launch, pooled over them.
TEST(Correlation, LongLaunchesAddARelativeNoise) {
  const std::vector<MeasuredLaunch> ms = {
      launch("k", 4000, 500, 1000), launch("k", 4400, 500, 1000),  // sigma^2 80000
      launch("j", 99000, 700, 50), launch("j", 101000, 700, 50),   // mean 100000
  };
  const LaunchNoise n = launchNoise(ms, 20000);
  EXPECT_EQ(n.groups, 2u);
  EXPECT_EQ(n.longGroups, 1u);
  EXPECT_NEAR(n.sigmaCycles, std::sqrt(80000.0), 1e-9);
  // The long group's 2,000,000 squared cycles less one degree of freedom's 80000, over 1e10.
  EXPECT_NEAR(n.relative, std::sqrt(1920000.0 / 1e10), 1e-12);
  // A problem of 2 launches and 100000 cycles: 2 sigma^2 plus (relative x 100000)^2.
  EXPECT_NEAR(n.of(2, 100000), std::sqrt(2 * 80000.0 + 1920000.0), 1e-6);
  // The default threshold (kLongLaunchCycles, 20000) splits them the same way.
  EXPECT_EQ(launchNoise(ms).longGroups, 1u);
}

TEST(Correlation, APairWithinTheChipsNoiseIsATieNotADirection) {
  // reduce_interleaved / reduce_sequential at 65536 as recorded: 10005 and 10314 cycles over
  // two launches each; with one launch's sigma 335, the difference's sigma is 670.
  std::vector<ProblemComparison> ps = {problem("reduce_interleaved", 65536, 10005, 10200),
                                       problem("reduce_sequential", 65536, 10314, 10000)};
  ps[0].launches = ps[1].launches = 2;
  LaunchNoise noise;
  noise.sigmaCycles = 335;
  auto pairs = comparePairs(ps, noise);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_DOUBLE_EQ(pairs[0].measuredDifference, -309);
  EXPECT_DOUBLE_EQ(pairs[0].measuredNoise, 670);
  EXPECT_TRUE(pairs[0].chipTie());
  EXPECT_TRUE(pairs[0].sameDirection());  // the model's 1.02 is within 10% of even
  // Without the noise the chip's 0.97 is a direction, and the model's 1.02 is the wrong one.
  pairs = comparePairs(ps);
  EXPECT_FALSE(pairs[0].chipTie());
  EXPECT_FALSE(pairs[0].sameDirection());
  // A tie the model calls a 20% win is not ranked right.
  ps[1].predictedCycles = 8400;
  pairs = comparePairs(ps, noise);
  EXPECT_TRUE(pairs[0].chipTie());
  EXPECT_FALSE(pairs[0].sameDirection());
  const CorrelationSummary s = summarize(ps, pairs, 8000);
  EXPECT_EQ(s.pairsChipTie, 1u);
  EXPECT_EQ(s.pairsSameDirection, 0u);
  // Just beyond twice the noise the chip's direction counts.
  ps[1].measuredCycles = ps[0].measuredCycles + 2 * 670 + 1;
  pairs = comparePairs(ps, noise);
  EXPECT_FALSE(pairs[0].chipTie());
  ps[1].measuredCycles = ps[0].measuredCycles + 2 * 670;
  pairs = comparePairs(ps, noise);
  EXPECT_TRUE(pairs[0].chipTie());
}

TEST(Correlation, TheCommittedMeasurementsNoise) {
  // The repeat runs (tests/recorded/timing/h200_repeats.tsv: the reductions and scans at 65536
  // 8 times each, transpose_padded at 4096 5 times, sgemm_naive at 1024 3 times), and the work
  // h200_ncu.tsv holds more than once (bitonic_global's steps, dsum_f64, scan_add_offsets in
  // both scans, micro_bank_stride's strides of one conflict degree): docs/FIDELITY.md.
  const std::string dir = std::string(WARPSIM_SOURCE_DIR) + "/tests/recorded/timing/";
  const LaunchNoise repeats = launchNoise(readMeasurements(dir + "h200_repeats.tsv"));
  EXPECT_EQ(repeats.groups, 11u);
  EXPECT_EQ(repeats.launches, 87u);
  EXPECT_EQ(repeats.longGroups, 2u);
  EXPECT_NEAR(repeats.sigmaCycles, 255.1, 0.1);
  EXPECT_NEAR(repeats.relative, 0.01364, 0.00001);
  const LaunchNoise inData = launchNoise(readMeasurements(dir + "h200_ncu.tsv"));
  EXPECT_EQ(inData.groups, 10u);
  EXPECT_EQ(inData.launches, 41u);
  EXPECT_NEAR(inData.sigmaCycles, 221.7, 0.1);
  EXPECT_NEAR(inData.relative, 0.00897, 0.00001);
}

TEST(Correlation, TheReaderNamesTheLineOfABadValue) {
  const auto path = test::processTempPath("warpsim_corr_test.tsv");
  {
    std::ofstream f(path);
    f << "card\tsize\tseed\tlaunch\tkernel\tgrid\tblock\tshared\tthreads\tgpc__cycles_elapsed."
         "max\n";
    f << "vector_add\t65536\t1\t0\tvector_add_f32\t256,1,1\t256,1,1\t0\t65536\t4839\n";
    f << "vector_add\t262144\t1\t0\tvector_add_f32\t1024,1,1\t256,1,1\t0\t262144\tfast\n";
  }
  try {
    readMeasurements(path.string());
    FAIL() << "a bad value was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  path.string() + ":3: column 'gpc__cycles_elapsed.max': 'fast' is not a number"),
              std::string::npos)
        << e.what();
  }
  {
    std::ofstream f(path);
    f << "card\tsize\tseed\tlaunch\tkernel\tgrid\tblock\tshared\tthreads\tgpc__cycles_elapsed."
         "max\n";
    f << "vector_add\t65536\t1\t0\tvector_add_f32\t256,1,1\t256,1,1\t0\t65536\t4839\n";
  }
  const auto ms = readMeasurements(path.string());
  ASSERT_EQ(ms.size(), 1u);
  EXPECT_EQ(ms[0].card, "vector_add");
  EXPECT_EQ(ms[0].threads, 65536u);
  EXPECT_DOUBLE_EQ(ms[0].metric("gpc__cycles_elapsed.max"), 4839);
  std::filesystem::remove(path);
}

TEST(Correlation, ALaunchsClockIsItsCyclesOverItsDuration) {
  MeasuredLaunch m;
  m.metrics["gpc__cycles_elapsed.max"] = 8369;
  m.metrics["gpu__time_duration.sum"] = 4256;
  m.metrics["sm__cycles_elapsed.avg.per_second"] = 2.33e9;  // bf16_fma_relu at 1M: ncu's figure
  EXPECT_NEAR(m.clockGhz(), 1.966, 0.001);
  m.metrics.erase("gpu__time_duration.sum");  // only ncu's figure left
  EXPECT_DOUBLE_EQ(m.clockGhz(), 2.33);
  // Every launch of the committed H200 measurements ran at its 1.98 GHz by this measure (ncu's
  // sm__cycles_elapsed.avg.per_second reads 1.75-2.61 GHz on the short ones).
  for (const auto& l :
       readMeasurements(std::string(WARPSIM_SOURCE_DIR) + "/tests/recorded/timing/h200_ncu.tsv")) {
    EXPECT_GT(l.clockGhz(), 1.90) << l.card << " " << l.size << " " << l.launch;
    EXPECT_LT(l.clockGhz(), 1.99) << l.card << " " << l.size << " " << l.launch;
  }
}

TEST(Correlation, TheCommittedMeasurementsRead) {
  const auto ms =
      readMeasurements(std::string(WARPSIM_SOURCE_DIR) + "/tests/recorded/timing/h200_ncu.tsv");
  EXPECT_GE(ms.size(), 200u);
  for (const auto& m : ms) EXPECT_GT(m.metric("gpc__cycles_elapsed.max"), 1000) << m.card;
}

}  // namespace
}  // namespace warpsim::harness
