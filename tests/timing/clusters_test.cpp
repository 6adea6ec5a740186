// Thread-block clusters and cooperative grids on the timing model (engine_clusters.cpp): whole
// clusters placed on a GPC, distributed shared memory's latency and barrier.cluster's release
// in exact cycles, and the launches the model's chip cannot hold (a cluster's deadlock: tests/sim/
// cluster_test.cpp, in both modes).
#include <gtest/gtest.h>

#include <string>

#include "sim/gpu.h"
#include "sim/timing/cluster_dispatch.h"
#include "sim/timing/config.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim::timing {
namespace {

// Clusters of two CTAs of 32 threads: each thread stores rank + 100 in its shared word, the
// cluster syncs, each thread reads the other CTA's word (mapa + ld.shared::cluster) into
// out[ctaid * 32 + tid], and the cluster syncs again so that no CTA exits while read.
constexpr const char* kSwap = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s[32];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, s;
  add.u32 %r5, %r4, %r3;
  add.u32 %r6, %r2, 100;
  st.shared.u32 [%r5], %r6;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  xor.b32 %r7, %r2, 1;
  mapa.shared::cluster.u32 %r8, %r5, %r7;
  ld.shared::cluster.u32 %r9, [%r8];
  mov.u32 %r10, %ctaid.x;
  shl.b32 %r11, %r10, 5;
  add.u32 %r11, %r11, %r1;
  mul.wide.u32 %rd2, %r11, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";

struct ClusterRun {
  TimingReport report;
  LaunchResult result;
  std::vector<uint32_t> out;
};

ClusterRun runSwap(const TimingConfig& c, uint32_t ctas, bool timed = true) {
  test::PtxRunner r(kSwap, "swap.ptx");
  const uint64_t out = r.buffer<uint32_t>(size_t(ctas) * 32);
  TimingModel model(c);
  LaunchOptions o;
  if (timed) o.runner = &model;
  ClusterRun run;
  run.result =
      r.launch("k", {ctas, 1, 1}, {32, 1, 1}, {test::PtxRunner::ptr(out)}, o, 0, {2, 1, 1});
  if (model.lastReport()) run.report = *model.lastReport();
  run.out = r.read<uint32_t>(out, size_t(ctas) * 32);
  return run;
}

TEST(TimedClusters, ComputeWhatTheFunctionalModeComputes) {
  const ClusterRun timed = runSwap({}, 8), plain = runSwap({}, 8, false);
  ASSERT_FALSE(timed.result.fault.has_value()) << timed.result.fault->message;
  for (uint32_t cta = 0; cta < 8; ++cta)
    for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(timed.out[cta * 32 + t], 100 + (cta % 2 ^ 1));
  EXPECT_EQ(timed.out, plain.out);
  EXPECT_EQ(timed.report.ctas, 8u);
}

TEST(TimedClusters, ARemoteSharedLoadTakesTheDsmemLatency) {
  TimingConfig a, b;
  b.dsmemLatency = a.dsmemLatency + 100;
  const uint64_t ca = runSwap(a, 2).report.cycles, cb = runSwap(b, 2).report.cycles;
  EXPECT_EQ(cb - ca, 100u);
}

TEST(TimedClusters, EachClusterBarrierReleasesItsLatencyAfterTheLastArrival) {
  // Long enough that the second barrier's release, not the global store before it, ends the
  // launch: both barriers are on the path.
  TimingConfig a, b;
  a.clusterBarrierLatency = 1000;
  b.clusterBarrierLatency = 1050;
  const uint64_t ca = runSwap(a, 2).report.cycles, cb = runSwap(b, 2).report.cycles;
  EXPECT_EQ(cb - ca, 2u * 50);
}

// 4 SMs in two GPCs of two, one CTA per SM: two clusters of two at once, four take two waves.
TimingConfig fourSms(uint32_t ctasPerSm) {
  TimingConfig c;
  c.smCount = 4;
  c.gpcs = "2,2";
  c.maxCtasPerSm = ctasPerSm;
  return c;
}

TEST(TimedClusters, ClustersComeInWavesOfWhatTheGpcsHold) {
  const ClusterRun two = runSwap(fourSms(1), 4), four = runSwap(fourSms(1), 8);
  ASSERT_FALSE(four.result.fault.has_value());
  EXPECT_EQ(two.report.waves, 1u);
  EXPECT_EQ(four.report.waves, 2u);
  EXPECT_GT(four.report.cycles, two.report.cycles);
}

TEST(TimedClusters, AClusterLargerThanAnyGpcIsRefused) {
  test::PtxRunner r(kSwap, "swap.ptx");
  const uint64_t out = r.buffer<uint32_t>(4 * 32);
  TimingModel model(fourSms(1));
  LaunchOptions o;
  o.runner = &model;
  try {
    r.launch("k", {4, 1, 1}, {32, 1, 1}, {test::PtxRunner::ptr(out)}, o, 0, {4, 1, 1});
    FAIL() << "a cluster of 4 CTAs on GPCs of 2 SMs x 1 CTA ran";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("a cluster of 4 CTAs does not fit one GPC"),
              std::string::npos)
        << e.what();
  }
}

