// The memory model as small PTX programs: the global, shared, local, param and const spaces,
// generic addressing through cvta (the shared, local and param windows), module-scope variables
// with initializers, extern dynamic shared memory, demoted function-scope .shared, local arrays
// (__local_depot) and their per-thread isolation; out-of-bounds, read-only and null-pointer
// accesses as kernel faults with their messages; and the launch limits (sim::LaunchError).
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// ---- module-scope variables and their initializers --------------------------------------------

const std::string kInit = std::string(kHeader) + R"(
.global .align 4 .u32 gval = 7;
.global .align 4 .s32 gneg[2] = {-1, -2147483648};
.global .align 4 .u32 garr[4] = {1, 2, 3};
.global .align 1 .b8 gbytes[5] = {1, 2, 3};
.global .align 4 .f32 gf[3] = {0f3FC00000, 2.5, -0.1};
.global .align 8 .f64 gd[2] = {0d3FF8000000000000, -2.25};
.global .align 8 .u64 gptr = gval;
.global .align 8 .u64 gptrs[2] = {garr+8, generic(gval)};
.global .align 2 .u16 gh = 0xBEEF;
.const .align 4 .u32 ctab[4] = {10, 20, 30, 40};
.const .align 8 .u64 cptr = gval;

.visible .entry init(.param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<3>;
  .reg .b16 %rs<2>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  ld.global.u32 %r1, [gval];
  st.global.u32 [%rd1], %r1;
  ld.global.s32 %r2, [gneg];
  st.global.u32 [%rd1+4], %r2;
  ld.global.s32 %r3, [gneg+4];
  st.global.u32 [%rd1+8], %r3;
  ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [garr];
  st.global.v4.u32 [%rd1+16], {%r4, %r5, %r6, %r7};
  ld.global.u8 %r8, [gbytes+2];
  st.global.u32 [%rd1+32], %r8;
  ld.global.u8 %r9, [gbytes+4];
  st.global.u32 [%rd1+36], %r9;
  ld.global.f32 %f1, [gf];
  ld.global.f32 %f2, [gf+4];
  ld.global.f32 %f3, [gf+8];
  st.global.f32 [%rd1+40], %f1;
  st.global.f32 [%rd1+44], %f2;
  st.global.f32 [%rd1+48], %f3;
  ld.global.f64 %fd1, [gd];
  ld.global.f64 %fd2, [gd+8];
  st.global.f64 [%rd1+56], %fd1;
  st.global.f64 [%rd1+64], %fd2;
  mov.u64 %rd2, gval;
  ld.global.u64 %rd3, [gptr];
  setp.eq.u64 %p1, %rd2, %rd3;
  selp.u32 %r10, 1, 0, %p1;
  st.global.u32 [%rd1+72], %r10;
  ld.global.u32 %r11, [%rd3];
  st.global.u32 [%rd1+76], %r11;
  ld.global.u64 %rd4, [gptrs];
  ld.u32 %r12, [%rd4];
  st.global.u32 [%rd1+80], %r12;
  ld.global.u64 %rd5, [gptrs+8];
  setp.eq.u64 %p2, %rd5, %rd2;
  selp.u32 %r13, 1, 0, %p2;
  st.global.u32 [%rd1+84], %r13;
  ld.global.u16 %rs1, [gh];
  cvt.u32.u16 %r14, %rs1;
  st.global.u32 [%rd1+88], %r14;
  ld.const.u32 %r15, [ctab+12];
  st.global.u32 [%rd1+92], %r15;
  ld.const.u64 %rd6, [cptr];
  setp.eq.u64 %p3, %rd6, %rd2;
  selp.u32 %r16, 1, 0, %p3;
  st.global.u32 [%rd1+96], %r16;
  mov.u64 %rd7, ctab;
  cvta.const.u64 %rd8, %rd7;
  ld.u32 %r17, [%rd8+8];
  st.global.u32 [%rd1+100], %r17;
  isspacep.const %p1, %rd8;
  selp.u32 %r18, 1, 0, %p1;
  st.global.u32 [%rd1+104], %r18;
  isspacep.shared %p1, %rd8;
  selp.u32 %r19, 1, 0, %p1;
  st.global.u32 [%rd1+108], %r19;
  ret;
}
)";

