// The warp-wide fast path of ld/st (isa::Machine::direct, taken when no observer is attached)
// against the per-lane path (taken with the statistics observer): the same values in every state
// space and shape, partial warps included, and the same faults naming the same lane.
#include <gtest/gtest.h>

#include <optional>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// Per thread t: a signed byte into a .s32 register (global), a v4 load with one element left
// out and a v2 load of lane-strided (not consecutive) blocks with its first left out, a 16-bit
// round trip through shared memory read back through its generic address, a local-memory round
// trip, and a call whose argument and return value live in the per-lane .param area. out[4t..4t+3]
// = {byte, v4 sum, shared value, 2 * v4 sum}.
const std::string kShapes = std::string(kHeader) + R"(
.func (.param .b32 ret) twice(.param .b32 a)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [a];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [ret], %r2;
  ret;
}

.visible .entry k(.param .u64 in8, .param .u64 in4, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<16>;
  .shared .align 8 .b8 sh[256];
  .local .align 8 .b8 loc[16];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [in8];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [in4];
  cvta.to.global.u64 %rd2, %rd2;
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  cvt.u64.u32 %rd4, %r1;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.s8 %r2, [%rd5];
  mul.wide.u32 %rd6, %r1, 16;
  add.s64 %rd7, %rd2, %rd6;
  ld.global.v4.u32 {%r3, %r4, _, %r5}, [%rd7];
  ld.global.v2.u32 {_, %r11}, [%rd7+8];
  add.s32 %r3, %r3, %r4;
  add.s32 %r3, %r3, %r5;
  add.s32 %r3, %r3, %r11;
  mul.lo.s32 %r9, %r2, 300;
  mul.wide.u32 %rd8, %r1, 2;
  mov.u64 %rd9, sh;
  add.s64 %rd9, %rd9, %rd8;
  st.shared.u16 [%rd9], %r9;
  cvta.shared.u64 %rd10, %rd9;
  ld.s16 %r6, [%rd10];
  mov.u64 %rd11, loc;
  st.local.u32 [%rd11+4], %r3;
  ld.local.u32 %r7, [%rd11+4];
  {
  .param .b32 p0;
  .param .b32 r0;
  st.param.b32 [p0], %r7;
  call.uni (r0), twice, (p0);
  ld.param.b32 %r8, [r0];
  }
  mul.wide.u32 %rd12, %r1, 16;
  add.s64 %rd13, %rd3, %rd12;
  st.global.v4.u32 [%rd13], {%r2, %r3, %r6, %r8};
  ret;
}
)";

struct Shapes {
  std::vector<int8_t> in8;
  std::vector<uint32_t> in4;
};

std::vector<uint32_t> runShapes(const Shapes& s, unsigned threads, bool statistics) {
  PtxRunner r(kShapes);
  const uint64_t in8 = r.buffer<int8_t>(s.in8.size(), s.in8);
  const uint64_t in4 = r.buffer<uint32_t>(s.in4.size(), s.in4);
  const uint64_t out = r.buffer<uint32_t>(4 * threads);
  sim::LaunchOptions o;
  o.statistics = statistics;
  const auto res = r.launch("k", {1, 1, 1}, {threads, 1, 1},
                            {PtxRunner::ptr(in8), PtxRunner::ptr(in4), PtxRunner::ptr(out)}, o);
  EXPECT_FALSE(res.fault) << res.fault->describe("");
  return r.read<uint32_t>(out, 4 * threads);
}

TEST(DirectAccess, EverySpaceAndShapeMatchesThePerLanePath) {
  const unsigned threads = 48;  // a full warp and a partial one
  Shapes s;
  for (unsigned t = 0; t < threads; ++t) s.in8.push_back(int8_t(t * 37 - 100));
  for (unsigned i = 0; i < 4 * threads; ++i) s.in4.push_back(i * 2654435761u);
  const std::vector<uint32_t> fast = runShapes(s, threads, false);
  const std::vector<uint32_t> lanes = runShapes(s, threads, true);
  EXPECT_EQ(fast, lanes);
  for (unsigned t = 0; t < threads; ++t) {
    const int32_t byte = s.in8[t];
    const uint32_t sum = s.in4[4 * t] + s.in4[4 * t + 1] + 2 * s.in4[4 * t + 3];
    EXPECT_EQ(int32_t(fast[4 * t]), byte) << t;
    EXPECT_EQ(fast[4 * t + 1], sum) << t;
    EXPECT_EQ(int32_t(fast[4 * t + 2]), int32_t(int16_t(uint16_t(uint32_t(byte * 300))))) << t;
    EXPECT_EQ(fast[4 * t + 3], 2 * sum) << t;
  }
}

