// Device-side malloc/free and device-side launches on the timing model, exact to the cycle:
// a call takes the calling warp's own time, its SM's allocator slot and the device's
// (heap_timing.h, heap.*_cycles); a child grid starts launch.device_latency after its parent's
// cudaLaunchDevice returns (launch.device_call_cycles), alongside its parent (GridTimeline).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "sim/func/device_launch.h"
#include "sim/timing/grid_timeline.h"
#include "sim/timing/timing_model.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim::timing {
namespace {

// Every thread mallocs 16 bytes `mallocs` times (1 or 2), stores the last pointer, and (with
// `free`) frees it.
std::string mallocEach(bool free, int mallocs = 1) {
  std::string s =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);\n"
      ".extern .func free(.param .b64 free_param_0);\n"
      ".visible .entry k(.param .u64 out) {\n  .reg .b64 %rd<6>;\n  .reg .b32 %r<4>;\n"
      "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n"
      "  mov.u32 %r3, %tid.x;\n  mad.lo.s32 %r1, %r1, %r2, %r3;\n";
  for (int i = 0; i < mallocs; ++i)
    s += "  {\n  .param .b64 param0;\n  st.param.b64 [param0], 16;\n  .param .b64 retval0;\n"
         "  call.uni (retval0), malloc, (param0);\n  ld.param.b64 %rd2, [retval0];\n  }\n";
  if (free)
    s += "  {\n  .param .b64 param0;\n  st.param.b64 [param0], %rd2;\n"
         "  call.uni free, (param0);\n  }\n";
  s += "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd1, %rd3;\n  st.global.u64 [%rd4], %rd2;\n"
       "  ret;\n}\n";
  return s;
}

// CTAs of one warp of 32 threads, each thread's mallocs `mallocs` (1 or 2).
uint64_t heapCycles(bool free, uint32_t ctas, const TimingConfig& c, int mallocs = 1) {
  const uint32_t threads = 32;
  test::PtxRunner r(mallocEach(free, mallocs), "device_calls.ptx");
  TimingModel model(c);
  LaunchOptions o;
  o.runner = &model;
  const auto res = r.launch("k", {ctas, 1, 1}, {threads, 1, 1},
                            {test::PtxRunner::ptr(r.buffer<uint64_t>(threads * ctas))}, o);
  EXPECT_FALSE(res.fault.has_value()) << res.fault->message;
  EXPECT_TRUE(model.lastReport().has_value());
  return model.lastReport() ? model.lastReport()->cycles : 0;
}

// Only the named resource costs: the others are zero (a thread's later calls and a warp's first
// cost the device's slot nothing more).
TimingConfig onlyMalloc(uint32_t warp, uint32_t lane, uint32_t sm, uint32_t device) {
  TimingConfig c;
  c.heapMallocWarpCycles = warp;
  c.heapMallocLaneCycles = lane;
  c.heapMallocSmCycles = sm;
  c.heapMallocCycles = device;
  c.heapMallocRepeatCycles = 0;
  c.heapMallocFirstOfWarpCycles = 0;
  c.heapFreeFirstOfWarpCycles = 0;
  return c;
}

// Each test compares two settings where the call sets the end: a call that costs nothing
// leaves the launch's other latencies (the return's) to show instead.
TEST(DeviceCalls, AWarpsMallocTakesItsFixedTimeAndItsLanesOneAfterAnother) {
  const uint64_t base = heapCycles(false, 1, onlyMalloc(5000, 0, 0, 0));
  EXPECT_EQ(heapCycles(false, 1, onlyMalloc(7000, 0, 0, 0)), base + 2000);
  EXPECT_EQ(heapCycles(false, 1, onlyMalloc(5000, 100, 0, 0)), base + 32 * 100);
  // Two CTAs on two SMs with only the warp's own time: side by side, no longer than one.
  EXPECT_EQ(heapCycles(false, 2, onlyMalloc(5000, 100, 0, 0)), base + 32 * 100);
}

