// Thread-block clusters and cooperative launches (sim/func/group.h, cluster.h): the cluster
// special registers, mapa / getctarank, distributed shared memory (loads, stores and atomics on
// another CTA's shared memory, faults), barrier.cluster, the co-scheduled group's deadlock
// report, cg::this_grid().sync() as nvcc 13 emits it, and the launch errors of the chip.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/gpu.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

struct GroupLaunch {
  sim::Dim3 grid, block, cluster{0, 0, 0};
  bool cooperative = false;
  bool nonPortable = false;
  uint32_t registers = 0;
  sim::LaunchOptions options = {};
};

sim::LaunchResult launch(PtxRunner& r, const std::string& entry, const GroupLaunch& g,
                         const std::vector<std::vector<uint8_t>>& args) {
  sim::LaunchConfig c;
  c.entry = entry;
  c.grid = g.grid;
  c.block = g.block;
  c.cluster = g.cluster;
  c.cooperative = g.cooperative;
  c.nonPortableCluster = g.nonPortable;
  c.registersPerThread = g.registers;
  c.params = r.gpu().packParams(r.module(), entry, args);
  return r.gpu().launch(r.module(), c, g.options);
}

// Thread 0 of each CTA writes 12 words: its cluster registers.
const std::string kSpecials = std::string(kHeader) + R"(
.visible .entry specials(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 ret;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ctaid.y;
  mov.u32 %r4, %nctaid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  mul.lo.u32 %r5, %r5, 48;
  cvt.u64.u32 %rd2, %r5;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r6, %cluster_ctarank;
  mov.u32 %r7, %cluster_nctarank;
  mov.u32 %r8, %cluster_ctaid.x;
  mov.u32 %r9, %cluster_ctaid.y;
  mov.u32 %r10, %cluster_nctaid.x;
  mov.u32 %r11, %cluster_nctaid.y;
  mov.u32 %r12, %clusterid.x;
  mov.u32 %r13, %clusterid.y;
  mov.u32 %r14, %nclusterid.x;
  mov.u32 %r15, %nclusterid.y;
  mov.pred %p2, %is_explicit_cluster;
  selp.u32 %r16, 1, 0, %p2;
  mov.u32 %r17, %cluster_nctaid.z;
  st.global.v4.u32 [%rd3], {%r6, %r7, %r8, %r9};
  st.global.v4.u32 [%rd3+16], {%r10, %r11, %r12, %r13};
  st.global.v4.u32 [%rd3+32], {%r14, %r15, %r16, %r17};
  ret;
}
)";

TEST(Cluster, SpecialRegistersDescribeTheClusterShape) {
  PtxRunner r(kSpecials);
  const uint64_t out = r.buffer<uint32_t>(8 * 12);
  GroupLaunch g{{4, 2, 1}, {32, 1, 1}, {2, 2, 1}};
  const auto res = launch(r, "specials", g, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 8 * 12);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t* w = &v[(y * 4 + x) * 12];
      const uint32_t cx = x % 2, cy = y % 2;
      EXPECT_EQ(w[0], cx + 2 * cy) << x << "," << y;  // rank
      EXPECT_EQ(w[1], 4u);
      EXPECT_EQ(w[2], cx);
      EXPECT_EQ(w[3], cy);
      EXPECT_EQ(w[4], 2u);
      EXPECT_EQ(w[5], 2u);
      EXPECT_EQ(w[6], x / 2);
      EXPECT_EQ(w[7], y / 2);
      EXPECT_EQ(w[8], 2u);
      EXPECT_EQ(w[9], 1u);
      EXPECT_EQ(w[10], 1u);  // %is_explicit_cluster
      EXPECT_EQ(w[11], 1u);
    }
}