// A call's .param traffic at fixed addresses (ld/st.param of the frame's own variables, which
// handlers copy themselves when nothing observes them): a .b32, a .v2 and a signed byte
// parameter, a return value that lanes with a == 0 leave unwritten (it reads as zero), and a
// second call, by the odd lanes only, whose frame is the first one's storage again and whose
// a == 0 lanes wrote the return value in the first call.
const std::string kCalls = std::string(kHeader) + R"(
.func (.param .b32 ret) f(.param .b32 a, .param .align 8 .b8 b[8], .param .align 4 .b8 c[4])
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  ld.param.b32 %r1, [a];
  ld.param.v2.u32 {%r2, %r3}, [b];
  ld.param.s8 %r4, [c+1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mul.lo.s32 %r5, %r2, %r1;
  add.s32 %r5, %r5, %r3;
  add.s32 %r5, %r5, %r4;
  st.param.b32 [ret], %r5;
DONE:
  ret;
}

.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  mul.lo.u32 %r3, %r1, 7;
  mul.lo.u32 %r4, %r1, 37;
  sub.u32 %r4, %r4, 100;
  shl.b32 %r4, %r4, 8;
  mov.u32 %r10, 12345;
  {
  .param .b32 a0;
  .param .align 8 .b8 b0[8];
  .param .align 4 .b8 c0[4];
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  st.param.v2.u32 [b0], {%r1, %r3};
  st.param.b32 [c0], %r4;
  call.uni (r0), f, (a0, b0, c0);
  ld.param.b32 %r8, [r0];
  }
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 0;
  @%p1 bra SKIP;
  add.u32 %r6, %r1, 1;
  rem.u32 %r6, %r6, 3;
  {
  .param .b32 a1;
  .param .align 8 .b8 b1[8];
  .param .align 4 .b8 c1[4];
  .param .b32 r1;
  st.param.b32 [a1], %r6;
  st.param.v2.u32 [b1], {%r3, %r1};
  st.param.b32 [c1], %r4;
  call (r1), f, (a1, b1, c1);
  ld.param.b32 %r10, [r1];
  }
SKIP:
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r8, %r10};
  ret;
}
)";

std::vector<uint32_t> runCalls(unsigned threads, bool statistics) {
  PtxRunner r(kCalls);
  const uint64_t out = r.buffer<uint32_t>(2 * threads);
  sim::LaunchOptions o;
  o.statistics = statistics;
  const auto res = r.launch("k", {1, 1, 1}, {threads, 1, 1}, {PtxRunner::ptr(out)}, o);
  EXPECT_FALSE(res.fault) << res.fault->describe("");
  return r.read<uint32_t>(out, 2 * threads);
}

TEST(DirectAccess, ACallsParamsMatchThePerLanePath) {
  const unsigned threads = 40;
  const std::vector<uint32_t> fast = runCalls(threads, false);
  EXPECT_EQ(fast, runCalls(threads, true));
  // f(a, {x, y}, c) = a * x + y + (signed byte 1 of c), or 0 when a == 0.
  auto f = [](uint32_t a, uint32_t x, uint32_t y, uint32_t c) {
    return a == 0 ? 0u : a * x + y + uint32_t(int32_t(int8_t(uint8_t(c >> 8))));
  };
  for (unsigned t = 0; t < threads; ++t) {
    const uint32_t c = (t * 37 - 100) << 8;
    EXPECT_EQ(fast[2 * t], f(t % 3, t, 7 * t, c)) << t;
    EXPECT_EQ(fast[2 * t + 1], t % 2 ? f((t + 1) % 3, 7 * t, t, c) : 12345u) << t;
  }
}