TEST(MemoryModel, ModuleVariablesStartWithTheirInitializers) {
  PtxRunner r(kInit);
  const uint64_t out = r.buffer<uint32_t>(28, std::vector<uint32_t>(28, 0xAAAAAAAAu));
  const auto res = r.launch("init", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 28);
  EXPECT_EQ(v[0], 7u);
  EXPECT_EQ(v[1], 0xFFFFFFFFu);
  EXPECT_EQ(v[2], 0x80000000u);
  EXPECT_EQ(v[3], 0xAAAAAAAAu);  // not written
  EXPECT_EQ(v[4], 1u);           // garr: the elements an initializer omits are zero
  EXPECT_EQ(v[5], 2u);
  EXPECT_EQ(v[6], 3u);
  EXPECT_EQ(v[7], 0u);
  EXPECT_EQ(v[8], 3u);            // gbytes[2]
  EXPECT_EQ(v[9], 0u);            // gbytes[4]
  EXPECT_EQ(v[10], 0x3FC00000u);  // 1.5 written in hex
  EXPECT_EQ(v[11], 0x40200000u);  // 2.5: a decimal literal (a double) rounded to f32
  EXPECT_EQ(v[12], std::bit_cast<uint32_t>(-0.1f));                 // 0xBDCCCCCD, round to nearest
  EXPECT_EQ(v[14] | uint64_t(v[15]) << 32, 0x3FF8000000000000ull);  // 1.5
  EXPECT_EQ(v[16] | uint64_t(v[17]) << 32, std::bit_cast<uint64_t>(-2.25));
  EXPECT_EQ(v[18], 1u);  // gptr holds gval's address
  EXPECT_EQ(v[19], 7u);  // ... and reading through it gives gval
  EXPECT_EQ(v[20], 3u);  // gptrs[0] = garr + 8 -> garr[2]
  EXPECT_EQ(v[21], 1u);  // gptrs[1] = generic(gval) = gval's address
  EXPECT_EQ(v[22], 0xBEEFu);
  EXPECT_EQ(v[23], 40u);  // ctab[3]
  EXPECT_EQ(v[24], 1u);   // cptr (in .const) holds gval's address
  EXPECT_EQ(v[25], 30u);  // ctab[2] through a generic pointer (cvta.const)
  EXPECT_EQ(v[26], 1u);   // isspacep.const of it
  EXPECT_EQ(v[27], 0u);   // isspacep.shared of it
}

// ---- generic addressing: the shared and local windows ------------------------------------------

// Per thread g (64 per CTA, 2 CTAs), out[g*8 + k]:
//  0: sh[(tid+1) % 64] read through a generic pointer (cvta.shared), stored through a generic one
//  1: isspacep.shared of that pointer  2: cvta.to.shared gives back the shared address
//  3: loc[2] written through cvta.local's generic pointer, read with ld.local: g + 1000
//  4: isspacep.local of the local pointer  5: isspacep.global of it  6: isspacep.global of out
//  7: cvta.to.global of out is the identity
const std::string kWindows = std::string(kHeader) + R"(
.visible .entry win(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .reg .pred %p<4>;
  .shared .align 4 .u32 sh[64];
  .local .align 4 .u32 loc[4];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 64, %r1;
  mul.wide.u32 %rd2, %r3, 32;
  add.s64 %rd3, %rd1, %rd2;
  mul.lo.u32 %r4, %r1, 3;
  add.u32 %r4, %r4, %r2;
  shl.b32 %r5, %r1, 2;
  mov.u32 %r6, sh;
  add.u32 %r7, %r6, %r5;
  st.shared.u32 [%r7], %r4;
  bar.sync 0;
  add.u32 %r8, %r1, 1;
  and.b32 %r8, %r8, 63;
  shl.b32 %r8, %r8, 2;
  mov.u64 %rd4, sh;
  cvta.shared.u64 %rd5, %rd4;
  cvt.u64.u32 %rd6, %r8;
  add.s64 %rd7, %rd5, %rd6;
  ld.u32 %r9, [%rd7];
  st.u32 [%rd3], %r9;
  isspacep.shared %p1, %rd7;
  selp.u32 %r10, 1, 0, %p1;
  st.u32 [%rd3+4], %r10;
  cvta.to.shared.u64 %rd8, %rd7;
  add.s64 %rd9, %rd4, %rd6;
  setp.eq.u64 %p1, %rd8, %rd9;
  selp.u32 %r10, 1, 0, %p1;
  st.u32 [%rd3+8], %r10;
  mov.u64 %rd10, loc;
  cvta.local.u64 %rd11, %rd10;
  add.u32 %r11, %r3, 1000;
  st.u32 [%rd11+8], %r11;
  bar.sync 0;
  ld.local.u32 %r12, [loc+8];
  st.u32 [%rd3+12], %r12;
  isspacep.local %p2, %rd11;
  selp.u32 %r13, 1, 0, %p2;
  st.u32 [%rd3+16], %r13;
  isspacep.global %p3, %rd11;
  selp.u32 %r13, 1, 0, %p3;
  st.u32 [%rd3+20], %r13;
  isspacep.global %p3, %rd3;
  selp.u32 %r13, 1, 0, %p3;
  st.u32 [%rd3+24], %r13;
  cvta.to.global.u64 %rd12, %rd3;
  setp.eq.u64 %p3, %rd12, %rd3;
  selp.u32 %r13, 1, 0, %p3;
  st.global.u32 [%rd12+28], %r13;
  ret;
}
)";