TEST(Cluster, WithoutAClusterEachCtaIsAClusterOfOne) {
  PtxRunner r(kSpecials);
  const uint64_t out = r.buffer<uint32_t>(3 * 12);
  const auto res = r.launch("specials", {3, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 3 * 12);
  for (uint32_t x = 0; x < 3; ++x) {
    const uint32_t* w = &v[x * 12];
    EXPECT_EQ(w[0], 0u);
    EXPECT_EQ(w[1], 1u);
    EXPECT_EQ(w[2], 0u);
    EXPECT_EQ(w[4], 1u);
    EXPECT_EQ(w[6], x);  // %clusterid is the CTA's id
    EXPECT_EQ(w[8], 3u);
    EXPECT_EQ(w[10], 0u);
  }
}

// Every CTA stores 100 + rank into its own `v`; after barrier.cluster each reads its right
// neighbour's `v` through mapa.shared::cluster + ld.shared::cluster, adds its rank into rank 0's
// `sum` with atom.shared::cluster, and stores 1000 + rank into the left neighbour's `mail` with
// st.shared::cluster; after a second barrier thread 0 reports all three.
const std::string kDsmem = std::string(kHeader) + R"(
.visible .entry dsmem(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 4 .u32 v;
  .shared .align 4 .u32 sum;
  .shared .align 4 .u32 mail;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra WAIT1;
  add.u32 %r4, %r2, 100;
  st.shared.u32 [v], %r4;
WAIT1:
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  @%p1 bra WAIT2;
  add.u32 %r5, %r2, 1;
  rem.u32 %r5, %r5, %r3;
  mov.u32 %r6, v;
  mapa.shared::cluster.u32 %r7, %r6, %r5;
  ld.shared::cluster.u32 %r8, [%r7];
  mov.u32 %r9, sum;
  mapa.shared::cluster.u32 %r10, %r9, 0;
  atom.shared::cluster.add.u32 %r11, [%r10], %r2;
  add.u32 %r12, %r2, %r3;
  sub.u32 %r12, %r12, 1;
  rem.u32 %r12, %r12, %r3;
  mov.u32 %r13, mail;
  mapa.shared::cluster.u32 %r14, %r13, %r12;
  add.u32 %r15, %r2, 1000;
  st.shared::cluster.u32 [%r14], %r15;
  getctarank.shared::cluster.u32 %r16, %r7;
WAIT2:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  @%p1 ret;
  ld.shared.u32 %r17, [sum];
  ld.shared.u32 %r18, [mail];
  mov.u32 %r19, %ctaid.x;
  mul.wide.u32 %rd2, %r19, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r8, %r17, %r18, %r16};
  ret;
}
)";

TEST(Cluster, DistributedSharedMemoryLoadsStoresAndAtomics) {
  PtxRunner r(kDsmem);
  const uint64_t out = r.buffer<uint32_t>(8 * 4);
  GroupLaunch g{{8, 1, 1}, {64, 1, 1}, {4, 1, 1}};
  const auto res = launch(r, "dsmem", g, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 8 * 4);
  for (uint32_t b = 0; b < 8; ++b) {
    const uint32_t rank = b % 4;
    EXPECT_EQ(v[b * 4 + 0], 100 + (rank + 1) % 4) << "cta " << b;
    EXPECT_EQ(v[b * 4 + 1], rank == 0 ? 0u + 1 + 2 + 3 : 0u) << "cta " << b;
    EXPECT_EQ(v[b * 4 + 2], 1000 + (rank + 1) % 4) << "cta " << b;
    EXPECT_EQ(v[b * 4 + 3], (rank + 1) % 4) << "cta " << b;  // getctarank
  }
}