// Lane l reads element a * (l % 16) + b * (l / 16) + c * (l * l % 8) of a signed-byte array
// (into a .s32 register) and of a .u32 array: half-warps that are consecutive, broadcast,
// strided, the same or different, and lanes that are no half-warp pattern at all (c != 0).
const std::string kHalves = std::string(kHeader) + R"(
.visible .entry k(.param .u64 in8, .param .u64 in4, .param .u64 out, .param .u32 a,
                  .param .u32 b, .param .u32 c)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [a];
  ld.param.u32 %r3, [b];
  ld.param.u32 %r4, [c];
  and.b32 %r5, %r1, 15;
  shr.u32 %r6, %r1, 4;
  mul.lo.u32 %r7, %r1, %r1;
  and.b32 %r7, %r7, 7;
  mul.lo.u32 %r8, %r2, %r5;
  mad.lo.u32 %r8, %r3, %r6, %r8;
  mad.lo.u32 %r8, %r4, %r7, %r8;
  ld.param.u64 %rd1, [in8];
  cvt.u64.u32 %rd2, %r8;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.s8 %r9, [%rd3];
  ld.param.u64 %rd4, [in4];
  mul.wide.u32 %rd5, %r8, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.u32 %r10, [%rd6];
  ld.param.u64 %rd7, [out];
  mul.wide.u32 %rd8, %r1, 8;
  add.s64 %rd9, %rd7, %rd8;
  st.global.v2.u32 [%rd9], {%r9, %r10};
  ret;
}
)";

TEST(DirectAccess, HalfWarpPatternsMatchThePerLanePath) {
  std::vector<int8_t> in8;
  std::vector<uint32_t> in4;
  for (unsigned i = 0; i < 512; ++i) {
    in8.push_back(int8_t(i * 37 - 100));
    in4.push_back(i * 2654435761u);
  }
  const unsigned shapes[][3] = {{1, 16, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0},  {1, 40, 0},
                                {3, 50, 0}, {0, 7, 0}, {5, 0, 0}, {1, 16, 1}, {2, 1, 9}};
  for (const auto& sh : shapes) {
    std::vector<uint32_t> got[2];
    for (int statistics = 0; statistics < 2; ++statistics) {
      PtxRunner r(kHalves);
      const uint64_t b8 = r.buffer<int8_t>(in8.size(), in8);
      const uint64_t b4 = r.buffer<uint32_t>(in4.size(), in4);
      const uint64_t out = r.buffer<uint32_t>(64);
      sim::LaunchOptions o;
      o.statistics = statistics != 0;
      const auto res =
          r.launch("k", {1, 1, 1}, {32, 1, 1},
                   {PtxRunner::ptr(b8), PtxRunner::ptr(b4), PtxRunner::ptr(out),
                    PtxRunner::u32(sh[0]), PtxRunner::u32(sh[1]), PtxRunner::u32(sh[2])},
                   o);
      ASSERT_FALSE(res.fault) << res.fault->describe("");
      got[statistics] = r.read<uint32_t>(out, 64);
    }
    EXPECT_EQ(got[0], got[1]) << sh[0] << " " << sh[1] << " " << sh[2];
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned i = sh[0] * (l % 16) + sh[1] * (l / 16) + sh[2] * (l * l % 8);
      EXPECT_EQ(int32_t(got[0][2 * l]), int32_t(in8[i])) << l;
      EXPECT_EQ(got[0][2 * l + 1], in4[i]) << l;
    }
  }
}

// Thread `bad` reads 2 bytes past its slot (misaligned) or past the buffer's end (out of
// bounds): the warp's one-check path must fall back and name that lane.
const std::string kBadLane = std::string(kHeader) + R"(
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 bad, .param .u32 skew)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [bad];
  ld.param.u32 %r3, [skew];
  setp.eq.u32 %p1, %r1, %r2;
  selp.u32 %r4, %r3, 0, %p1;
  mul.lo.u32 %r5, %r1, 4;
  add.u32 %r5, %r5, %r4;
  ld.param.u64 %rd1, [in];
  cvt.u64.u32 %rd2, %r5;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r6, [%rd3];
  ld.param.u64 %rd4, [out];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd4, %rd5;
  st.global.u32 [%rd6], %r6;
  ret;
}
)";

TEST(DirectAccess, AFaultingLaneIsNamedOnBothPaths) {
  struct Case {
    uint32_t bad, skew;
    sim::FaultKind kind;
  };
  for (const Case c :
       {Case{5, 2, sim::FaultKind::Misaligned}, Case{7, 4096, sim::FaultKind::OutOfBounds}}) {
    for (const bool statistics : {false, true}) {
      PtxRunner r(kBadLane);
      const uint64_t in = r.buffer<uint32_t>(32);
      const uint64_t out = r.buffer<uint32_t>(32);
      sim::LaunchOptions o;
      o.statistics = statistics;
      const auto res = r.launch(
          "k", {1, 1, 1}, {32, 1, 1},
          {PtxRunner::ptr(in), PtxRunner::ptr(out), PtxRunner::u32(c.bad), PtxRunner::u32(c.skew)},
          o);
      ASSERT_TRUE(res.fault) << c.bad;
      EXPECT_EQ(res.fault->kind, c.kind) << c.bad;
      EXPECT_EQ(res.fault->lane, c.bad) << statistics;
      EXPECT_EQ(res.fault->thread.x, c.bad) << statistics;
    }
  }
}