TEST(TimedCooperative, AGridLargerThanTheModelsChipIsRefused) {
  test::PtxRunner r(
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 out) { ret; }\n",
      "coop.ptx");
  TimingConfig c;
  c.smCount = 2;
  c.gpcs = "2";
  c.maxCtasPerSm = 1;
  TimingModel model(c);
  LaunchOptions o;
  o.runner = &model;
  LaunchConfig lc;
  lc.entry = "k";
  lc.grid = {3, 1, 1};
  lc.block = {32, 1, 1};
  lc.cooperative = true;
  lc.params = test::PtxRunner::ptr(0);
  try {
    r.gpu().launch(r.module(), lc, o);
    FAIL() << "3 cooperative CTAs ran on 2 SMs of one CTA each";
  } catch (const LaunchError& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit the timing model's chip at once: 2 CTAs"),
              std::string::npos)
        << e.what();
  }
  lc.grid = {2, 1, 1};
  EXPECT_FALSE(r.gpu().launch(r.module(), lc, o).fault.has_value());
  ASSERT_TRUE(model.lastReport().has_value());
  EXPECT_EQ(model.lastReport()->ctas, 2u);
}

TEST(ClusterDispatch, SpreadsClustersOverGpcsAndTheirCtasOverSms) {
  ClusterDispatcher d(5, 2, {3, 2}, 1);
  EXPECT_EQ(d.clustersAtOnce(), 2u);  // 3 slots hold one cluster of 2, 2 slots one
  EXPECT_EQ(d.waves(), 3u);
  const auto a = d.next();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->cluster, 0u);
  EXPECT_EQ(a->sms, (std::vector<uint32_t>{0, 1}));  // the GPC with the most room
  const auto b = d.next();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sms, (std::vector<uint32_t>{3, 4}));
  EXPECT_FALSE(d.next().has_value());  // one slot left in each GPC
  d.release(3);
  EXPECT_FALSE(d.next().has_value());  // GPC 1 has one slot, GPC 0 one
  d.release(0);
  const auto c = d.next();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->cluster, 2u);
  EXPECT_EQ(c->sms, (std::vector<uint32_t>{0, 2}));
}

TEST(ClusterDispatch, TwoCtasOfAClusterMayShareAnSm) {
  ClusterDispatcher d(1, 4, {2}, 2);
  const auto a = d.next();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->sms, (std::vector<uint32_t>{0, 1, 0, 1}));
}

TEST(ClusterDispatch, TheGpcListMustAddUpToTheSms) {
  EXPECT_EQ(parseGpcs("18,18,16,16,16,16,16,16", 132).size(), 8u);
  EXPECT_THROW(parseGpcs("18,18", 132), ConfigError);
  EXPECT_THROW(parseGpcs("18,,16", 34), ConfigError);
  EXPECT_THROW(parseGpcs("0,4", 4), ConfigError);
  EXPECT_THROW(parseGpcs("x", 4), ConfigError);
  EXPECT_THROW(parseTimingConfig(R"({"sm.gpcs": "66,65"})", "t.json"), ConfigError);
}

}  // namespace
}  // namespace warpsim::sim::timing
