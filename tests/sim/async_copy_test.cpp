// cp.async as small PTX programs: the data lands only at the wait (a read before it sees the old
// shared contents), wait_group N leaves the newest N groups in flight, src-size and ignore-src
// zero-fill, the events the copies produce (async global reads at issue, async shared writes at
// the wait), a bad source address faults at the cp.async; and mbarrier phases: arrivals of two
// warps complete a phase, parity waits, tx-counts, pending_count and cp.async.mbarrier.arrive.
#include <gtest/gtest.h>

#include "sim/observer.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::PtxRunner;

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// 32 threads. s[t] = 7; cp.async s[t] <- g[t] (group 0); s2[t] = 9; cp.async s2[t] <- g[32+t]
// (group 1); out[t] = s[t] before any wait; wait_group 1 (group 0 lands); out[32+t] = s[t],
// out[64+t] = s2[t]; wait_all; out[96+t] = s2[t].
const std::string kGroups = std::string(kHeader) + R"(
.visible .entry groups(.param .u64 g, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 16 .u32 s[32];
  .shared .align 16 .u32 s2[32];
  ld.param.u64 %rd1, [g];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r3, %r3, %r2;
  mov.u32 %r4, s2;
  add.u32 %r4, %r4, %r2;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  st.shared.u32 [%r3], 7;
  cp.async.ca.shared.global [%r3], [%rd4], 4;
  cp.async.commit_group;
  st.shared.u32 [%r4], 9;
  cp.async.cg.shared.global.L2::128B [%r4], [%rd4+128], 16;
  cp.async.commit_group;
  ld.shared.u32 %r5, [%r3];
  st.global.u32 [%rd5], %r5;
  cp.async.wait_group 1;
  ld.shared.u32 %r6, [%r3];
  st.global.u32 [%rd5+128], %r6;
  ld.shared.u32 %r7, [%r4];
  st.global.u32 [%rd5+256], %r7;
  cp.async.wait_all;
  ld.shared.u32 %r8, [%r4];
  st.global.u32 [%rd5+384], %r8;
  ret;
}
)";

struct AsyncEvents final : sim::Observer {
  std::vector<sim::MemoryEvent> events;
  std::vector<std::string> insts;
  void memory(const sim::MemoryEvent& e) override {
    if (e.async) {
      events.push_back(e);
      insts.push_back(e.inst->text);
    }
  }
};
struct AsyncEventsFactory final : sim::ObserverFactory {
  AsyncEvents merged;
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override {
    return std::make_unique<AsyncEvents>();
  }
  void merge(sim::Observer& o) override {
    auto& e = static_cast<AsyncEvents&>(o);
    merged.events.insert(merged.events.end(), e.events.begin(), e.events.end());
    merged.insts.insert(merged.insts.end(), e.insts.begin(), e.insts.end());
  }
};

TEST(AsyncCopy, SixteenByteCopiesMustBeAligned) {
  PtxRunner r(kGroups);
  std::vector<uint32_t> g(256);
  for (uint32_t i = 0; i < g.size(); ++i) g[i] = 1000 + i;
  const uint64_t gb = r.buffer<uint32_t>(256, g), out = r.buffer<uint32_t>(128);
  // A 16-byte copy needs 16-byte aligned addresses: lane 1's are 4-aligned only.
  auto res = r.launch("groups", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(gb), PtxRunner::ptr(out)});
  ASSERT_TRUE(res.fault.has_value());
  EXPECT_EQ(res.fault->kind, sim::FaultKind::Misaligned);
  EXPECT_NE(res.fault->instruction.find("cp.async.cg"), std::string::npos);
}

// The same with 4-byte copies in both groups, so every lane is aligned.
std::string groups4() {
  std::string s = kGroups;
  const std::string from = "cp.async.cg.shared.global.L2::128B [%r4], [%rd4+128], 16;";
  s.replace(s.find(from), from.size(), "cp.async.ca.shared.global [%r4], [%rd4+128], 4;");
  return s;
}

TEST(AsyncCopy, ReadsBeforeTheWaitSeeTheOldContents) {
  PtxRunner r(groups4());
  std::vector<uint32_t> g(64);
  for (uint32_t i = 0; i < g.size(); ++i) g[i] = 1000 + i;
  const uint64_t gb = r.buffer<uint32_t>(64, g), out = r.buffer<uint32_t>(128);
  AsyncEventsFactory events;
  sim::LaunchOptions o;
  o.observers.push_back(&events);
  auto res =
      r.launch("groups", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(gb), PtxRunner::ptr(out)}, o);
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto v = r.read<uint32_t>(out, 128);
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[t], 7u) << t;             // before any wait: the old contents
    EXPECT_EQ(v[32 + t], 1000 + t) << t;  // group 0 landed at wait_group 1
    EXPECT_EQ(v[64 + t], 9u) << t;        // group 1 still in flight
    EXPECT_EQ(v[96 + t], 1032 + t) << t;  // wait_all landed it
  }
  // Two async global reads at issue, two async shared writes at the waits, in that order.
  ASSERT_EQ(events.merged.events.size(), 4u);
  const auto& e = events.merged.events;
  EXPECT_EQ(e[0].kind, sim::AccessKind::Load);
  EXPECT_EQ(e[0].landed, isa::Space::Global);
  EXPECT_EQ(e[1].kind, sim::AccessKind::Load);
  EXPECT_EQ(e[2].kind, sim::AccessKind::Store);
  EXPECT_EQ(e[2].landed, isa::Space::Shared);
  EXPECT_EQ(e[2].mask, ~0u);
  EXPECT_EQ(e[2].bytes, 4u);
  EXPECT_EQ(e[3].kind, sim::AccessKind::Store);
  // The shared writes name the cp.async that started them.
  EXPECT_EQ(events.merged.insts[2], "cp.async.ca.shared.global");
}

