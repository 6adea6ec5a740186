// CheckSession over several launches with host work between them, as `warpsim exec --check`
// drives it: bytes the host wrote (hostWrote) and bytes an earlier launch wrote are
// initialized; a freed buffer (forget) is no longer judged.
#include "sim/check/session.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "sim/gpu.h"

namespace {

using namespace warpsim;

// out[tid] = in[tid], one u32 per thread.
constexpr const char* kCopyPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry copy(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r2;
  ret;
}
)";

std::vector<uint8_t> pointer(uint64_t address) {
  std::vector<uint8_t> p(8);
  std::memcpy(p.data(), &address, 8);
  return p;
}

TEST(CheckSessionAcrossLaunches, HostWritesAndEarlierLaunchesInitialize) {
  sim::Gpu gpu;
  const sim::LoadedModule& m = gpu.loadPtx(kCopyPtx, "copy.ptx");
  check::CheckSession session(*check::ToolSet::parse("initcheck"));
  const uint64_t a = gpu.memory().allocate(256, "a"), b = gpu.memory().allocate(256, "b");
  session.trackUninitialized(a, 256);
  session.trackUninitialized(b, 256);
  const std::vector<uint32_t> ones(32, 1);
  gpu.memory().copyIn(a, ones.data(), 128);  // the first half of a, as a host copy would
  session.hostWrote(a, 128);
  auto copy = [&](uint64_t in, uint64_t out) {
    sim::LaunchConfig c;
    c.entry = "copy";
    c.grid = {1, 1, 1};
    c.block = {64, 1, 1};
    c.params = gpu.packParams(m, "copy", {pointer(in), pointer(out)});
    sim::LaunchOptions lo;
    lo.observers = session.factories();
    lo.recoverInvalidAccess = true;
    const sim::LaunchResult r = gpu.launch(m, c, lo);
    EXPECT_FALSE(r.fault.has_value());
    session.launchDone();
  };
  const auto& found = session.findings(check::Tool::Initcheck);
  copy(a, b);  // threads 32..63 read the half of a that nothing wrote
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].count, 32u);
  EXPECT_EQ(found[0].first.thread.x, 32u);
  copy(b, a);  // b was written by the first launch: initialized
  EXPECT_EQ(found.size(), 1u);
  const uint64_t c = gpu.memory().allocate(256, "c");
  session.trackUninitialized(c, 256);
  session.forget(c);  // freed (and, here, reused untracked): not judged
  copy(c, b);
  EXPECT_EQ(found.size(), 1u);
  session.finish();
  EXPECT_EQ(session.errors(check::Tool::Initcheck), 1u);
}

}  // namespace
