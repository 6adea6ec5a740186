// The predefined identifiers of PTX ISA 9.0: the constant WARP_SZ (as a mov source, as an
// immediate operand of any instruction, in an address offset) and every special register,
// read in a kernel run by the simulator. Plus a warpSize kernel as nvcc 13 compiles it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "isa/diagnostic.h"
#include "kernels/ptx_registry.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

const std::string kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// A kernel `k(out)` that stores each of `values` (32-bit registers %r1..) to out[0..]; `body`
// computes them.
std::string storeKernel(const std::string& body, int count) {
  std::string s = kHeader + ".visible .entry k(.param .u64 out)\n{\n" +
                  "  .reg .b32 %r<64>;\n  .reg .b64 %rd<16>;\n  .reg .pred %p<4>;\n" +
                  "  .shared .align 4 .b32 sh[40];\n" + "  ld.param.u64 %rd1, [out];\n" + body;
  for (int i = 1; i <= count; ++i)
    s += "  st.global.u32 [%rd1+" + std::to_string(4 * (i - 1)) + "], %r" + std::to_string(i) +
         ";\n";
  return s + "  ret;\n}\n";
}

// Runs storeKernel(body, count) and returns out[0..count).
std::vector<uint32_t> run(const std::string& body, int count, sim::Dim3 grid = {1, 1, 1},
                          uint32_t dynamicShared = 0) {
  PtxRunner r(storeKernel(body, count));
  const uint64_t out = r.buffer<uint32_t>(size_t(count));
  const auto res = r.launch("k", grid, {1, 1, 1}, {PtxRunner::ptr(out)}, {}, dynamicShared);
  EXPECT_FALSE(res.fault) << res.fault->describe("test.ptx");
  return r.read<uint32_t>(out, size_t(count));
}

TEST(Predefined, WarpSzIsAMovSourceAndAnImmediateEverywhere) {
  const auto v = run(R"(
  mov.u32 %r1, WARP_SZ;
  mov.u32 %r9, 77;
  add.u32 %r2, %r9, WARP_SZ;
  rem.u32 %r3, %r9, WARP_SZ;
  div.u32 %r4, %r9, WARP_SZ;
  setp.eq.u32 %p1, %r1, WARP_SZ;
  selp.u32 %r5, 1, 0, %p1;
  mad.lo.u32 %r6, %r9, WARP_SZ, WARP_SZ;
  mov.u32 %r10, sh;
  st.shared.u32 [%r10+WARP_SZ], %r9;
  ld.shared.u32 %r7, [%r10+32];
  cvt.u64.u32 %rd2, %r9;
  add.u64 %rd3, %rd2, WARP_SZ;
  cvt.u32.u64 %r8, %rd3;
)",
                     8);
  EXPECT_EQ(v, (std::vector<uint32_t>{32, 109, 13, 2, 1, 77 * 32 + 32, 77, 109}));
}

TEST(Predefined, ClusterRegistersDescribeAClusterOfOneCta) {
  const auto v = run(R"(
  mov.u32 %r1, %cluster_ctaid.x;
  mov.u32 %r2, %cluster_ctaid.z;
  mov.u32 %r3, %cluster_nctaid.x;
  mov.u32 %r4, %cluster_nctaid.y;
  mov.u32 %r5, %clusterid.x;
  mov.u32 %r6, %clusterid.y;
  mov.u32 %r7, %nclusterid.x;
  mov.u32 %r8, %nclusterid.z;
  mov.pred %p1, %is_explicit_cluster;
  selp.u32 %r9, 1, 0, %p1;
  mov.u32 %r10, %cluster_ctarank;
  mov.u32 %r11, %cluster_nctarank;
  mov.u32 %r20, %ctaid.x;
  mov.u32 %r21, %ctaid.y;
  setp.eq.u32 %p2, %r20, 2;
  setp.eq.and.u32 %p2, %r21, 1, %p2;
  @!%p2 ret;
)",
                     11, {3, 2, 1});
  // The values of CTA (2,1,0) in a 3x2x1 grid (the other CTAs return early).
  EXPECT_EQ(v, (std::vector<uint32_t>{0, 0, 1, 1, 2, 1, 3, 1, 0, 0, 1}));
}

TEST(Predefined, ReservedSharedMemoryOffsets) {
  const auto v = run(R"(
  mov.u32 %r1, %reserved_smem_offset_begin;
  mov.u32 %r2, %reserved_smem_offset_end;
  mov.u32 %r3, %reserved_smem_offset_cap;
  mov.u32 %r4, %reserved_smem_offset_0;
  mov.u32 %r5, %reserved_smem_offset_1;
)",
                     5);
  // As the H200 gives them (tests/recorded/triton/cases.txt, the probe line).
  EXPECT_EQ(v, (std::vector<uint32_t>{0, 288, 1024, 0, 0}));
}

TEST(Predefined, SharedMemorySizesCountStaticDynamicAndReserved) {
  const auto v = run(R"(
  mov.u32 %r1, %total_smem_size;
  mov.u32 %r2, %dynamic_smem_size;
  mov.u32 %r3, %aggr_smem_size;
)",
                     3, {1, 1, 1}, 96);
  EXPECT_EQ(v[1], 96u);
  EXPECT_EQ(v[0], 160u + 96u);
  EXPECT_EQ(v[2], v[0] + 1024u);
}

