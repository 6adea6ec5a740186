// Racecheck and the cluster barrier's arrival order: warp 0 writes a shared word, every thread
// arrives at and waits on the cluster barrier, warp 1 reads the word. A release arrival (the
// default) orders the write before the read; a .relaxed one orders nothing, so the read races
// with the write (the checker reads the arrival's order from the decoded modifiers).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "sim/check/session.h"
#include "sim/gpu.h"

namespace {

using namespace warpsim;

std::string kernel(const char* arrive) {
  return std::string(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .u32 v;
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra SKIP;
  st.shared.u32 [v], 7;
SKIP:
  )") + arrive +
         R"(;
  barrier.cluster.wait;
  setp.ne.s32 %p2, %r1, 32;
  @%p2 bra DONE;
  ld.shared.u32 %r2, [v];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r2;
DONE:
  ret;
}
)";
}

size_t racesWith(const char* arrive) {
  sim::Gpu gpu;
  const sim::LoadedModule& m = gpu.loadPtx(kernel(arrive), "arrive.ptx");
  check::CheckSession session(*check::ToolSet::parse("racecheck"));
  const uint64_t out = gpu.memory().allocate(4, "out");
  std::vector<uint8_t> p(8);
  std::memcpy(p.data(), &out, 8);
  sim::LaunchConfig c;
  c.entry = "k";
  c.grid = {1, 1, 1};
  c.block = {64, 1, 1};
  c.params = gpu.packParams(m, "k", {p});
  sim::LaunchOptions lo;
  lo.observers = session.factories();
  const sim::LaunchResult r = gpu.launch(m, c, lo);
  EXPECT_FALSE(r.fault.has_value());
  uint32_t got = 0;
  gpu.memory().copyOut(&got, out, 4);
  EXPECT_EQ(got, 7u) << arrive;  // the simulator runs warp 0 to the barrier first either way
  session.launchDone();
  session.finish();
  return session.findings(check::Tool::Racecheck).size();
}

TEST(RacecheckClusterArrive, AReleaseArrivalOrdersTheWriteBeforeTheReadARelaxedOneDoesNot) {
  EXPECT_EQ(racesWith("barrier.cluster.arrive"), 0u);
  EXPECT_EQ(racesWith("barrier.cluster.arrive.release"), 0u);
  EXPECT_EQ(racesWith("barrier.cluster.arrive.relaxed"), 1u);
}

}  // namespace