// Atomics: every lane of the warp adds lane + 1 to one shared word and to one global word
// (generic addresses for the global one), the lanes of a partial warp too, so each lane's old
// value is the sum of the lanes before it (the lanes apply in lane order); one lane's address
// skewed faults naming that lane. The warp-wide check (one region) and the per-lane path
// (observed) alike.
const std::string kAtomics = std::string(kHeader) + R"(
.visible .entry k(.param .u64 sum, .param .u64 out, .param .u32 bad, .param .u32 skew)
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 word;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [sum];
  cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd2, %rd2;
  ld.param.u32 %r2, [bad];
  ld.param.u32 %r3, [skew];
  setp.eq.u32 %p, %r1, %r2;
  selp.u32 %r4, %r3, 0, %p;
  cvt.u64.u32 %rd3, %r4;
  add.u32 %r5, %r1, 1;
  mov.u32 %r6, 0;
  st.shared.u32 [word], %r6;
  bar.sync 0;
  mov.u64 %rd4, word;
  add.s64 %rd4, %rd4, %rd3;
  atom.shared.add.u32 %r6, [%rd4], %r5;
  add.s64 %rd5, %rd1, %rd3;
  atom.add.u32 %r7, [%rd5], %r5;
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd6, %rd2, %rd6;
  st.global.u32 [%rd6], %r6;
  st.global.u32 [%rd6+4], %r7;
  ret;
}
)";

TEST(DirectAccess, AtomicsApplyInLaneOrderOnBothPaths) {
  for (const unsigned threads : {32u, 20u})
    for (const bool statistics : {false, true}) {
      PtxRunner r(kAtomics);
      const uint64_t sum = r.buffer<uint32_t>(1, {100}), out = r.buffer<uint32_t>(64);
      sim::LaunchOptions o;
      o.statistics = statistics;
      const auto res = r.launch(
          "k", {1, 1, 1}, {threads, 1, 1},
          {PtxRunner::ptr(sum), PtxRunner::ptr(out), PtxRunner::u32(99), PtxRunner::u32(0)}, o);
      ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
      const std::vector<uint32_t> v = r.read<uint32_t>(out, 64);
      for (uint32_t l = 0; l < threads; ++l) {
        EXPECT_EQ(v[2 * l], l * (l + 1) / 2) << threads << " " << statistics << " lane " << l;
        EXPECT_EQ(v[2 * l + 1], 100 + l * (l + 1) / 2) << statistics << " lane " << l;
      }
      EXPECT_EQ(r.read<uint32_t>(sum, 1)[0], 100 + threads * (threads + 1) / 2);
    }
  for (const bool statistics : {false, true}) {  // lane 9's shared address misaligned
    PtxRunner r(kAtomics);
    const uint64_t sum = r.buffer<uint32_t>(1), out = r.buffer<uint32_t>(64);
    sim::LaunchOptions o;
    o.statistics = statistics;
    const auto res = r.launch(
        "k", {1, 1, 1}, {32, 1, 1},
        {PtxRunner::ptr(sum), PtxRunner::ptr(out), PtxRunner::u32(9), PtxRunner::u32(2)}, o);
    ASSERT_TRUE(res.fault);
    EXPECT_EQ(res.fault->kind, sim::FaultKind::Misaligned) << statistics;
    EXPECT_EQ(res.fault->lane, 9u) << statistics;
  }
}

