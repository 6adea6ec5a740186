// The tensor pipe's cost of an instruction (sim/timing/tensor_work.h) and a warp's cp.async
// groups (sim/timing/async_groups.h), cycle for cycle; then, in one-CTA kernels,
// cp.async.wait_group holding a warp until its copy has landed, and an mbarrier wait until a
// bulk copy's bytes have (Engine::bulkAccess).
#include <gtest/gtest.h>

#include <string>

#include "sim/timing/async_groups.h"
#include "sim/timing/tensor_work.h"
#include "tests/support/ptx_runner.h"
#include "tests/timing/one_cta_cycles.h"

namespace warpsim::sim::timing {
namespace {

// The tensor work of the kernel's one tensor instruction `line` (operands declared by `regs`).
TensorWork workOf(const std::string& regs, const std::string& line, const TimingConfig& c,
                  const char* target = "sm_90") {
  const std::string ptx = std::string(".version 8.0\n.target ") + target +
                          "\n.address_size 64\n.visible .entry k() {\n" + regs + line +
                          "\n  ret;\n}\n";
  test::PtxRunner r(ptx, "tensor_work.ptx");
  for (const isa::Inst& in : r.module().program.functions.at(0).code)
    if (in.cls == isa::InsnClass::Tensor) return tensorWork(in, c);
  ADD_FAILURE() << "no tensor instruction";
  return {};
}

const char* const kRegs =
    "  .reg .f32 %f<9>;\n  .reg .b32 %r<9>;\n  .reg .f64 %fd<5>;\n  .reg .b64 %rd<3>;\n"
    "  .reg .pred %p<2>;\n";

TEST(TensorWork, EachKindCostsItsSassInstructions) {
  const TimingConfig c;  // issue.tensor 6.5 a HMMA.16816, issue.tensor_fp64 16 a DMMA.884
  // One HMMA.16816 (hgemm_mma's mma).
  TensorWork w = workOf(kRegs,
                        "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
                        "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};",
                        c);
  EXPECT_DOUBLE_EQ(w.cycles, 6.5);
  EXPECT_FALSE(w.wgmma);
  // tf32 m16n8k8: one HMMA.1688, half the work at the same cycles.
  w = workOf(kRegs,
             "  mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1,%f2,%f3,%f4}, "
             "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};",
             c);
  EXPECT_DOUBLE_EQ(w.cycles, 6.5);
  // s8 m16n8k32: one IMMA.16832.
  w = workOf(kRegs,
             "  mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1,%r2,%r3,%r4}, "
             "{%r5,%r6,%r7,%r8}, {%r1,%r2}, {%r1,%r2,%r3,%r4};",
             c);
  EXPECT_DOUBLE_EQ(w.cycles, 6.5);
  // f64 m8n8k4: one DMMA.884.
  w = workOf(kRegs,
             "  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd1,%fd2}, {%fd3}, {%fd4}, "
             "{%fd1,%fd2};",
             c);
  EXPECT_DOUBLE_EQ(w.cycles, 16);
  // wmma m16n16k16: two HMMA.16816, each writing its own half of D.
  w = workOf(kRegs,
             "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
             "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, "
             "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};",
             c);
  EXPECT_DOUBLE_EQ(w.cycles, 13);
}

TEST(TensorWork, AWgmmaCostsItsWarpsQuarterAtItsOwnRate) {
  TimingConfig c;
  c.iiTensorWgmma = 4;
  // m64n8k16 f16 -> f32: 2 * 64 * 8 * 16 = 16384 operations, 4096 a warp: one HMMA's worth at
  // the wgmma rate; asynchronous.
  const std::string regs = kRegs;
  TensorWork w = workOf(regs,
                        "  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, "
                        "%rd1, %rd2, %p1, 1, 1, 0, 0;",
                        c, "sm_90a");
  EXPECT_DOUBLE_EQ(w.cycles, 4);
  EXPECT_TRUE(w.wgmma);
  // m64n16k16: twice that.
  w = workOf(regs,
             "  wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
             "{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
             c, "sm_90a");
  EXPECT_DOUBLE_EQ(w.cycles, 8);
}

TEST(AsyncGroups, AWaitHoldsForAllButTheNewestGroups) {
  AsyncGroups g;
  EXPECT_EQ(g.wait(0), 0u);  // nothing in flight
  g.copy(150);
  g.copy(100);  // a group lands with its last copy
  g.commit();
  g.copy(300);
  g.commit();
  g.copy(500);               // open: no wait_group waits for it
  EXPECT_EQ(g.wait(2), 0u);  // two closed groups may stay pending
  EXPECT_EQ(g.wait(1), 150u);
  EXPECT_EQ(g.wait(1), 0u);  // the first group is done with
  EXPECT_EQ(g.wait(0), 300u);
  g.commit();  // wait_all: the open group closes, then wait_group 0
  EXPECT_EQ(g.wait(0), 500u);
  g.commit();  // an empty group lands at once
  EXPECT_EQ(g.wait(0), 0u);
  g.copy(7);
  g.clear();
  g.commit();
  EXPECT_EQ(g.wait(0), 0u);
}

// One warp copies a word from global memory into shared memory by cp.async and reads it back
// after `wait`: with cp.async.wait_group 0 the read waits for the copy (its read's round trip
// and async.land_latency), without a wait it does not (and reads what the copy has not written).
std::string asyncCopyKernel(const char* wait) {
  return std::string(
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 buf) {\n"
             "  .shared .align 16 .b32 s[32];\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
             "  ld.param.u64 %rd1, [buf];\n"
             "  mov.u32 %r1, s;\n  cp.async.cg.shared.global [%r1], [%rd1], 16;\n"
             "  cp.async.commit_group;\n") +
         wait + "  ld.shared.u32 %r2, [%r1];\n  st.global.u32 [%rd1+64], %r2;\n  ret;\n}\n";
}

TEST(AsyncCopyTiming, WaitGroupHoldsTheWarpUntilTheCopyLands) {
  TimingConfig c;
  const uint64_t waited = test::oneCtaCycles(asyncCopyKernel("  cp.async.wait_group 0;\n"), c);
  const uint64_t unwaited = test::oneCtaCycles(asyncCopyKernel(""), c);
  // Unwaited, the kernel still ends after the copy's read drains (a cold miss), but its shared
  // load and store go on at once; waited, they follow the landing.
  EXPECT_GT(waited, unwaited);
  TimingConfig later = c;
  later.asyncLandLatency = c.asyncLandLatency + 100;
  EXPECT_EQ(test::oneCtaCycles(asyncCopyKernel("  cp.async.wait_group 0;\n"), later), waited + 100);
  EXPECT_EQ(test::oneCtaCycles(asyncCopyKernel(""), later), unwaited);
  // wait_all is commit_group and wait_group 0.
  EXPECT_EQ(test::oneCtaCycles(asyncCopyKernel("  cp.async.wait_all;\n"), c), waited);
}

// Thread 0 starts a bulk copy (TMA's non-tensor form) of the buffer's first 64 bytes into shared
// memory on an mbarrier; the warp waits on it (try_wait.parity), reads the copy and stores it.
constexpr const char* kBulkCopyKernel = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 buf) {
  .shared .align 16 .b8 s[64];
  .shared .align 8 .b64 bar;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [buf];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  mov.u32 %r2, bar;
  mov.u32 %r3, s;
  @%p1 bra WAIT;
  mbarrier.init.shared::cta.b64 [%r2], 1;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 64;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd1], 64, [%r2];
WAIT:
  bar.warp.sync -1;
LOOP:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], 0;
  @!%p2 bra LOOP;
  ld.shared.u32 %r4, [%r3];
  st.global.u32 [%rd1+64], %r4;
  ret;
}
)";