TEST(Predefined, CountersGraphAndEnvironmentRegisters) {
  const auto v = run(R"(
  mov.u32 %r1, %pm0;
  mov.u32 %r2, %pm7;
  mov.u64 %rd2, %pm3_64;
  cvt.u32.u64 %r3, %rd2;
  mov.u64 %rd3, %current_graph_exec;
  cvt.u32.u64 %r4, %rd3;
  mov.u32 %r5, %envreg31;
  mov.u32 %r6, %clock_hi;
  mov.u64 %rd4, %clock64;
  shr.u64 %rd5, %rd4, 32;
  cvt.u32.u64 %r7, %rd5;
  sub.u32 %r8, %r6, %r7;
)",
                     8);
  EXPECT_EQ(v[0], 0u);
  EXPECT_EQ(v[1], 0u);
  EXPECT_EQ(v[2], 0u);
  EXPECT_EQ(v[3], 0u);
  EXPECT_EQ(v[4], 0u);
  EXPECT_EQ(v[7], 0u);  // %clock_hi is the upper half of %clock64
}

TEST(Predefined, NamesOutsideTheIsaAreUnknownRegisters) {
  for (const char* name : {"%pm8", "%envreg32", "%pm0_32", "%reserved_smem_offset_2", "%clockhi"}) {
    SCOPED_TRACE(name);
    const std::string ptx = storeKernel(std::string("  mov.u32 %r1, ") + name + ";\n", 1);
    try {
      PtxRunner r(ptx);
      r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(0)});
      ADD_FAILURE() << "launched";
    } catch (const isa::PtxError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("unknown register '") + name + "'"),
                std::string::npos)
          << e.what();
    }
  }
}

// nvcc 13 (-O3 -arch=sm_90) compiles `warpSize` to `mov.u32 %r, WARP_SZ;`: the suite kernel
// reduce_warpsize is that kernel; here its block sums over a ragged last block.
TEST(Predefined, NvccWarpSizeKernelRuns) {
  const std::string ptx(kernels::ptxFor("reduce_warpsize"));
  ASSERT_NE(ptx.find("WARP_SZ;"), std::string::npos);
  PtxRunner r(ptx, "reduce_warpsize.ptx");
  constexpr uint32_t n = 300;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = 0x9E3779B9u * (i + 1);
  const uint64_t a = r.buffer<uint32_t>(n, in), sums = r.buffer<uint32_t>(2);
  const auto res = r.launch("reduce_warpsize_u32", {2, 1, 1}, {256, 1, 1},
                            {PtxRunner::ptr(a), PtxRunner::ptr(sums), PtxRunner::u32(n)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  uint32_t expect[2] = {0, 0};
  for (uint32_t i = 0; i < n; ++i) expect[i / 256] += in[i];
  EXPECT_EQ(r.read<uint32_t>(sums, 2), (std::vector<uint32_t>{expect[0], expect[1]}));
}

// %tid.x/y/z of every thread of three blocks: 5 x 3 x 4 (60 threads: warps that start mid-row
// and mid-plane, a partial last warp), 40 x 3 x 2 (the first warp of each row inside it, the
// next across a row's end) and 64 x 2 x 2 (every warp inside a row, y and z not zero): the CTA
// fills them per warp, counting up with carries or, where a warp lies inside one row, as x
// plus the lane.
TEST(Predefined, ThreadIndexOfEveryThreadOfAThreeDimensionalBlock) {
  const std::string ptx = kHeader + R"(
.visible .entry k(.param .u64 out, .param .u32 nx, .param .u32 ny)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [nx];
  ld.param.u32 %r6, [ny];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mad.lo.u32 %r4, %r3, %r6, %r2;
  mad.lo.u32 %r4, %r4, %r5, %r1;
  mul.wide.u32 %rd2, %r4, 12;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  st.global.u32 [%rd3+4], %r2;
  st.global.u32 [%rd3+8], %r3;
  ret;
}
)";
  for (const sim::Dim3 b : {sim::Dim3{5, 3, 4}, sim::Dim3{40, 3, 2}, sim::Dim3{64, 2, 2}}) {
    PtxRunner r(ptx);
    const uint32_t n = b.x * b.y * b.z;
    const uint64_t out = r.buffer<uint32_t>(3 * n);
    const auto res = r.launch("k", {1, 1, 1}, {b.x, b.y, b.z},
                              {PtxRunner::ptr(out), PtxRunner::u32(b.x), PtxRunner::u32(b.y)});
    ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
    const std::vector<uint32_t> v = r.read<uint32_t>(out, 3 * n);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(v[3 * i], i % b.x) << b.x << " " << i;
      EXPECT_EQ(v[3 * i + 1], i / b.x % b.y) << b.x << " " << i;
      EXPECT_EQ(v[3 * i + 2], i / (b.x * b.y)) << b.x << " " << i;
    }
  }
}

}  // namespace
}  // namespace warpsim::test