// Shared memory under a guard: lanes below `live` store tid + 100 to sh[tid] and load it back,
// the lanes that do not execute carry addresses 4096 bytes outside the 128-byte array, and lane
// `bad` (when it executes) is skewed by `skew` bytes. ld/st check .shared themselves
// (insns/memory.cpp sharedDirect): a well-filled warp (20 lanes) checks all 32 lanes' addresses
// as vectors and must count only the executing lanes', a few lanes (5) one by one; a bad
// executing lane must still fault, named, on both paths.
const std::string kSharedGuarded = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out, .param .u32 live, .param .u32 bad, .param .u32 skew)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 sh[32];
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [live];
  ld.param.u32 %r3, [bad];
  ld.param.u32 %r4, [skew];
  setp.lt.u32 %p1, %r1, %r2;
  selp.u32 %r5, 0, 4096, %p1;
  setp.eq.u32 %p2, %r1, %r3;
  selp.u32 %r6, %r4, 0, %p2;
  add.u32 %r5, %r5, %r6;
  mul.lo.u32 %r7, %r1, 4;
  add.u32 %r7, %r7, %r5;
  cvt.u64.u32 %rd1, %r7;
  mov.u64 %rd2, sh;
  add.s64 %rd2, %rd2, %rd1;
  add.u32 %r8, %r1, 100;
  @%p1 st.shared.u32 [%rd2], %r8;
  mov.u32 %r9, 0;
  @%p1 ld.shared.u32 %r9, [%rd2];
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.u32 [%rd5], %r9;
  ret;
}
)";

TEST(DirectAccess, GuardedSharedLanesCheckOnlyTheExecutingOnes) {
  struct Case {
    uint32_t live, bad, skew;
    std::optional<sim::FaultKind> kind;
  };
  for (const Case c :
       {Case{20, 99, 0, std::nullopt}, Case{5, 99, 0, std::nullopt}, Case{32, 99, 0, std::nullopt},
        Case{20, 13, 4096, sim::FaultKind::OutOfBounds},
        Case{20, 19, 2, sim::FaultKind::Misaligned},
        Case{5, 3, 4096, sim::FaultKind::OutOfBounds}}) {
    for (const bool statistics : {false, true}) {
      PtxRunner r(kSharedGuarded);
      const uint64_t out = r.buffer<uint32_t>(32);
      sim::LaunchOptions o;
      o.statistics = statistics;
      const auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                                {PtxRunner::ptr(out), PtxRunner::u32(c.live), PtxRunner::u32(c.bad),
                                 PtxRunner::u32(c.skew)},
                                o);
      if (c.kind) {
        ASSERT_TRUE(res.fault) << c.live << " " << c.bad;
        EXPECT_EQ(res.fault->kind, *c.kind) << c.live << " " << c.bad << " " << statistics;
        EXPECT_EQ(res.fault->lane, c.bad) << statistics;
        continue;
      }
      ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
      const std::vector<uint32_t> v = r.read<uint32_t>(out, 32);
      for (uint32_t l = 0; l < 32; ++l)
        EXPECT_EQ(v[l], l < c.live ? l + 100 : 0u) << c.live << " " << statistics << " lane " << l;
    }
  }
}

// A few strided lanes (every 8th: a tree reduction's late levels) store and load .v2 through a
// 32-bit base register whose sum with the offset wraps modulo 2^32 (sh - 8 + 8 * tid, then +8),
// and read one element back alone, and once more with the first element left out (`_`): the
// few-lane path of ld/st (insns/memory.cpp fewSharedOffsets) computes, checks and uses each lane's
// offset in one pass. Lane `bad` skewed by `skew` bytes faults, named, as on the per-lane path
// (observed).
const std::string kSharedFewLanes = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out, .param .u32 bad, .param .u32 skew)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .shared .align 8 .b8 sh[256];
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [bad];
  ld.param.u32 %r3, [skew];
  setp.eq.u32 %p2, %r1, %r2;
  selp.u32 %r4, %r3, 0, %p2;
  mov.u32 %r5, sh;
  sub.u32 %r5, %r5, 8;
  mul.lo.u32 %r6, %r1, 8;
  add.u32 %r5, %r5, %r6;
  add.u32 %r5, %r5, %r4;
  and.b32 %r7, %r1, 7;
  setp.eq.u32 %p1, %r7, 0;
  add.u32 %r8, %r1, 100;
  add.u32 %r9, %r1, 200;
  mov.u32 %r10, 0;
  mov.u32 %r11, 0;
  mov.u32 %r12, 0;
  @%p1 st.shared.v2.u32 [%r5+8], {%r8, %r9};
  @%p1 ld.shared.v2.u32 {%r10, %r11}, [%r5+8];
  @%p1 ld.shared.u32 %r12, [%r5+12];
  mov.u32 %r14, 0;
  @%p1 ld.shared.v2.u32 {_, %r14}, [%r5+8];
  add.u32 %r13, %r10, %r11;
  add.u32 %r13, %r13, %r12;
  add.u32 %r13, %r13, %r14;
  ld.param.u64 %rd3, [out];
  cvta.to.global.u64 %rd3, %rd3;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.u32 [%rd5], %r13;
  ret;
}
)";