TEST(Cluster, ResultsDoNotDependOnTheHostThreadCount) {
  std::vector<uint32_t> first;
  for (unsigned threads : {1u, 3u}) {
    PtxRunner r(kDsmem);
    const uint64_t out = r.buffer<uint32_t>(64 * 4);
    GroupLaunch g{{64, 1, 1}, {64, 1, 1}, {8, 1, 1}};
    g.options.threads = threads;
    const auto res = launch(r, "dsmem", g, {PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    const auto v = r.read<uint32_t>(out, 64 * 4);
    if (first.empty())
      first = v;
    else
      EXPECT_EQ(v, first);
    EXPECT_EQ(res.ctasRun, 64u);
  }
}

// Every thread mallocs 16 bytes and writes the block's address (malloc as nvcc 13 calls it).
const std::string kClusterMalloc = std::string(kHeader) + R"(
.extern .func (.param .b64 func_retval0) malloc
(
  .param .b64 malloc_param_0
)
;
.visible .entry cmalloc(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.u32 %r4, %r1, %r2, %r3;
  mov.u64 %rd2, 16;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd2;
  .param .b64 retval0;
  call.uni (retval0), malloc, (param0);
  ld.param.b64 %rd3, [retval0+0];
  }
  mul.wide.u32 %rd4, %r4, 8;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u64 [%rd5], %rd3;
  ret;
}
)";

// A cluster launch whose kernel calls malloc runs its clusters in order, as runGrid runs such a
// kernel's CTAs: the heap's addresses do not depend on the host thread count.
TEST(Cluster, HeapAddressesDoNotDependOnTheHostThreadCount) {
  std::vector<uint64_t> first;
  for (unsigned threads : {1u, 3u}) {
    PtxRunner r(kClusterMalloc);
    const uint64_t out = r.buffer<uint64_t>(1024 * 64);
    GroupLaunch g{{1024, 1, 1}, {64, 1, 1}, {2, 1, 1}};
    g.options.threads = threads;
    const auto res = launch(r, "cmalloc", g, {PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    const auto v = r.read<uint64_t>(out, 1024 * 64);
    EXPECT_EQ(std::count(v.begin(), v.end(), 0u), 0);
    if (first.empty())
      first = v;
    else
      EXPECT_EQ(v, first);
  }
}

// cluster.map_shared_rank as nvcc 13 compiles it: cvta.shared, mapa.u64 on the generic address,
// a generic load; getctarank.u64 of the generic address.
const std::string kGenericMapa = std::string(kHeader) + R"(
.visible .entry gmapa(.param .u64 out, .param .u32 target)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .u32 s;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [target];
  mov.u32 %r2, %cluster_ctarank;
  mul.lo.u32 %r3, %r2, 7;
  st.shared.u32 [s], %r3;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  mov.u32 %r4, s;
  cvt.u64.u32 %rd2, %r4;
  cvta.shared.u64 %rd3, %rd2;
  mapa.u64 %rd4, %rd3, %r1;
  ld.u32 %r5, [%rd4];
  getctarank.u64 %r6, %rd4;
  getctarank.u64 %r7, %rd3;
  mov.u32 %r4, %ctaid.x;
  mul.wide.u32 %rd5, %r4, 12;
  add.s64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r5;
  st.global.u32 [%rd6+4], %r6;
  st.global.u32 [%rd6+8], %r7;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
}
)";