TEST(MemoryModel, GenericAddressesReachSharedAndLocalThroughTheirWindows) {
  PtxRunner r(kWindows);
  const uint64_t out = r.buffer<uint32_t>(128 * 8);
  const auto res = r.launch("win", {2, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 128 * 8);
  for (uint32_t cta = 0; cta < 2; ++cta)
    for (uint32_t t = 0; t < 64; ++t) {
      const uint32_t g = cta * 64 + t;
      const uint32_t* o = &v[g * 8];
      EXPECT_EQ(o[0], (t + 1) % 64 * 3 + cta) << g;  // each CTA has its own shared memory
      EXPECT_EQ(o[1], 1u) << g;
      EXPECT_EQ(o[2], 1u) << g;
      EXPECT_EQ(o[3], g + 1000) << g;  // each thread has its own local memory
      EXPECT_EQ(o[4], 1u) << g;
      EXPECT_EQ(o[5], 0u) << g;
      EXPECT_EQ(o[6], 1u) << g;
      EXPECT_EQ(o[7], 1u) << g;
    }
  // Shared accesses count as shared requests, the generic one included; the global stores as
  // global requests.
  EXPECT_EQ(res.stats.sharedRequests, 2u * 2 * 2);  // 2 per warp x 2 warps x 2 CTAs
  EXPECT_GT(res.stats.globalRequests, 0u);
}

// The CTA's shared memory is part of its cluster's (a cluster of one here): cvta.shared::cluster
// gives generic addresses in the same window. out[2t] = s[t ^ 1], out[2t + 1] = isspacep.
const std::string kCluster = std::string(kHeader) + R"(
.visible .entry cluster(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  .shared .align 4 .u32 s[32];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r3, %r3, %r2;
  add.u32 %r4, %r1, 500;
  st.shared::cta.u32 [%r3], %r4;
  bar.sync 0;
  mov.u64 %rd2, s;
  cvta.shared::cluster.u64 %rd3, %rd2;
  xor.b32 %r5, %r2, 4;
  cvt.u64.u32 %rd4, %r5;
  add.s64 %rd5, %rd3, %rd4;
  ld.u32 %r6, [%rd5];
  isspacep.shared::cluster %p1, %rd5;
  selp.u32 %r7, 1, 0, %p1;
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd7, %rd1, %rd6;
  st.global.v2.u32 [%rd7], {%r6, %r7};
  ret;
}
)";

TEST(MemoryModel, SharedClusterAddressesOfTheCtaAreItsSharedMemory) {
  PtxRunner r(kCluster);
  const uint64_t out = r.buffer<uint32_t>(64);
  const auto res = r.launch("cluster", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 64);
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[2 * t], (t ^ 1) + 500) << t;
    EXPECT_EQ(v[2 * t + 1], 1u) << t;
  }
}

// ---- extern dynamic shared memory, function-scope (demoted) .shared ----------------------------

// out[t*3 + 0] = dyn[n-1-t] (written as t*t by thread t), out[t*3 + 1] = %dynamic_smem_size,
// out[t*3 + 2] = stat[t % 4] (0xA0 + t % 4, a static .shared before the dynamic area).
const std::string kDynamic = std::string(kHeader) + R"(
.extern .shared .align 16 .b8 dyn[];
.visible .entry dynk(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  .shared .align 4 .u32 stat[4];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  and.b32 %r3, %r2, 3;
  shl.b32 %r4, %r3, 2;
  mov.u32 %r5, stat;
  add.u32 %r5, %r5, %r4;
  setp.lt.u32 %p1, %r2, 4;
  add.u32 %r6, %r3, 160;
  @%p1 st.shared.u32 [%r5], %r6;
  mov.u32 %r7, dyn;
  shl.b32 %r8, %r2, 2;
  add.u32 %r9, %r7, %r8;
  mul.lo.u32 %r10, %r2, %r2;
  st.shared.u32 [%r9], %r10;
  bar.sync 0;
  sub.u32 %r11, %r1, 1;
  sub.u32 %r11, %r11, %r2;
  shl.b32 %r11, %r11, 2;
  add.u32 %r11, %r7, %r11;
  ld.shared.u32 %r12, [%r11];
  mul.lo.u32 %r13, %r2, 12;
  cvt.u64.u32 %rd2, %r13;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r12;
  mov.u32 %r14, %dynamic_smem_size;
  st.global.u32 [%rd3+4], %r14;
  ld.shared.u32 %r15, [%r5];
  st.global.u32 [%rd3+8], %r15;
  ret;
}
)";