TEST(DirectAccess, FewStridedSharedLanesThroughAWrappingNarrowBase) {
  struct Case {
    uint32_t bad, skew;
    std::optional<sim::FaultKind> kind;
  };
  for (const Case c :
       {Case{99, 0, std::nullopt}, Case{3, 4096, std::nullopt},
        Case{16, 4, sim::FaultKind::Misaligned}, Case{24, 4096, sim::FaultKind::OutOfBounds}}) {
    for (const bool statistics : {false, true}) {
      PtxRunner r(kSharedFewLanes);
      const uint64_t out = r.buffer<uint32_t>(32);
      sim::LaunchOptions o;
      o.statistics = statistics;
      const auto res =
          r.launch("k", {1, 1, 1}, {32, 1, 1},
                   {PtxRunner::ptr(out), PtxRunner::u32(c.bad), PtxRunner::u32(c.skew)}, o);
      if (c.kind) {
        ASSERT_TRUE(res.fault) << c.bad;
        EXPECT_EQ(res.fault->kind, *c.kind) << c.bad << " " << statistics;
        EXPECT_EQ(res.fault->lane, c.bad) << statistics;
        continue;
      }
      ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
      const std::vector<uint32_t> v = r.read<uint32_t>(out, 32);
      for (uint32_t l = 0; l < 32; ++l)  // (l + 100) + 3 x (l + 200) on lanes 0, 8, ...
        EXPECT_EQ(v[l], l % 8 == 0 ? 4 * l + 700 : 0u) << statistics << " lane " << l;
    }
  }
}

// Five global buffers, one more than a CTA remembers (sim/func/memory.h RecentAllocations), read
// by full warps as consecutive elements (insns/memory.cpp spanBase and Cta::directSpan: one
// check of the span), .u32 and .v2.u32, b0 twice, with the sum stored as consecutive .u64; the
// kernel parameters read by ld.param itself (a signed byte, a .v2); cvta.to.global in its .u64
// and .u32 forms. Each CTA's second warp is partial and takes the per-lane path.
const std::string kSpans = std::string(kHeader) + R"(
.visible .entry k(.param .u64 b0, .param .u64 b1, .param .u64 b2, .param .u64 b3,
                  .param .u64 b4, .param .u64 out, .param .align 8 .b8 s[8])
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<24>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r1, %r2, %r3, %r1;
  mul.wide.u32 %rd1, %r1, 4;
  mul.wide.u32 %rd2, %r1, 8;
  ld.param.u64 %rd3, [b0];
  cvta.to.global.u64 %rd3, %rd3;
  add.s64 %rd3, %rd3, %rd1;
  ld.global.u32 %r4, [%rd3];
  ld.param.u64 %rd4, [b1];
  add.s64 %rd4, %rd4, %rd1;
  ld.global.u32 %r5, [%rd4];
  ld.param.u64 %rd5, [b2];
  add.s64 %rd5, %rd5, %rd1;
  ld.global.nc.u32 %r6, [%rd5];
  ld.param.u64 %rd6, [b3];
  add.s64 %rd6, %rd6, %rd2;
  ld.global.v2.u32 {%r7, %r8}, [%rd6];
  ld.param.u64 %rd7, [b4];
  add.s64 %rd7, %rd7, %rd1;
  ld.global.u32 %r9, [%rd7+4];
  ld.global.u32 %r10, [%rd3];
  ld.param.s8 %r11, [s+1];
  ld.param.v2.u32 {%r12, %r13}, [s];
  cvta.to.global.u32 %r14, %r10;
  add.s32 %r15, %r4, %r5;
  add.s32 %r15, %r15, %r6;
  add.s32 %r15, %r15, %r7;
  add.s32 %r15, %r15, %r8;
  add.s32 %r15, %r15, %r9;
  add.s32 %r15, %r15, %r11;
  add.s32 %r15, %r15, %r12;
  add.s32 %r15, %r15, %r13;
  add.s32 %r15, %r15, %r14;
  cvt.u64.u32 %rd8, %r15;
  ld.param.u64 %rd9, [out];
  add.s64 %rd9, %rd9, %rd2;
  st.global.u64 [%rd9], %rd8;
  ret;
}
)";

