// When a memory event comes relative to the access (sim/observer.h): a store's and an atomic's
// before any of their bytes change, an atomic's atomicCompleted after, a load's after it read.
// A checker that publishes a release at a store's event relies on it: were the event after the
// write, a CTA on another host thread could read the value before the release was published and
// be told it raced (issue 11: racecheck's intermittent report on flag_handoff_no_fence_fixed).
#include <gtest/gtest.h>

#include <vector>

#include "sim/func/memory.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::sim {
namespace {

// Each thread stores tid+100 to its word of `a` (even lanes) or `b` (odd lanes: the lanes span
// two allocations, so the store and the atomic take the per-lane path), then adds 1 to it
// atomically, then stores tid+200 to its word of `a`, which every lane reaches in one
// allocation (the warp-wide path).
constexpr const char* kPtx = R"(
.version 8.5
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  selp.b64 %rd4, %rd1, %rd2, %p1;
  add.s64 %rd5, %rd4, %rd3;
  add.u32 %r3, %r1, 100;
  st.global.u32 [%rd5], %r3;
  atom.global.add.u32 %r4, [%rd5], 1;
  add.s64 %rd6, %rd1, %rd3;
  add.u32 %r5, %r1, 200;
  st.global.u32 [%rd6], %r5;
  ld.global.u32 %r5, [%rd6];
  ret;
}
)";

struct Seen {
  std::string what;
  std::vector<uint32_t> values;  // per lane, the word at its address when the event came
};

class ValueObserver final : public Observer {
 public:
  explicit ValueObserver(const DeviceMemory& m, std::vector<Seen>& log) : memory_(m), log_(log) {}
  void memory(const MemoryEvent& e) override {
    if (e.landed == isa::Space::Global) record(accessKindName(e.kind), e);
  }
  void atomicCompleted(const MemoryEvent& e) override { record("atomic completed", e); }

 private:
  void record(const char* what, const MemoryEvent& e) {
    Seen s{what, {}};
    isa::forLanes(e.mask, [&](unsigned lane) {
      uint32_t v = 0;
      memory_.copyOut(&v, e.addresses[lane], 4);
      s.values.push_back(v);
    });
    log_.push_back(std::move(s));
  }
  const DeviceMemory& memory_;
  std::vector<Seen>& log_;
};

class ValueObservers final : public ObserverFactory {
 public:
  explicit ValueObservers(const DeviceMemory& m) : memory_(m) {}
  std::unique_ptr<Observer> create(const CtaInfo&) override {
    return std::make_unique<ValueObserver>(memory_, log);
  }
  void merge(Observer&) override {}
  std::vector<Seen> log;

 private:
  const DeviceMemory& memory_;
};

std::vector<uint32_t> plus(uint32_t base, unsigned lanes) {
  std::vector<uint32_t> v(lanes);
  for (unsigned l = 0; l < lanes; ++l) v[l] = base + l;
  return v;
}

TEST(EventOrder, WritesAreAnnouncedBeforeTheyLandAndReadsAfter) {
  constexpr unsigned kLanes = 32;
  test::PtxRunner r(kPtx, "order.ptx");
  const uint64_t a = r.buffer<uint32_t>(kLanes), b = r.buffer<uint32_t>(kLanes);
  ValueObservers observers(r.gpu().memory());
  LaunchOptions o;
  o.serial = true;
  o.statistics = false;
  o.observers = {&observers};
  const LaunchResult res = r.launch("k", {1, 1, 1}, {kLanes, 1, 1},
                                    {test::PtxRunner::ptr(a), test::PtxRunner::ptr(b)}, o);
  ASSERT_FALSE(res.fault.has_value());

  const std::vector<Seen>& log = observers.log;
  ASSERT_EQ(log.size(), 5u);
  EXPECT_EQ(log[0].what, "store");
  EXPECT_EQ(log[0].values, std::vector<uint32_t>(kLanes, 0));  // nothing written yet
  EXPECT_EQ(log[1].what, "atomic");
  EXPECT_EQ(log[1].values, plus(100, kLanes));  // the add not yet done
  EXPECT_EQ(log[2].what, "atomic completed");
  EXPECT_EQ(log[2].values, plus(101, kLanes));
  EXPECT_EQ(log[3].what, "store");  // the warp-wide path
  std::vector<uint32_t> before = plus(101, kLanes);
  for (unsigned l = 1; l < kLanes; l += 2) before[l] = 0;  // odd lanes wrote b, not a
  EXPECT_EQ(log[3].values, before);
  EXPECT_EQ(log[4].what, "load");
  EXPECT_EQ(log[4].values, plus(200, kLanes));
}

}  // namespace
}  // namespace warpsim::sim