TEST(DeviceCalls, MallocsOfEverySmShareTheDevicesSlot) {
  const uint64_t base = heapCycles(false, 2, onlyMalloc(0, 0, 0, 1000));
  // Two CTAs on two SMs: the second warp's 32 calls queue behind the first's 32.
  EXPECT_EQ(heapCycles(false, 2, onlyMalloc(0, 0, 0, 2000)), base + 64 * 1000);
  // The slowest resource sets the end: 32 x 100 of the warp's own under 64 x 1000 of the device's.
  EXPECT_EQ(heapCycles(false, 2, onlyMalloc(0, 100, 0, 1000)), base);
  // Each SM's own slot: two SMs' calls do not wait for each other.
  EXPECT_EQ(heapCycles(false, 2, onlyMalloc(0, 0, 2000, 0)),
            heapCycles(false, 2, onlyMalloc(0, 0, 1000, 0)) + 32 * 1000);
}

TEST(DeviceCalls, AThreadsLaterMallocsHoldTheDevicesSlotLonger) {
  // Two mallocs a thread, two CTAs: the second round's 64 calls hold the device's slot
  // heap.malloc_repeat_cycles more each (the slot sets the end: 1,000 a call).
  TimingConfig c = onlyMalloc(0, 0, 0, 1000);
  const uint64_t base = heapCycles(false, 2, c, 2);
  c.heapMallocRepeatCycles = 250;
  EXPECT_EQ(heapCycles(false, 2, c, 2), base + 64 * 250);
  // One malloc a thread: nothing made before it.
  EXPECT_EQ(heapCycles(false, 2, c), heapCycles(false, 2, onlyMalloc(0, 0, 0, 1000)));
}

TEST(DeviceCalls, AWarpsFirstCallHoldsTheDevicesSlotLonger) {
  TimingConfig c = onlyMalloc(0, 0, 0, 1000);
  const uint64_t base = heapCycles(false, 2, c, 2);
  // Two warps, each one first malloc of its two.
  c.heapMallocFirstOfWarpCycles = 3000;
  EXPECT_EQ(heapCycles(false, 2, c, 2), base + 2 * 3000);
  // And one first free each, after the mallocs (the frees' device slot sets their end).
  c.heapFreeWarpCycles = c.heapFreeLaneCycles = c.heapFreeSmCycles = 0;
  c.heapFreeCycles = 1000;
  const uint64_t mallocs = heapCycles(true, 2, c, 2);
  c.heapFreeFirstOfWarpCycles = 5000;
  EXPECT_EQ(heapCycles(true, 2, c, 2), mallocs + 2 * 5000);
}

TEST(DeviceCalls, MallocsOfOneSmShareItsSlot) {
  TimingConfig c = onlyMalloc(0, 0, 1000, 0);
  c.smCount = 1;  // both CTAs on the one SM
  const uint64_t base = heapCycles(false, 2, c);
  c.heapMallocSmCycles = 2000;
  EXPECT_EQ(heapCycles(false, 2, c), base + 64 * 1000);
}

TEST(DeviceCalls, FreesHaveTheirOwnCostsAndShareTheSlots) {
  TimingConfig c = onlyMalloc(0, 0, 0, 0);
  c.heapFreeWarpCycles = c.heapFreeLaneCycles = c.heapFreeSmCycles = 0;
  c.heapFreeCycles = 100;
  const uint64_t base = heapCycles(true, 2, c);
  c.heapFreeCycles = 600;
  EXPECT_EQ(heapCycles(true, 2, c), base + 64 * 500);
  // A free's own time is the free's, not malloc's (that malloc and free share the slots is
  // HeapTiming.MallocAndFreeShareTheSlots).
  c.heapFreeCycles = 0;
  c.heapFreeWarpCycles = 5000;
  const uint64_t own = heapCycles(true, 2, c);
  c.heapFreeWarpCycles = 6000;
  c.heapFreeLaneCycles = 10;
  EXPECT_EQ(heapCycles(true, 2, c), own + 1000 + 32 * 10);
}