TEST(DirectAccess, ConsecutiveSpansOfManyBuffersMatchThePerLanePath) {
  const unsigned ctas = 2, block = 48, threads = ctas * block;
  std::vector<uint32_t> in[5];
  for (unsigned b = 0; b < 5; ++b)
    for (unsigned i = 0; i < 2 * threads + 1; ++i) in[b].push_back((i + 1) * 2654435761u + b);
  const uint64_t scalars = 0x0123456789ABF0EFull;  // byte 1 is 0xF0: -16 as .s8
  std::vector<uint64_t> got[2];
  for (int statistics = 0; statistics < 2; ++statistics) {
    PtxRunner r(kSpans);
    std::vector<std::vector<uint8_t>> args;
    for (unsigned b = 0; b < 5; ++b)
      args.push_back(PtxRunner::ptr(r.buffer<uint32_t>(in[b].size(), in[b])));
    const uint64_t out = r.buffer<uint64_t>(threads);
    args.push_back(PtxRunner::ptr(out));
    args.push_back(PtxRunner::u64(scalars));
    sim::LaunchOptions o;
    o.statistics = statistics != 0;
    const auto res = r.launch("k", {ctas, 1, 1}, {block, 1, 1}, args, o);
    ASSERT_FALSE(res.fault) << res.fault->describe("test.ptx");
    got[statistics] = r.read<uint64_t>(out, threads);
  }
  EXPECT_EQ(got[0], got[1]);
  for (unsigned t = 0; t < threads; ++t) {
    const uint32_t sum = 2 * in[0][t] + in[1][t] + in[2][t] + in[3][2 * t] + in[3][2 * t + 1] +
                         in[4][t + 1] + uint32_t(-16) + uint32_t(scalars) + uint32_t(scalars >> 32);
    EXPECT_EQ(got[0][t], uint64_t(sum)) << t;
  }
}

// A full warp's consecutive span that runs past its buffer's end (31 elements for 32 lanes) or
// starts misaligned: the span's one check says no, and the per-lane path names the first bad
// lane (31, past the end; 0, misaligned), loads and stores alike, as when observed.
const std::string kSpanFaults = std::string(kHeader) + R"(
.visible .entry k(.param .u64 in, .param .u64 out, .param .u32 skew, .param .u32 store)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [skew];
  ld.param.u32 %r3, [store];
  mul.wide.u32 %rd1, %r1, 4;
  cvt.u64.u32 %rd2, %r2;
  add.s64 %rd1, %rd1, %rd2;
  ld.param.u64 %rd3, [in];
  add.s64 %rd3, %rd3, %rd1;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra STORE;
  ld.global.u32 %r4, [%rd3];
  ld.param.u64 %rd4, [out];
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd4, %rd4, %rd5;
  st.global.u32 [%rd4], %r4;
  ret;
STORE:
  st.global.u32 [%rd3], %r1;
  ret;
}
)";

TEST(DirectAccess, ASpanPastTheEndOrMisalignedFaultsAtTheFirstBadLane) {
  struct Case {
    uint32_t skew, store;
    sim::FaultKind kind;
    unsigned lane;
  };
  for (const Case c :
       {Case{0, 0, sim::FaultKind::OutOfBounds, 31}, Case{0, 1, sim::FaultKind::OutOfBounds, 31},
        Case{2, 0, sim::FaultKind::Misaligned, 0}, Case{2, 1, sim::FaultKind::Misaligned, 0}}) {
    for (const bool statistics : {false, true}) {
      PtxRunner r(kSpanFaults);
      const uint64_t in = r.buffer<uint32_t>(31);
      const uint64_t out = r.buffer<uint32_t>(32);
      sim::LaunchOptions o;
      o.statistics = statistics;
      const auto res = r.launch("k", {1, 1, 1}, {32, 1, 1},
                                {PtxRunner::ptr(in), PtxRunner::ptr(out), PtxRunner::u32(c.skew),
                                 PtxRunner::u32(c.store)},
                                o);
      ASSERT_TRUE(res.fault) << c.skew << " " << c.store;
      EXPECT_EQ(res.fault->kind, c.kind) << c.skew << " " << c.store << " " << statistics;
      EXPECT_EQ(res.fault->lane, c.lane) << c.skew << " " << c.store << " " << statistics;
    }
  }
}

}  // namespace
}  // namespace warpsim