TEST(Cluster, MapaOnGenericAddressesAndGetctarank) {
  PtxRunner r(kGenericMapa);
  const uint64_t out = r.buffer<uint32_t>(4 * 3);
  GroupLaunch g{{4, 1, 1}, {32, 1, 1}, {2, 1, 1}};
  const auto res = launch(r, "gmapa", g, {PtxRunner::ptr(out), PtxRunner::u32(1)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 4 * 3);
  for (uint32_t b = 0; b < 4; ++b) {
    EXPECT_EQ(v[b * 3 + 0], 7u) << "cta " << b;     // rank 1's value
    EXPECT_EQ(v[b * 3 + 1], 1u) << "cta " << b;     // the mapped address is rank 1's
    EXPECT_EQ(v[b * 3 + 2], b % 2) << "cta " << b;  // a plain shared address is the CTA's own
  }
}

TEST(Cluster, MapaOfARankOutsideTheClusterFaults) {
  PtxRunner r(kGenericMapa);
  const uint64_t out = r.buffer<uint32_t>(4 * 3);
  GroupLaunch g{{4, 1, 1}, {32, 1, 1}, {2, 1, 1}};
  const auto res = launch(r, "gmapa", g, {PtxRunner::ptr(out), PtxRunner::u32(2)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::OutOfBounds);
  EXPECT_EQ(res.fault->message, "mapa names CTA rank 2 of a cluster of 2 CTAs");
  EXPECT_EQ(res.fault->instruction, "mapa.u64");
}

// A shared::cluster address past the other CTA's shared memory.
const std::string kDsmemOutOfBounds = std::string(kHeader) + R"(
.visible .entry oob()
{
  .reg .b32 %r<4>;
  .shared .align 4 .u32 s[4];
  mov.u32 %r1, s;
  add.u32 %r1, %r1, 16;
  mapa.shared::cluster.u32 %r2, %r1, 1;
  ld.shared::cluster.u32 %r3, [%r2];
  ret;
}
)";

TEST(Cluster, DistributedSharedMemoryIsBoundsChecked) {
  PtxRunner r(kDsmemOutOfBounds);
  GroupLaunch g{{2, 1, 1}, {32, 1, 1}, {2, 1, 1}};
  const auto res = launch(r, "oob", g, {});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::OutOfBounds);
  EXPECT_EQ(res.fault->message,
            "load of 4 bytes at 0x2000010 is outside the 16 bytes of shared memory of the "
            "cluster's CTA of rank 1");
  EXPECT_EQ(res.fault->cta.x, 0u);
}

// Rank 1's warp 0 waits at bar.sync 0 for warp 1, which waits at the cluster barrier for warp
// 0: nobody can go on.
const std::string kClusterDeadlock = std::string(kHeader) + R"(
.visible .entry stuck()
{
  .reg .b32 %r<4>;
  .reg .pred %p<3>;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %tid.x;
  setp.eq.u32 %p1, %r1, 1;
  setp.lt.u32 %p2, %r2, 32;
  and.pred %p1, %p1, %p2;
  @%p1 bra LOCAL;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ret;
LOCAL:
  bar.sync 0;
  ret;
}
)";

// What every mode reports of kClusterDeadlock.
void expectTheDeadlockReportOf(const sim::FaultInfo& f) {
  EXPECT_EQ(f.kind, sim::FaultKind::BarrierDeadlock);
  EXPECT_EQ(f.message,
            "every warp of the cluster's 2 CTAs waits at a barrier that cannot complete (some "
            "threads never arrive)");
  EXPECT_EQ(f.details,
            "CTA (0,0,0) (cluster rank 0):\n"
            "  warp 0: waits at barrier.cluster.wait (PTX line 16), phase 0: 96 of 128 live "
            "threads of the cluster's 2 CTAs arrived\n"
            "  warp 1: waits at barrier.cluster.wait (PTX line 16), phase 0: 96 of 128 live "
            "threads of the cluster's 2 CTAs arrived\n"
            "CTA (1,0,0) (cluster rank 1):\n"
            "  warp 0: waits at barrier 0 (PTX line 19), 32 of 64 threads arrived\n"
            "  warp 1: waits at barrier.cluster.wait (PTX line 16), phase 0: 96 of 128 live "
            "threads of the cluster's 2 CTAs arrived");
}

// The same report from the functional driver and the timing model (engine_clusters.cpp).
TEST(Cluster, AGroupInWhichNoWarpCanGoOnReportsEveryCtasWaits) {
  for (const bool timed : {false, true}) {
    SCOPED_TRACE(timed ? "timing model" : "functional");
    PtxRunner r(kClusterDeadlock);
    GroupLaunch g{{2, 1, 1}, {64, 1, 1}, {2, 1, 1}};
    sim::timing::TimingModel model{sim::timing::TimingConfig{}};
    if (timed) g.options.runner = &model;
    const auto res = launch(r, "stuck", g, {});
    ASSERT_TRUE(res.fault);
    expectTheDeadlockReportOf(*res.fault);
  }
}