TEST(MemoryModel, ExternSharedTakesTheLaunchsDynamicBytesAfterTheStaticOnes) {
  PtxRunner r(kDynamic);
  const uint64_t out = r.buffer<uint32_t>(64 * 3);
  const auto res =
      r.launch("dynk", {2, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out), PtxRunner::u32(64)}, {}, 256);
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 64 * 3);
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(v[t * 3], (63 - t) * (63 - t)) << t;
    EXPECT_EQ(v[t * 3 + 1], 256u) << t;
    EXPECT_EQ(v[t * 3 + 2], 0xA0u + t % 4) << t;  // the dynamic area does not overlap it
  }
  // The static shared memory is 16 bytes (stat, then dyn at the 16-byte boundary): with 128
  // dynamic bytes thread 32's store lands at 16 + 128 = 0x90, just outside.
  const auto small =
      r.launch("dynk", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out), PtxRunner::u32(64)}, {}, 128);
  ASSERT_TRUE(small.fault);
  EXPECT_EQ(small.fault->kind, sim::FaultKind::OutOfBounds);
  EXPECT_EQ(small.fault->message,
            "store of 4 bytes at 0x90 is outside the CTA's 144 bytes of shared memory");
  EXPECT_EQ(small.fault->thread.x, 32u);
  EXPECT_EQ(small.fault->instruction, "st.shared.u32");
  // Without dynamic bytes, the first thread's store to dyn already faults.
  const auto none =
      r.launch("dynk", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out), PtxRunner::u32(64)});
  ASSERT_TRUE(none.fault);
  EXPECT_EQ(none.fault->message,
            "store of 4 bytes at 0x10 is outside the CTA's 16 bytes of shared memory");
  EXPECT_EQ(none.fault->thread.x, 0u);
}