TEST(BulkCopyTiming, AnMbarrierWaitHoldsTheWarpUntilTheCopysBytesLand) {
  TimingConfig c;
  const uint64_t base = test::oneCtaCycles(kBulkCopyKernel, c);
  // The copy's requests start async.bulk_latency after its issue, its bytes land
  // async.land_latency after they are back: the wait, and the kernel, take that much longer.
  TimingConfig later = c;
  later.bulkLatency = c.bulkLatency + 100;
  EXPECT_EQ(test::oneCtaCycles(kBulkCopyKernel, later), base + 100);
  later = c;
  later.asyncLandLatency = c.asyncLandLatency + 50;
  EXPECT_EQ(test::oneCtaCycles(kBulkCopyKernel, later), base + 50);
}

TEST(BulkCopyTiming, TheCopyEngineTakesNoLoadStorePipeRequests) {
  // The chip's tma_tiles: l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum 0 (h100_newer.tsv).
  test::PtxRunner r(kBulkCopyKernel, "bulk_copy_timing.ptx");
  TimingModel model{TimingConfig{}};
  sim::LaunchOptions o;
  o.runner = &model;
  const auto res =
      r.launch("k", {1, 1, 1}, {32, 1, 1}, {test::PtxRunner::ptr(r.buffer<uint32_t>(32))}, o);
  ASSERT_FALSE(res.fault.has_value());
  ASSERT_TRUE(model.lastReport().has_value());
  EXPECT_EQ(model.lastReport()->mem.globalLoadRequests, 0u);
  EXPECT_EQ(model.lastReport()->mem.globalStoreRequests, 1u);  // the kernel's own st.global
}

}  // namespace
}  // namespace warpsim::sim::timing