TEST(Cluster, ThreadsThatExitAreNotWaitedFor) {
  // Rank 1's first warp exits instead of waiting at bar.sync: the cluster barrier completes
  // with the threads that remain.
  std::string ptx = kClusterDeadlock;
  ptx.replace(ptx.find("  bar.sync 0;\n"), 14, "");
  PtxRunner r(ptx);
  GroupLaunch g{{2, 1, 1}, {64, 1, 1}, {2, 1, 1}};
  const auto res = launch(r, "stuck", g, {});
  EXPECT_FALSE(res.fault) << res.fault->describe("");
}

TEST(Cluster, WaitWithoutArriveFaults) {
  const std::string ptx = std::string(kHeader) + R"(
.visible .entry w()
{
  barrier.cluster.wait;
  ret;
}
)";
  PtxRunner r(ptx);
  const auto res = r.launch("w", {1, 1, 1}, {32, 1, 1}, {});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::InvalidInstruction);
  EXPECT_EQ(res.fault->message, "barrier.cluster.wait without a barrier.cluster.arrive before it");
}

TEST(Cluster, BarrierClusterFormsAreChecked) {
  for (const char* bad :
       {"barrier.cluster.wait.release;", "barrier.cluster.arrive.acquire;", "barrier.cluster;"}) {
    const std::string ptx =
        std::string(kHeader) + ".visible .entry k()\n{\n  " + bad + "\n  ret;\n}\n";
    // A function that does not lower keeps its error; launching it throws it.
    PtxRunner r(ptx);
    EXPECT_THROW(r.launch("k", {1, 1, 1}, {32, 1, 1}, {}), isa::PtxError) << bad;
  }
  // Without cluster dimensions a CTA is its own cluster: arrive + wait complete at once.
  const std::string ptx = std::string(kHeader) +
                          ".visible .entry k()\n{\n  barrier.cluster.arrive.relaxed;\n"
                          "  barrier.cluster.wait;\n  fence.acq_rel.cluster;\n  ret;\n}\n";
  PtxRunner r(ptx);
  const auto res = r.launch("k", {2, 1, 1}, {64, 1, 1}, {});
  EXPECT_FALSE(res.fault) << res.fault->describe("");
}

// ---- launch errors -------------------------------------------------------------------------

std::string launchError(const std::string& ptx, const std::string& entry, const GroupLaunch& g) {
  PtxRunner r(ptx);
  try {
    launch(r, entry, g, {});
  } catch (const sim::LaunchError& e) {
    return e.what();
  }
  return "";
}

const std::string kEmpty = std::string(kHeader) + ".visible .entry e()\n{\n  ret;\n}\n";

TEST(ClusterLaunch, TheGridMustBeAMultipleOfTheCluster) {
  EXPECT_EQ(launchError(kEmpty, "e", {{6, 1, 1}, {32, 1, 1}, {4, 1, 1}}),
            "grid dimension x = 6 is not a multiple of the cluster's 4 "
            "(CUDA_ERROR_INVALID_CLUSTER_SIZE)");
}

TEST(ClusterLaunch, AtMostEightCtasOrSixteenWhenNonPortable) {
  EXPECT_EQ(launchError(kEmpty, "e", {{9, 1, 1}, {32, 1, 1}, {9, 1, 1}}),
            "a cluster of 9 CTAs exceeds the portable limit of 8 (16 with the attribute "
            "CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED) "
            "(CUDA_ERROR_INVALID_CLUSTER_SIZE)");
  GroupLaunch sixteen{{16, 1, 1}, {32, 1, 1}, {16, 1, 1}};
  sixteen.nonPortable = true;
  EXPECT_EQ(launchError(kEmpty, "e", sixteen), "");
  GroupLaunch seventeen{{17, 1, 1}, {32, 1, 1}, {17, 1, 1}};
  seventeen.nonPortable = true;
  EXPECT_EQ(launchError(kEmpty, "e", seventeen),
            "a cluster of 17 CTAs exceeds the H200's limit of 16 "
            "(CUDA_ERROR_INVALID_CLUSTER_SIZE)");
}