// Module-scope .shared comes first; an entry's own (function-scope, "demoted") .shared follows
// it. out[t] = own[(t+1) % 4] + modsh[t % 2], out[4] = own's address, out[5] = modsh's.
const std::string kDemoted = std::string(kHeader) + R"(
.shared .align 4 .u32 modsh[2];
.visible .entry e1(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  .shared .align 4 .u32 own[4];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, own;
  add.u32 %r4, %r3, %r2;
  add.u32 %r5, %r1, 10;
  st.shared.u32 [%r4], %r5;
  setp.lt.u32 %p1, %r1, 2;
  mov.u32 %r6, modsh;
  add.u32 %r7, %r6, %r2;
  add.u32 %r8, %r1, 20;
  @%p1 st.shared.u32 [%r7], %r8;
  bar.sync 0;
  add.u32 %r9, %r1, 1;
  and.b32 %r9, %r9, 3;
  shl.b32 %r9, %r9, 2;
  add.u32 %r9, %r3, %r9;
  ld.shared.u32 %r10, [%r9];
  and.b32 %r11, %r1, 1;
  shl.b32 %r11, %r11, 2;
  add.u32 %r11, %r6, %r11;
  ld.shared.u32 %r11, [%r11];
  add.u32 %r10, %r10, %r11;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r10;
  setp.eq.u32 %p2, %r1, 0;
  @%p2 st.global.u32 [%rd1+16], %r3;
  @%p2 st.global.u32 [%rd1+20], %r6;
  ret;
}
.visible .entry e2(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  .shared .align 8 .u64 own2[3];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, own2;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

TEST(MemoryModel, FunctionScopeSharedFollowsTheModulesAndEntriesDoNotShareIt) {
  PtxRunner r(kDemoted);
  const uint64_t out = r.buffer<uint32_t>(6);
  const auto res = r.launch("e1", {1, 1, 1}, {4, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 6);
  for (uint32_t t = 0; t < 4; ++t) EXPECT_EQ(v[t], 10 + (t + 1) % 4 + 20 + t % 2) << t;
  EXPECT_EQ(v[4], 8u);  // own after modsh's 8 bytes
  EXPECT_EQ(v[5], 0u);
  // e2's own2 (8-byte aligned) also starts after the module's 8 bytes: only one entry runs.
  const auto res2 = r.launch("e2", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res2.fault);
  EXPECT_EQ(r.read<uint32_t>(out, 1)[0], 8u);
  const isa::Program& p = r.module().program;
  EXPECT_EQ(p.functions[size_t(p.findEntry("e1"))].sharedBytes, 24u);
  EXPECT_EQ(p.functions[size_t(p.findEntry("e2"))].sharedBytes, 32u);
}

// ---- local memory arrays: __local_depot, one per thread ----------------------------------------

// Each thread fills a[16] (a[i] = tid*100 + i) through the generic %SP, then reads a[(7 tid) % 16]
// and the sum of a[] through the .local %SPL: out[2g] and out[2g+1].
const std::string kDepot = std::string(kHeader) + R"(
.visible .entry depot(.param .u64 out)
{
  .local .align 4 .b8 __local_depot0[64];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  .reg .pred %p<3>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
FILL:
  mad.lo.u32 %r3, %r1, 100, %r2;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %SP, %rd2;
  st.u32 [%rd3], %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 16;
  @%p1 bra FILL;
  bar.sync 0;
  mul.lo.u32 %r4, %r1, 7;
  and.b32 %r4, %r4, 15;
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd5, %SPL, %rd4;
  ld.local.u32 %r5, [%rd5];
  mov.u32 %r6, 0;
  mov.u32 %r7, 0;
SUM:
  mul.wide.u32 %rd6, %r7, 4;
  add.s64 %rd7, %SPL, %rd6;
  ld.local.u32 %r8, [%rd7];
  add.u32 %r6, %r6, %r8;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p2, %r7, 16;
  @%p2 bra SUM;
  mov.u32 %r9, %ctaid.x;
  mad.lo.u32 %r10, %r9, 64, %r1;
  mul.wide.u32 %rd8, %r10, 8;
  add.s64 %rd9, %rd1, %rd8;
  st.global.v2.u32 [%rd9], {%r5, %r6};
  ret;
}
)";

TEST(MemoryModel, LocalArraysArePrivateToEachThread) {
  PtxRunner r(kDepot);
  const uint64_t out = r.buffer<uint32_t>(256);
  const auto res = r.launch("depot", {2, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(r.module().program.localBytesPerThread, 64u);
  const auto v = r.read<uint32_t>(out, 256);
  for (uint32_t g = 0; g < 128; ++g) {
    const uint32_t t = g % 64;
    EXPECT_EQ(v[2 * g], t * 100 + (7 * t) % 16) << g;
    EXPECT_EQ(v[2 * g + 1], 1600 * t + 120) << g;
  }
  EXPECT_EQ(res.stats.warpInsns[size_t(isa::InsnClass::LoadLocal)], 4u * 17);
}

// ---- kernel faults: out of bounds, read-only, null pointers ------------------------------------

// One kernel per faulting access, selected by name; the fault's message is the contract.
const std::string kFaults = std::string(kHeader) + R"(
.const .align 4 .u32 ctab[4] = {1, 2, 3, 4};
.visible .entry shared_oob()
{
  .reg .b32 %r<4>;
  .shared .align 4 .u32 s[32];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1;
  ret;
}
.visible .entry shared_negative()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  .shared .align 4 .u32 s[32];
  mov.u64 %rd1, s;
  ld.shared.u32 %r1, [%rd1+-4];
  ret;
}
.visible .entry shared_negative_store()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  .shared .align 4 .u32 s[32];
  mov.u64 %rd1, s;
  st.shared.u32 [%rd1+-8], 5;
  ret;
}
.visible .entry shared_generic_oob()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  .shared .align 4 .u32 s[32];
  mov.u64 %rd1, s;
  cvta.shared.u64 %rd2, %rd1;
  st.u32 [%rd2+4096], 1;
  ret;
}
.visible .entry const_store_generic()
{
  .reg .b64 %rd<3>;
  mov.u64 %rd1, ctab;
  cvta.const.u64 %rd2, %rd1;
  st.u32 [%rd2+4], 9;
  ret;
}
.visible .entry const_store_global()
{
  st.global.u32 [ctab+8], 9;
  ret;
}
.visible .entry null_load(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
  ret;
}
.visible .entry null_store(.param .u64 p)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  st.u32 [%rd1+8], 1;
  ret;
}
.visible .entry straddle(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1+4];
  ret;
}
.visible .entry param_store(.param .u64 p)
{
  st.param.u32 [p], 1;
  ret;
}
)";

struct FaultCase {
  const char* entry;
  sim::FaultKind kind;
  std::string message;
  const char* instruction;
};