// src-size and ignore-src: thread t copies 16 bytes of which (t % 5) * 4 are read when t < 16
// (src-size from a register), and nothing for odd t when t >= 16 (ignore-src).
const std::string kZeroFill = std::string(kHeader) + R"(
.visible .entry fill(.param .u64 g, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 16 .u32 s[128];
  ld.param.u64 %rd1, [g];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, s;
  add.u32 %r3, %r3, %r2;
  cvt.u64.u32 %rd3, %r2;
  add.s64 %rd4, %rd1, %rd3;
  mov.u32 %r10, 5;
  st.shared.v4.u32 [%r3], {%r10, %r10, %r10, %r10};
  rem.u32 %r4, %r1, 5;
  shl.b32 %r4, %r4, 2;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p2, %r5, 1;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 cp.async.cg.shared.global [%r3], [%rd4], 16, %r4;
  @!%p1 cp.async.cg.shared.global [%r3], [%rd4], 16, %p2;
  cp.async.wait_all;
  ld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%r3];
  add.s64 %rd5, %rd2, %rd3;
  st.global.v4.u32 [%rd5], {%r6, %r7, %r8, %r9};
  ret;
}
)";

TEST(AsyncCopy, SrcSizeAndIgnoreSrcZeroFill) {
  PtxRunner r(kZeroFill);
  std::vector<uint32_t> g(128);
  for (uint32_t i = 0; i < g.size(); ++i) g[i] = 100 + i;
  const uint64_t gb = r.buffer<uint32_t>(128, g), out = r.buffer<uint32_t>(128);
  auto res = r.launch("fill", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(gb), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto v = r.read<uint32_t>(out, 128);
  for (uint32_t t = 0; t < 32; ++t)
    for (uint32_t w = 0; w < 4; ++w) {
      const bool read = t < 16 ? w < t % 5 : t % 2 == 0;
      EXPECT_EQ(v[4 * t + w], read ? 100 + 4 * t + w : 0u) << t << " " << w;
    }
}

TEST(AsyncCopy, SourceOutsideAnyAllocationFaultsAtTheCopy) {
  PtxRunner r(groups4());
  const uint64_t gb = r.buffer<uint32_t>(40), out = r.buffer<uint32_t>(128);
  auto res = r.launch("groups", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(gb), PtxRunner::ptr(out)});
  ASSERT_TRUE(res.fault.has_value());
  EXPECT_EQ(res.fault->kind, sim::FaultKind::OutOfBounds);
  EXPECT_EQ(res.fault->instruction, "cp.async.ca.shared.global");
  EXPECT_EQ(res.fault->thread.x, 8u);  // g[32 + 8] is the first word past the 40
}

// mbarrier phases across two warps (64 threads). Thread 0 inits the barrier with count 2 and
// a tx-count expectation is added by warp 1's lane 0 (expect_tx 8) and removed by complete_tx.
// Each warp's lane 0 arrives once per phase; everyone spins on try_wait.parity. Phase 0: out[t]
// = whether the phase had completed right after the own arrival (test_wait with the state);
// the pending count each lane 0 saw; in phase 1 warp 1 arrives with arrive_drop (the count drops
// to 1 for phase 2, where thread 0 alone completes it). out[64] = the final word's parity bit.
const std::string kPhases = std::string(kHeader) + R"(
.visible .entry phases(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .pred %p<8>;
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  and.b32 %r3, %r1, 31;
  mov.u32 %r4, bar;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared.b64 [%r4], 2;
  bar.sync 0;
  setp.eq.u32 %p2, %r3, 0;
  setp.eq.u32 %p3, %r1, 32;
  @%p3 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r4], 8;
  @%p2 mbarrier.arrive.shared.b64 %rd2, [%r4];
  @%p2 mbarrier.pending_count.b64 %r5, %rd2;
  @%p3 mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r4], 8;
WAIT0:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r4], 0;
  @!%p4 bra WAIT0;
  @%p2 mbarrier.test_wait.shared.b64 %p5, [%r4], %rd2;
  selp.u32 %r6, 1, 0, %p5;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  @%p2 st.global.u32 [%rd4], %r5;
  @%p2 st.global.u32 [%rd4+4], %r6;
  bar.sync 0;
  @%p1 mbarrier.arrive.shared.b64 _, [%r4];
  @%p3 mbarrier.arrive_drop.shared.b64 _, [%r4];