std::string readData(const std::string& name) {
  std::ifstream f(std::string(WARPSIM_SOURCE_DIR) + "/tests/data/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// cdp_deep (tests/data/cdp_ops.cu): each grid launches the next, 40 deep; the 41st launch
// fails (the nesting limit) but its call is made.
uint64_t deepCycles(const TimingConfig& c) {
  test::PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  TimingModel model(c);
  LaunchOptions o;
  o.runner = &model;
  const uint64_t reached = r.buffer<uint32_t>(48, std::vector<uint32_t>(48, 0));
  const auto res = r.launch("cdp_deep", {1, 1, 1}, {1, 1, 1},
                            {test::PtxRunner::ptr(reached), test::PtxRunner::u32(0)}, o);
  EXPECT_FALSE(res.fault.has_value());
  EXPECT_EQ(res.childGrids, 40u);
  EXPECT_TRUE(model.lastReport().has_value());
  return model.lastReport() ? model.lastReport()->cycles : 0;
}

TEST(DeviceCalls, AChainOfLaunchesAddsEachLaunchsCallAndLatency) {
  TimingConfig c;
  const uint64_t base = deepCycles(c);
  c.deviceLaunchLatency += 1000;
  // 40 grids start 1,000 cycles later, each after the one before.
  EXPECT_EQ(deepCycles(c), base + 40 * 1000);
  c.deviceLaunchCallCycles += 100;
  // 41 calls (the last one's fails at the nesting limit, and still holds its thread).
  EXPECT_EQ(deepCycles(c), base + 40 * 1000 + 41 * 100);
  // The launch latency of the host's launch is paid once.
  c.launchLatency += 7;
  EXPECT_EQ(deepCycles(c), base + 40 * 1000 + 41 * 100 + 7);
}

// cdp_fill (tests/data/cdp_ops.cu) on `ctas` CTAs: each CTA's thread 0 launches a child of
// 4 CTAs; the children start alongside one another.
TimingReport fillReport(uint32_t ctas, const TimingConfig& c) {
  test::PtxRunner r(readData("cdp_ops.ptx"), "cdp_ops.ptx");
  TimingModel model(c);
  LaunchOptions o;
  o.runner = &model;
  const uint64_t out = r.buffer<uint32_t>(128 * ctas, std::vector<uint32_t>(128 * ctas, 0));
  const auto res = r.launch("cdp_fill", {ctas, 1, 1}, {64, 1, 1}, {test::PtxRunner::ptr(out)}, o);
  EXPECT_FALSE(res.fault.has_value());
  EXPECT_EQ(res.childGrids, ctas);
  EXPECT_TRUE(model.lastReport().has_value());
  return model.lastReport().value_or(TimingReport{});
}

TEST(DeviceCalls, TheLaunchLatencyIsTheHostLaunchsOwn) {
  TimingConfig c;
  c.launchLatency = 3000;
  c.deviceLaunchLatency = 13000;
  // 64 children, launched at once on 64 SMs: their device latencies overlap, so the part of
  // the host launch's cycles that is its launch floor is the host's launch latency (summed,
  // it was 3,000 + 64 x 13,000, more than the launch's cycles).
  const TimingReport r = fillReport(64, c);
  EXPECT_EQ(r.launchLatency, 3000u);
  EXPECT_LT(r.cycles, 3000u + 64 * 13000);
}

TEST(GridTimeline, ChildrenRunAlongsideTheirParentAndTailLaunchesAfterIt) {
  GridTimeline t(500);
  // The host's grid: 3,000 of launch latency, then 10,000 cycles; it launches at 100 and 200
  // of its run, and a tail launch.
  t.place(0, 13000, 3000, {{100, false}, {200, false}, {0, true}});
  EXPECT_EQ(t.end(), 13000u);
  // Its first child runs 2,000 (its cycles less the latency it was timed with), from
  // 3,000 + 100 + 500: inside the parent's time.
  t.place(1, 5000, 3000, {{50, false}});
  EXPECT_EQ(t.end(), 13000u);
  // The first child's child, from 3,600 + 50 + 500, runs 20,000: past the parent.
  t.place(2, 23000, 3000, {});
  EXPECT_EQ(t.end(), 4150u + 20000);
  // The second child, from 3,000 + 200 + 500, runs 1,000.
  t.place(1, 4000, 3000, {});
  EXPECT_EQ(t.end(), 24150u);
  // The tail launch starts once the parent and its other children have ended: 24,150 + 500.
  t.place(1, 3100, 3000, {});
  EXPECT_EQ(t.end(), 24650u + 100);
  // A new host launch starts a new timeline.
  t.place(0, 3500, 3000, {});
  EXPECT_EQ(t.end(), 3500u);
}

}  // namespace
}  // namespace warpsim::sim::timing