TEST(MemoryModel, BadAccessesAreKernelFaultsWithTheirMessages) {
  PtxRunner r(kFaults);
  const uint64_t buf = r.buffer<uint8_t>(6);
  const auto oob = sim::FaultKind::OutOfBounds;
  const std::vector<FaultCase> cases = {
      {"shared_oob", oob,
       "store of 4 bytes at 0x80 is outside the CTA's 128 bytes of shared memory", "st.shared.u32"},
      // A 64-bit base just below zero: never wraps around into the shared memory.
      {"shared_negative", oob,
       "load of 4 bytes at 0xfffffffffffffffc is outside the CTA's 128 bytes of shared memory",
       "ld.shared.u32"},
      {"shared_negative_store", oob,
       "store of 4 bytes at 0xfffffffffffffff8 is outside the CTA's 128 bytes of shared memory",
       "st.shared.u32"},
      {"shared_generic_oob", oob,
       "store of 4 bytes at 0x1000 is outside the CTA's 128 bytes of shared memory", "st.u32"},
      {"null_load", oob, "load of 4 bytes at 0x0 (a null pointer)", "ld.global.u32"},
      {"null_store", oob, "store of 4 bytes at 0x8 (a null pointer)", "st.u32"},
      {"param_store", oob,
       "store of 4 bytes at 0x0 is in the kernel's parameters, which are read-only",
       "st.param.u32"},
  };
  for (const FaultCase& c : cases) {
    const bool takesPointer =
        std::string(c.entry).rfind("null", 0) == 0 || std::string(c.entry) == "param_store";
    const auto res = r.launch(c.entry, {1, 1, 1}, {64, 1, 1},
                              takesPointer ? std::vector<std::vector<uint8_t>>{PtxRunner::ptr(0)}
                                           : std::vector<std::vector<uint8_t>>{});
    ASSERT_TRUE(res.fault) << c.entry;
    EXPECT_EQ(res.fault->kind, c.kind) << c.entry;
    EXPECT_EQ(res.fault->message, c.message) << c.entry;
    EXPECT_EQ(res.fault->instruction, c.instruction) << c.entry;
    EXPECT_TRUE(res.fault->hasAddress) << c.entry;
  }
  // .const data is read-only, through a generic pointer or a .global access alike.
  for (const char* entry : {"const_store_generic", "const_store_global"}) {
    const auto res = r.launch(entry, {1, 1, 1}, {32, 1, 1}, {});
    ASSERT_TRUE(res.fault) << entry;
    EXPECT_EQ(res.fault->kind, oob);
    EXPECT_NE(res.fault->message.find("is in read-only memory (.const ctab)"), std::string::npos)
        << res.fault->message;
    EXPECT_EQ(res.fault->thread.x, 0u);
  }
  // A 4-byte load whose last 2 bytes lie past a 6-byte allocation.
  const auto st = r.launch("straddle", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(buf)});
  ASSERT_TRUE(st.fault);
  char want[160];
  std::snprintf(want, sizeof want,
                "load of 4 bytes at 0x%llx runs past the end of test buffer (6 bytes at 0x%llx)",
                static_cast<unsigned long long>(buf + 4), static_cast<unsigned long long>(buf));
  EXPECT_EQ(st.fault->message, want);
  EXPECT_EQ(st.fault->address, buf + 4);
  // Just past the end of an 8-byte buffer, in the unmapped gap after it.
  const uint64_t buf8 = r.buffer<uint32_t>(2);
  const auto past = r.launch("straddle", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(buf8 + 4)});
  ASSERT_TRUE(past.fault);
  std::snprintf(
      want, sizeof want,
      "load of 4 bytes at 0x%llx is 0 bytes past the end of test buffer (8 bytes at 0x%llx)",
      static_cast<unsigned long long>(buf8 + 8), static_cast<unsigned long long>(buf8));
  EXPECT_EQ(past.fault->message, want);
}

// A thread's local memory holds every function's .local frame side by side (16 bytes here: one
// kernel per module); an access outside it faults, whichever way it is addressed.
TEST(MemoryModel, LocalAccessesOutsideTheThreadsMemoryFault) {
  struct Case {
    const char* body;
    std::string message;
    const char* instruction;
  };
  const Case cases[] = {
      {"st.local.u32 [loc], 1;\n  ld.local.u32 %r1, [loc+16];",
       "load of 4 bytes at 0x10 is outside the thread's 16 bytes of local memory", "ld.local.u32"},
      // A 64-bit base just below zero: never wraps around into the thread's memory.
      {"mov.u64 %rd1, loc;\n  st.local.u32 [%rd1+-4], 1;",
       "store of 4 bytes at 0xfffffffffffffffc is outside the thread's 16 bytes of local memory",
       "st.local.u32"},
      {"mov.u64 %rd1, loc;\n  cvta.local.u64 %rd2, %rd1;\n  ld.u32 %r1, [%rd2+64];",
       "load of 4 bytes at 0x40 is outside the thread's 16 bytes of local memory", "ld.u32"},
  };
  for (const Case& c : cases) {
    PtxRunner r(std::string(kHeader) +
                ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
                "  .local .align 4 .u32 loc[4];\n  " +
                c.body + "\n  ret;\n}\n");
    EXPECT_EQ(r.module().program.localBytesPerThread, 16u);
    const auto res = r.launch("k", {1, 1, 1}, {32, 1, 1}, {});
    ASSERT_TRUE(res.fault) << c.body;
    EXPECT_EQ(res.fault->kind, sim::FaultKind::OutOfBounds);
    EXPECT_EQ(res.fault->message, c.message);
    EXPECT_EQ(res.fault->instruction, c.instruction);
    EXPECT_EQ(res.fault->thread.x, 0u);
  }
}

