// The event seam (sim/observer.h) on small kernels: the exact stream of events for divergence, a
// barrier, a shared-memory bank conflict and an atomic, against golden files
// (tests/golden/events/*.txt; WARPSIM_UPDATE_GOLDEN=1 rewrites them, then read the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/observers/event_log.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim {
namespace {

constexpr const char* kHeader = R"(
.version 8.5
.target sm_90
.address_size 64
)";

// Lanes below 3 take the branch; both paths meet at JOIN.
constexpr const char* kDivergence = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 3;
  @%p1 bra SMALL;
  mov.u32 %r2, 20;
  bra.uni JOIN;
SMALL:
  mov.u32 %r2, 10;
JOIN:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

// Two warps exchange values through shared memory across bar.sync.
constexpr const char* kBarrier = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  xor.b32 %r5, %r2, 128;
  add.s32 %r5, %r3, %r5;
  ld.shared.u32 %r5, [%r5];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

// Lanes 128 bytes apart all hit bank 0: an 8-way conflict for 8 lanes.
constexpr const char* kBankConflict = R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s[256];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 7;
  mov.u32 %r3, s;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  ld.shared.u32 %r5, [%r4];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

// Every lane adds its index to one counter; the guard keeps lane 0 out.
constexpr const char* kAtomic = R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 atom.global.add.u32 %r2, [%rd1], %r1;
  ret;
}
)";

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string eventsOf(const char* body, unsigned threads, uint64_t* outAddress = nullptr) {
  test::PtxRunner r(std::string(kHeader) + body, "events.ptx");
  const uint64_t out = r.buffer<uint32_t>(threads);
  if (outAddress) *outAddress = out;
  EventLog log;
  LaunchOptions o;
  o.statistics = false;
  o.observers = {&log};
  const LaunchResult res =
      r.launch("k", {1, 1, 1}, {threads, 1, 1}, {test::PtxRunner::ptr(out)}, o);
  EXPECT_FALSE(res.fault.has_value());
  return log.text();
}

void expectGolden(const std::string& name, const std::string& text) {
  const auto path =
      std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/golden/events" / (name + ".txt");
  if (std::getenv("WARPSIM_UPDATE_GOLDEN")) std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(text, readFile(path)) << "golden " << path;
}

TEST(EventStream, DivergenceSplitsAndReconverges) {
  expectGolden("divergence", eventsOf(kDivergence, 8));
}

TEST(EventStream, BarrierArrivalsThenOneRelease) {
  expectGolden("barrier", eventsOf(kBarrier, 64));
}

TEST(EventStream, SharedBankConflictAddresses) {
  expectGolden("bank_conflict", eventsOf(kBankConflict, 8));
}

TEST(EventStream, AtomicUnderAGuard) { expectGolden("atomic", eventsOf(kAtomic, 4)); }

}  // namespace
}  // namespace warpsim::sim