TEST(ClusterLaunch, TheKernelsClusterDirectivesApply) {
  const std::string req =
      std::string(kHeader) +
      ".visible .entry q(.param .u64 out)\n.explicitcluster\n.reqnctapercluster 2, 1, 1\n{\n"
      "  .reg .b32 %r<3>;\n  .reg .b64 %rd<4>;\n  ld.param.u64 %rd1, [out];\n"
      "  mov.u32 %r1, %cluster_nctarank;\n  mov.u32 %r2, %ctaid.x;\n"
      "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
      "  st.global.u32 [%rd3], %r1;\n  ret;\n}\n";
  {
    // Launched without a cluster shape, the kernel's .reqnctapercluster is the shape.
    PtxRunner r(req);
    const uint64_t out = r.buffer<uint32_t>(4);
    const auto res = launch(r, "q", {{4, 1, 1}, {32, 1, 1}}, {PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault) << res.fault->describe("");
    EXPECT_EQ(r.read<uint32_t>(out, 4), (std::vector<uint32_t>{2, 2, 2, 2}));
  }
  PtxRunner r(req);
  const uint64_t out = r.buffer<uint32_t>(4);
  try {
    launch(r, "q", {{4, 1, 1}, {32, 1, 1}, {4, 1, 1}}, {PtxRunner::ptr(out)});
    ADD_FAILURE() << "a cluster shape other than .reqnctapercluster launched";
  } catch (const sim::LaunchError& e) {
    EXPECT_STREQ(e.what(),
                 "kernel 'q' is compiled for clusters of .reqnctapercluster 2,1,1; the launch "
                 "asks for 4,1,1 (CUDA_ERROR_INVALID_CLUSTER_SIZE)");
  }
  const std::string maxRank =
      std::string(kHeader) + ".visible .entry m()\n.maxclusterrank 2\n{\n  ret;\n}\n";
  EXPECT_EQ(launchError(maxRank, "m", {{4, 1, 1}, {32, 1, 1}, {4, 1, 1}}),
            "a cluster of 4 CTAs exceeds kernel 'm''s .maxclusterrank of 2 "
            "(CUDA_ERROR_INVALID_CLUSTER_SIZE)");
}

// ---- cooperative launches ------------------------------------------------------------------

// cg::this_grid().sync() as nvcc 13 emits it (cooperative_groups/details/sync.h): the workspace
// from %envreg1:%envreg2 (a trap when it is 0: not a cooperative launch), bar.sync, thread 0 of
// each CTA adds 1 (CTA 0: 0x80000000 - (n - 1)) with atom.add.release.gpu and spins with
// ld.acquire.gpu until the top bit flips, bar.sync. Before the sync each CTA writes ctaid + 1;
// after it each reads its right neighbour's.
const std::string kGridSync = std::string(kHeader) + R"(
.visible .entry gsync(.param .u64 buf, .param .u64 out)
{
  .reg .pred %p<6>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd8, [buf];
  ld.param.u64 %rd9, [out];
  mov.u32 %r1, %envreg2;
  cvt.u64.u32 %rd1, %r1;
  mov.u32 %r2, %envreg1;
  cvt.u64.u32 %rd2, %r2;
  bfi.b64 %rd3, %rd2, %rd1, 32, 32;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %nctaid.x;
  mov.u32 %r5, %tid.x;
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd8, %rd10;
  setp.ne.u32 %p5, %r5, 0;
  add.u32 %r14, %r3, 1;
  @!%p5 st.global.u32 [%rd11], %r14;
  setp.ne.s64 %p1, %rd3, 0;
  @%p1 bra HAVE;
  trap;
HAVE:
  barrier.sync 0;
  @%p5 bra AFTER;
  add.s64 %rd4, %rd3, 4;
  setp.eq.u32 %p2, %r3, 0;
  mov.u32 %r6, -2147483647;
  sub.s32 %r7, %r6, %r4;
  selp.b32 %r8, %r7, 1, %p2;
  atom.add.release.gpu.u32 %r9, [%rd4], %r8;
SPIN:
  ld.acquire.gpu.u32 %r10, [%rd4];
  xor.b32 %r11, %r10, %r9;
  setp.gt.s32 %p3, %r11, -1;
  @%p3 bra SPIN;
AFTER:
  barrier.sync 0;
  add.u32 %r12, %r3, 1;
  rem.u32 %r12, %r12, %r4;
  mul.wide.u32 %rd5, %r12, 4;
  add.s64 %rd6, %rd8, %rd5;
  ld.global.u32 %r13, [%rd6];
  add.s64 %rd7, %rd9, %rd10;
  @!%p5 st.global.u32 [%rd7], %r13;
  ret;
}
)";