// ---- the .param space through generic addresses: __grid_constant__ -----------------------------

// nvcc 13.0 -arch=sm_90 for
//   struct S { int a[8]; };
//   __device__ __noinline__ int get(const S* s, int i) { return s->a[i]; }
//   __global__ void k(const __grid_constant__ S s, int* out) { out[threadIdx.x] = get(&s,
//   threadIdx.x & 7); }
// The kernel passes its parameter's generic address (cvta.param) to a device function, which
// reads it with a generic ld.
const std::string kGridConstant = std::string(kHeader) + R"(
.func  (.param .b32 func_retval0) _Z3getPK1Si(
	.param .b64 _Z3getPK1Si_param_0,
	.param .b32 _Z3getPK1Si_param_1
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [_Z3getPK1Si_param_0];
	ld.param.u32 	%r1, [_Z3getPK1Si_param_1];
	mul.wide.s32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	ld.u32 	%r2, [%rd3];
	st.param.b32 	[func_retval0+0], %r2;
	ret;
}
.visible .entry _Z1k1SPi(
	.param .align 4 .b8 _Z1k1SPi_param_0[32],
	.param .u64 _Z1k1SPi_param_1
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<8>;
	mov.b64 	%rd1, _Z1k1SPi_param_0;
	ld.param.u64 	%rd2, [_Z1k1SPi_param_1];
	cvta.to.global.u64 	%rd4, %rd2;
	mov.u32 	%r1, %tid.x;
	and.b32  	%r2, %r1, 7;
	cvta.param.u64 	%rd5, %rd1;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd5;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r2;
	.param .b32 retval0;
	call.uni (retval0),
	_Z3getPK1Si,
	(
	param0,
	param1
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 0
	mul.wide.u32 	%rd6, %r1, 4;
	add.s64 	%rd7, %rd4, %rd6;
	st.global.u32 	[%rd7], %r3;
	ret;
}
// isspacep.param of the generic address; a store through it faults (parameters are read-only).
.visible .entry probe(.param .u32 x, .param .u64 out)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<4>;
	.reg .pred 	%p<3>;
	mov.u64 	%rd1, x;
	cvta.param.u64 	%rd2, %rd1;
	ld.param.u64 	%rd3, [out];
	isspacep.param 	%p1, %rd2;
	selp.u32 	%r1, 1, 0, %p1;
	st.global.u32 	[%rd3], %r1;
	isspacep.global 	%p2, %rd2;
	selp.u32 	%r2, 1, 0, %p2;
	st.global.u32 	[%rd3+4], %r2;
	ld.u32 	%r1, [%rd2];
	st.global.u32 	[%rd3+8], %r1;
	st.u32 	[%rd2], %r1;
	ret;
}
)";

TEST(MemoryModel, GridConstantParametersAreReadThroughTheParamWindow) {
  PtxRunner r(kGridConstant);
  std::vector<uint8_t> s(32);
  for (int32_t i = 0; i < 8; ++i) {
    const int32_t v = 11 * i - 3;
    std::memcpy(s.data() + 4 * i, &v, 4);
  }
  const uint64_t out = r.buffer<int32_t>(16);
  const auto res = r.launch("_Z1k1SPi", {1, 1, 1}, {16, 1, 1}, {s, PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<int32_t>(out, 16);
  for (int32_t t = 0; t < 16; ++t) EXPECT_EQ(v[size_t(t)], 11 * (t & 7) - 3) << t;

  const uint64_t o2 = r.buffer<uint32_t>(3);
  const auto p =
      r.launch("probe", {1, 1, 1}, {1, 1, 1}, {PtxRunner::u32(0x1234), PtxRunner::ptr(o2)});
  ASSERT_TRUE(p.fault);
  EXPECT_EQ(p.fault->instruction, "st.u32");
  EXPECT_EQ(p.fault->message,
            "store of 4 bytes at 0x0 is in the kernel's parameters, which are read-only");
  const auto w = r.read<uint32_t>(o2, 3);
  EXPECT_EQ(w[0], 1u);
  EXPECT_EQ(w[1], 0u);
  EXPECT_EQ(w[2], 0x1234u);
}

// ---- launch limits --------------------------------------------------------------------------

const std::string kLimits = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  ret;
}
.visible .entry exact() .reqntid 64, 2, 1
{
  ret;
}
.visible .entry bounded() .maxntid 128, 1, 1
{
  ret;
}
.visible .entry bigshared()
{
  .shared .align 4 .b8 big[49200];
  ret;
}
.visible .entry someshared()
{
  .shared .align 4 .b8 some[1024];
  ret;
}
)";

