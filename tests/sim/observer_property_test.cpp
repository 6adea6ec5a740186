// Observers never change architectural state: every suite kernel, with any set of observers
// attached, writes the same outputs and prints the same text as with none.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "harness/suite.h"
#include "sim/observers/statistics.h"
#include "sim/func/memory.h"
#include "sim/observers/write_watch.h"
#include "tests/support/rc_check.h"

namespace warpsim {
namespace {

// Counts every event: an observer that looks at everything the seam offers.
class CountingObserver final : public sim::Observer {
 public:
  uint64_t events = 0;
  void ctaStarted(const sim::CtaInfo&) override { ++events; }
  void warpStarted(unsigned, isa::LaneMask) override { ++events; }
  void instruction(const sim::InstructionEvent& e) override { events += e.inst->uses.size() + 1; }
  void memory(const sim::MemoryEvent& e) override { events += e.mask ? e.addresses != nullptr : 1; }
  void diverged(const sim::DivergenceEvent&) override { ++events; }
  void barrierArrived(const sim::BarrierArrival&) override { ++events; }
  void barrierReleased(uint32_t, const std::vector<unsigned>&) override { ++events; }
  void warpFinished(unsigned) override { ++events; }
  void ctaFinished(const sim::FaultInfo*) override { ++events; }
};

class Counting final : public sim::ObserverFactory {
 public:
  uint64_t events = 0;
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override {
    return std::make_unique<CountingObserver>();
  }
  void merge(sim::Observer& o) override { events += static_cast<CountingObserver&>(o).events; }
};

TEST(Observers, NeverChangeOutputs) {
  test::checkProperty("observers never change outputs", 40, 100, [] {
    const auto& cards = kernels::allCards();
    const kernels::Card& card = cards[*rc::gen::inRange<size_t>(0, cards.size())];
    const uint64_t hi = std::min(std::max(card.minSize, card.maxSize), card.minSize * 16 + 4096);
    const uint64_t size = *rc::gen::inRange<uint64_t>(card.minSize, hi + 1);
    const uint64_t seed = *rc::gen::arbitrary<uint32_t>();
    RC_TAG(card.name);

    sim::LaunchOptions bare;
    bare.serial = true;
    bare.statistics = false;
    const harness::CardResult base = harness::runCardOnSim(card, size, seed, bare);

    sim::LaunchOptions watched = bare;
    Counting counting;
    watched.statistics = *rc::gen::arbitrary<bool>();
    if (*rc::gen::arbitrary<bool>()) watched.observers.push_back(&counting);
    if (*rc::gen::arbitrary<bool>()) watched.watch = {sim::kFirstGlobalAddress + 256};
    const harness::CardResult seen = harness::runCardOnSim(card, size, seed, watched);

    RC_ASSERT(base.run.fault.has_value() == seen.run.fault.has_value());
    RC_ASSERT(base.run.printfOutput == seen.run.printfOutput);
    RC_ASSERT(base.run.buffers.size() == seen.run.buffers.size());
    for (size_t b = 0; b < base.run.buffers.size(); ++b)
      RC_ASSERT(base.run.buffers[b].bytes == seen.run.buffers[b].bytes);
    if (!watched.observers.empty()) RC_ASSERT(counting.events > 0u);
    if (watched.statistics) RC_ASSERT(seen.run.stats.totalWarpInsns() > 0u);
    if (!watched.statistics) RC_ASSERT(seen.run.stats.totalWarpInsns() == 0u);
  });
}

}  // namespace
}  // namespace warpsim