TEST(Cooperative, GridSyncCompletesAndMakesEveryCtasWritesVisible) {
  PtxRunner r(kGridSync);
  constexpr uint32_t kCtas = 40;
  const uint64_t buf = r.buffer<uint32_t>(kCtas), out = r.buffer<uint32_t>(kCtas);
  GroupLaunch g{{kCtas, 1, 1}, {128, 1, 1}};
  g.cooperative = true;
  const auto res = launch(r, "gsync", g, {PtxRunner::ptr(buf), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, kCtas);
  for (uint32_t b = 0; b < kCtas; ++b) EXPECT_EQ(v[b], (b + 1) % kCtas + 1) << "cta " << b;
  EXPECT_EQ(r.gpu().memory().allocationCount(), 2u);  // the workspace is freed after the launch
}

TEST(Cooperative, GridSyncOutsideACooperativeLaunchTraps) {
  PtxRunner r(kGridSync);
  const uint64_t buf = r.buffer<uint32_t>(2), out = r.buffer<uint32_t>(2);
  const auto res =
      launch(r, "gsync", {{2, 1, 1}, {32, 1, 1}}, {PtxRunner::ptr(buf), PtxRunner::ptr(out)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Trap);
}

TEST(Cooperative, AGridThatDoesNotFitTheChipIsRefused) {
  // 1024-thread CTAs at 32 registers: 2 per SM, 264 on the chip.
  GroupLaunch fits{{264, 1, 1}, {1024, 1, 1}};
  fits.cooperative = true;
  EXPECT_EQ(launchError(kEmpty, "e", fits), "");
  GroupLaunch tooLarge{{265, 1, 1}, {1024, 1, 1}};
  tooLarge.cooperative = true;
  EXPECT_EQ(launchError(kEmpty, "e", tooLarge),
            "a cooperative grid of 265 CTAs does not fit the chip at once: 132 SMs x 2 CTAs per "
            "SM (32 registers per thread) = 264 (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)");
  // ptxas's register count decides: 64 registers per thread leave one 1024-thread CTA per SM.
  GroupLaunch heavy{{133, 1, 1}, {1024, 1, 1}};
  heavy.cooperative = true;
  heavy.registers = 64;
  EXPECT_NE(launchError(kEmpty, "e", heavy).find("132 SMs x 1 CTAs per SM"), std::string::npos);
}

TEST(Cooperative, ASpinThatNeverEndsMeetsTheWatchdog) {
  // CTA 1 never arrives (it exits first), so CTA 0 spins for ever: the watchdog stops it.
  std::string ptx = kGridSync;
  ptx.replace(ptx.find("HAVE:\n"), 6, "HAVE:\n  setp.eq.u32 %p4, %r3, 1;\n  @%p4 ret;\n");
  PtxRunner r(ptx);
  const uint64_t buf = r.buffer<uint32_t>(2), out = r.buffer<uint32_t>(2);
  GroupLaunch g{{2, 1, 1}, {32, 1, 1}};
  g.cooperative = true;
  g.options.instructionBudget = 100000;
  const auto res = launch(r, "gsync", g, {PtxRunner::ptr(buf), PtxRunner::ptr(out)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Watchdog);
  EXPECT_EQ(res.fault->cta.x, 0u);
}

}  // namespace
}  // namespace warpsim