std::string launchError(PtxRunner& r, const std::string& entry, sim::Dim3 grid, sim::Dim3 block,
                        const std::vector<std::vector<uint8_t>>& args, uint32_t dynamicShared = 0) {
  try {
    const auto res = r.launch(entry, grid, block, args, {}, dynamicShared);
    return res.fault ? "fault: " + res.fault->message : "";
  } catch (const sim::LaunchError& e) {
    return e.what();
  }
}

TEST(LaunchLimits, BadGeometrySharedMemoryAndParametersAreLaunchErrors) {
  PtxRunner r(kLimits);
  const auto out = PtxRunner::ptr(r.buffer<uint32_t>(1));
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {1024, 1, 1}, {out}), "");
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {1025, 1, 1}, {out}),
            "block dimension x = 1025 is outside 1..1024");
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {0, 1, 1}, {out}),
            "block dimension x = 0 is outside 1..1024");
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {1, 1, 65}, {out}),
            "block dimension z = 65 is outside 1..64");
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {32, 32, 2}, {out}),
            "block of 2048 threads exceeds the limit of 1024");
  EXPECT_EQ(launchError(r, "k", {0, 1, 1}, {32, 1, 1}, {out}),
            "grid dimension x = 0 is outside 1..2147483647");
  EXPECT_EQ(launchError(r, "k", {1, 65536, 1}, {32, 1, 1}, {out}),
            "grid dimension y = 65536 is outside 1..65535");
  EXPECT_EQ(launchError(r, "k", {1, 1, 65536}, {32, 1, 1}, {out}),
            "grid dimension z = 65536 is outside 1..65535");
  EXPECT_EQ(launchError(r, "nope", {1, 1, 1}, {32, 1, 1}, {}),
            "no kernel named 'nope' in test.ptx");

  // Parameters: the count and each size must match the entry's .param list.
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {32, 1, 1}, {}),
            "kernel 'k' takes 1 parameters, 0 given");
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {32, 1, 1}, {out, out}),
            "kernel 'k' takes 1 parameters, 2 given");
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::u32(1)}),
            "parameter 0 ('out') of 'k' is 8 bytes, 4 given");
  sim::LaunchConfig c;
  c.entry = "k";
  c.block = {32, 1, 1};
  c.params = std::vector<uint8_t>(4);
  try {
    r.gpu().launch(r.module(), c);
    ADD_FAILURE() << "a 4-byte parameter buffer was accepted";
  } catch (const sim::LaunchError& e) {
    EXPECT_STREQ(e.what(), "parameter buffer of 4 bytes given, kernel 'k' takes 8");
  }

  // .reqntid fixes the block, .maxntid bounds it.
  EXPECT_EQ(launchError(r, "exact", {1, 1, 1}, {64, 2, 1}, {}), "");
  EXPECT_EQ(launchError(r, "exact", {1, 1, 1}, {128, 1, 1}, {}),
            "kernel 'exact' requires a block of exactly .reqntid 64,2,1");
  EXPECT_EQ(launchError(r, "exact", {1, 1, 1}, {64, 1, 1}, {}),
            "kernel 'exact' requires a block of exactly .reqntid 64,2,1");
  EXPECT_EQ(launchError(r, "bounded", {1, 1, 1}, {128, 1, 1}, {}), "");
  EXPECT_EQ(launchError(r, "bounded", {1, 1, 1}, {64, 4, 1}, {}),
            "block of 256 threads exceeds kernel 'bounded''s .maxntid of 128");

  // Shared memory: 48 KiB static, 227 KiB static + dynamic (the opt-in maximum).
  EXPECT_EQ(launchError(r, "bigshared", {1, 1, 1}, {32, 1, 1}, {}),
            "kernel 'bigshared' uses 49200 bytes of static shared memory; the limit is 49152");
  EXPECT_EQ(launchError(r, "k", {1, 1, 1}, {32, 1, 1}, {out}, 227 * 1024), "");
  EXPECT_EQ(launchError(r, "someshared", {1, 1, 1}, {32, 1, 1}, {}, 227 * 1024 - 1024), "");
  EXPECT_EQ(launchError(r, "someshared", {1, 1, 1}, {32, 1, 1}, {}, 227 * 1024 - 1023),
            "static (1024) plus dynamic (231425) shared memory exceeds the per-block limit of "
            "232448 bytes");
}

}  // namespace
}  // namespace warpsim
