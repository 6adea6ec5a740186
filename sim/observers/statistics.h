// Statistics of a launch, counted by an observer of the functional core (sim/observer.h): the
// worked example of an analysis. Each CTA counts into its own StatsObserver; the collector
// merges them in CTA order, so counting needs no synchronization.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "isa/program.h"
#include "sim/observer.h"

namespace warpsim::sim {

struct Stats {
  static constexpr size_t kClasses = size_t(isa::InsnClass::Count_);
  std::array<uint64_t, kClasses> warpInsns{};    // warp-instructions issued, by class
  std::array<uint64_t, kClasses> threadInsns{};  // lanes that executed them, by class
  uint64_t branches = 0;                         // bra @p, brx.idx, indirect calls executed
  uint64_t divergentBranches = 0;                // ... that split the warp
  uint64_t sharedRequests = 0;                   // warp-level shared loads/stores/atomics
  uint64_t sharedWavefronts = 0;                 // wavefronts they needed
  uint64_t sharedIdealWavefronts = 0;            // wavefronts without bank conflicts
  uint64_t globalRequests = 0;  // warp-level global (incl. generic-to-global) loads/stores
  uint64_t globalSectors = 0;   // 32-byte sectors they touched
  uint64_t globalBytes = 0;     // bytes the lanes asked for
  uint64_t barriers = 0;        // barrier completions
  uint64_t floatAtomics = 0;    // lanes that did a floating-point atomic (order-dependent)
  uint64_t ctas = 0, warps = 0, threads = 0;
  // Lanes on the warp's path when an instruction issued, its guard predicate true or false
  // (ncu's smsp__thread_inst_executed; threadInsns counts its ..._pred_on).
  uint64_t activeThreadInsns = 0;

  uint64_t totalWarpInsns() const;
  uint64_t totalThreadInsns() const;
  double simdEfficiency() const;  // thread-instructions / (32 x warp-instructions)
  uint64_t bankConflicts() const { return sharedWavefronts - sharedIdealWavefronts; }
  double sectorsPerRequest() const;
  void merge(const Stats& o);
};

// Counts one CTA.
class StatsObserver final : public Observer {
 public:
  const Stats& stats() const { return stats_; }
  void ctaStarted(const CtaInfo& c) override;
  void instruction(const InstructionEvent& e) override;
  void memory(const MemoryEvent& e) override;
  void diverged(const DivergenceEvent&) override { ++stats_.divergentBranches; }
  void barrierReleased(uint32_t, const std::vector<unsigned>&) override { ++stats_.barriers; }

 private:
  Stats stats_;
};

// Makes a StatsObserver per CTA and sums them: the launch's statistics.
class StatsCollector final : public ObserverFactory {
 public:
  std::unique_ptr<Observer> create(const CtaInfo&) override;
  void merge(Observer& finished) override;
  const Stats& total() const { return total_; }

 private:
  Stats total_;
};

}  // namespace warpsim::sim
