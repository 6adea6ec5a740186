// Memory ordering on the timing model (memory_order.h): a fence beyond the SM holds its warp
// until the warp's stores are performed, a release atomic starts after them, strong loads are
// served by the L2 and not the L1, and an acquire costs fence.acquire_cycles more than a
// relaxed load; each in exact cycles derived from the configuration.
#include <gtest/gtest.h>

#include <string>

#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim::timing {
namespace {

// One thread: `body` between loading the output pointer (%rd1) and ret.
std::string kernel(const std::string& body) {
  return ".version 8.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(.param .u64 out) {\n"
         "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
         "  ld.param.u64 %rd1, [out];\n" +
         body + "  ret;\n}\n";
}

uint64_t cycles(const std::string& body, const TimingConfig& c = {}) {
  test::PtxRunner r(kernel(body), "order.ptx");
  const uint64_t out = r.buffer<uint32_t>(64);
  TimingModel model(c);
  LaunchOptions o;
  o.runner = &model;
  const LaunchResult res = r.launch("k", {1, 1, 1}, {1, 1, 1}, {test::PtxRunner::ptr(out)}, o);
  EXPECT_FALSE(res.fault.has_value()) << res.fault->message;
  EXPECT_TRUE(model.lastReport().has_value());
  return model.lastReport() ? model.lastReport()->cycles : 0;
}

constexpr const char* kStoreFenceStore =
    "  st.global.u32 [%rd1], 1;\n  membar.gl;\n  st.global.u32 [%rd1+4], 2;\n";

TEST(MemoryOrder, AFenceBeyondTheSmCostsItsLatencyAfterTheStores) {
  TimingConfig a, b;
  b.fenceScLatency = a.fenceScLatency + 100;
  EXPECT_EQ(cycles(kStoreFenceStore, b) - cycles(kStoreFenceStore, a), 100u);
}

TEST(MemoryOrder, AFenceBeyondTheSmWaitsForTheWarpsStoresAndACtaFenceDoesNot) {
  const TimingConfig c;
  const uint64_t gl = cycles(kStoreFenceStore, c);
  const uint64_t cta =
      cycles("  st.global.u32 [%rd1], 1;\n  membar.cta;\n  st.global.u32 [%rd1+4], 2;\n", c);
  // The second store issues when the first is performed (its issue + l2.hit_latency) and the
  // fence's own cycles after that, not two cycles after the first.
  EXPECT_EQ(gl - cta, c.l2HitLatency - 2 + c.fenceScLatency);
  const uint64_t fenceSc =
      cycles("  st.global.u32 [%rd1], 1;\n  fence.sc.gpu;\n  st.global.u32 [%rd1+4], 2;\n", c);
  EXPECT_EQ(fenceSc, gl);
  const uint64_t acqRel =
      cycles("  st.global.u32 [%rd1], 1;\n  fence.acq_rel.gpu;\n  st.global.u32 [%rd1+4], 2;\n", c);
  EXPECT_EQ(acqRel - cta, c.l2HitLatency - 2 + c.fenceReleaseLatency);
}

// A cluster-scope fence orders beyond the SM (the cluster's CTAs run on other SMs): it costs a
// release fence after the stores, as fence.acq_rel.gpu does. The proxy fences order nothing
// between threads and cost what a CTA fence does.
TEST(MemoryOrder, AClusterFenceOrdersBeyondTheSmAndAProxyFenceDoesNot) {
  const TimingConfig c;
  const auto between = [&](const std::string& fence) {
    return cycles("  st.global.u32 [%rd1], 1;\n  " + fence + ";\n  st.global.u32 [%rd1+4], 2;\n",
                  c);
  };
  const uint64_t cta = between("membar.cta");
  EXPECT_EQ(between("fence.acq_rel.cluster") - cta, c.l2HitLatency - 2 + c.fenceReleaseLatency);
  EXPECT_EQ(between("fence.sc.cluster") - cta, c.l2HitLatency - 2 + c.fenceScLatency);
  EXPECT_EQ(between("membar.sys"), between("membar.gl"));
  EXPECT_EQ(between("fence.proxy.async"), cta);
  EXPECT_EQ(between("membar.proxy.alias"), cta);
  EXPECT_EQ(between("fence.acq_rel.cta"), cta);
}

TEST(MemoryOrder, AReleaseAtomicStartsAfterTheWarpsStores) {
  const TimingConfig c;
  const std::string store = "  st.global.u32 [%rd1], 1;\n";
  const std::string use = "  st.global.u32 [%rd1+8], %r1;\n";
  const uint64_t relaxed =
      cycles(store + "  atom.relaxed.gpu.global.add.u32 %r1, [%rd1+4], 1;\n" + use, c);
  const uint64_t release =
      cycles(store + "  atom.release.gpu.global.add.u32 %r1, [%rd1+4], 1;\n" + use, c);
  // The atomic's request starts when the store is performed and a release fence's cycles
  // after that, not the cycle after its issue.
  EXPECT_EQ(release - relaxed, c.l2HitLatency - 1 + c.fenceReleaseLatency);
}

// Two dependent loads of one word: the second hits the L1 unless the loads are strong.
std::string twoLoads(const char* qualifier) {
  return std::string("  ld.global") + qualifier + ".u32 %r1, [%rd1];\n  and.b32 %r2, %r1, 0;\n" +
         "  cvt.u64.u32 %rd2, %r2;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global" + qualifier +
         ".u32 %r3, [%rd3];\n  st.global.u32 [%rd1+4], %r3;\n";
}

TEST(MemoryOrder, StrongLoadsAreServedByTheL2) {
  const TimingConfig c;
  const uint64_t weak = cycles(twoLoads(""), c);
  const uint64_t relaxed = cycles(twoLoads(".relaxed.gpu"), c);
  const uint64_t vol = cycles(twoLoads(".volatile"), c);
  const uint64_t cta = cycles(twoLoads(".relaxed.cta"), c);
  EXPECT_EQ(relaxed - weak, c.l2HitLatency - c.l1HitLatency);
  EXPECT_EQ(vol, relaxed);
  EXPECT_EQ(cta, weak);  // a CTA-scope load may hit: the CTA's threads share the L1
}

TEST(MemoryOrder, AnAcquireCostsItsCyclesMoreThanARelaxedLoad) {
  TimingConfig c;
  c.acquireCycles = 50;
  const uint64_t relaxed = cycles(twoLoads(".relaxed.gpu"), c);
  const uint64_t acquire = cycles(twoLoads(".acquire.gpu"), c);
  EXPECT_EQ(acquire - relaxed, 2u * 50);
}

}  // namespace
}  // namespace warpsim::sim::timing