WAIT1:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r4], 1;
  @!%p4 bra WAIT1;
  bar.sync 0;
  @%p1 mbarrier.arrive.shared.b64 %rd5, [%r4];
  @%p1 mbarrier.test_wait.parity.shared.b64 %p6, [%r4], 0;
  selp.u32 %r7, 1, 0, %p6;
  @%p1 st.global.u32 [%rd1+256], %r7;
  @%p1 ld.shared.u64 %rd6, [%r4];
  @%p1 shr.u64 %rd7, %rd6, 63;
  @%p1 cvt.u32.u64 %r8, %rd7;
  @%p1 st.global.u32 [%rd1+260], %r8;
  @%p1 mbarrier.inval.shared.b64 [%r4];
  ret;
}
)";

TEST(Mbarrier, PhasesParityTxCountAndArriveDrop) {
  PtxRunner r(kPhases);
  const uint64_t out = r.buffer<uint32_t>(66);
  auto res = r.launch("phases", {1, 1, 1}, {64, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto v = r.read<uint32_t>(out, 66);
  // Warp 0's lane 0 arrives first (warps run in order): it saw 2 pending and its phase was still
  // open; warp 1's lane 0 saw 1 pending... but its arrival leaves the tx-count (8) open until
  // complete_tx, so the phase completes at complete_tx. Both then find it complete.
  EXPECT_EQ(v[0], 2u);
  EXPECT_EQ(v[1], 1u);
  EXPECT_EQ(v[32], 1u);
  EXPECT_EQ(v[33], 1u);
  // Phase 2 needed only warp 0's arrival after the drop: parity 0 again, then 1 after it.
  EXPECT_EQ(v[64], 1u);  // test_wait.parity 0: phase 2 (parity 0) completed
  EXPECT_EQ(v[65], 1u);  // the current phase (3) has parity 1
}

// cp.async.mbarrier.arrive: each of 32 threads copies a word and arrives through the copy (no
// .noinc: count 32 arrivals by mbarrier.arrive); after the phase completes the data is there.
const std::string kCopyArrive = std::string(kHeader) + R"(
.visible .entry copyarrive(.param .u64 g, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .shared .align 8 .b64 bar;
  .shared .align 4 .u32 s[32];
  ld.param.u64 %rd1, [g];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, bar;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared.b64 [%r2], 32;
  bar.sync 0;
  xor.b32 %r3, %r1, 31;
  shl.b32 %r4, %r3, 2;
  mov.u32 %r5, s;
  add.u32 %r5, %r5, %r4;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  cp.async.ca.shared.global [%r5], [%rd4], 4;
  cp.async.mbarrier.arrive.shared.b64 [%r2];
  mbarrier.arrive.shared.b64 %rd5, [%r2];
WAIT:
  mbarrier.try_wait.shared.b64 %p2, [%r2], %rd5;
  @!%p2 bra WAIT;
  shl.b32 %r6, %r1, 2;
  mov.u32 %r7, s;
  add.u32 %r7, %r7, %r6;
  ld.shared.u32 %r8, [%r7];
  add.s64 %rd6, %rd2, %rd3;
  st.global.u32 [%rd6], %r8;
  ret;
}
)";

TEST(Mbarrier, CpAsyncArriveCompletesTheThreadsCopies) {
  PtxRunner r(kCopyArrive);
  std::vector<uint32_t> g(32);
  for (uint32_t i = 0; i < 32; ++i) g[i] = 500 + i;
  const uint64_t gb = r.buffer<uint32_t>(32, g), out = r.buffer<uint32_t>(32);
  auto res =
      r.launch("copyarrive", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(gb), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto v = r.read<uint32_t>(out, 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(v[t], 500 + (t ^ 31)) << t;
}

TEST(LaunchControl, GriddepcontrolRunsAndSetmaxnregChecksItsBounds) {
  const std::string ok = std::string(kHeader) + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b64 %rd<2>;
  griddepcontrol.wait;
  griddepcontrol.launch_dependents;
  setmaxnreg.inc.sync.aligned.u32 232;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], 42;
  ret;
}
)";
  PtxRunner r(ok);
  const uint64_t out = r.buffer<uint32_t>(1);
  auto res = r.launch("k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  EXPECT_EQ(r.read<uint32_t>(out, 1)[0], 42u);
  std::string bad = ok;
  bad.replace(bad.find("232"), 3, "236");
  PtxRunner r2(bad);
  const uint64_t out2 = r2.buffer<uint32_t>(1);
  auto res2 = r2.launch("k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(out2)});
  ASSERT_TRUE(res2.fault.has_value());
  EXPECT_NE(res2.fault->message.find("multiple of 8"), std::string::npos);
}

}  // namespace
}  // namespace warpsim
