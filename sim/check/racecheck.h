// racecheck: hazards (read after write, write after read, write after write) between threads
// that nothing orders.
//  - Shared memory, per byte, within the CTA: an access is ordered after an earlier one by a
//    barrier released after it (bar.sync / __syncthreads: every release starts a new barrier
//    generation for the warps it releases), or, between lanes of one warp, by a bar.warp.sync
//    (__syncwarp) in between: sm_90 schedules a warp's threads independently, so lanes are not
//    lockstep. Lanes of one warp instruction are simultaneous, not a hazard. Atomics are not
//    tracked (an atomic never races with an atomic).
//  - Global memory within a CTA: the same rules as shared memory, per 4-byte word (with byte
//    masks), judged when the CTA ends from its plain accesses in order.
//  - Global memory between CTAs: each CTA's plain (weak) loads and stores are summarized per
//    4-byte word and byte mask; the factory compares the CTAs' summaries when the launch ends
//    (a word written by one CTA and read or written by another). Atomics,
//    volatile and memory-model (relaxed/acquire/release) accesses are synchronization, not
//    races.
// Simplification: a barrier release orders every access made before it (named barriers over a
// subset of warps are treated like __syncthreads), so a race across a partial barrier is missed.
#pragma once

#include <memory>
#include <vector>

#include "sim/check/cta_view.h"
#include "sim/check/word_table.h"

namespace warpsim::check {

// One recorded access: which instruction, which thread (linear in the CTA) and when.
struct AccessStamp {
  const isa::Inst* inst = nullptr;  // null: none
  uint32_t gen = 0;                 // the CTA's barrier generation when it happened
  uint32_t wsync = 0;               // the warp's __syncwarp count when it happened
  uint32_t seq = 0;     // the warp's instruction count (same value: the same instruction)
  uint32_t thread = 0;  // linear thread index in the CTA
};

// A CTA's plain global accesses to one 4-byte word: the first reader and writer, and the bytes.
struct GlobalWordUse {
  uint64_t word = 0;  // address / 4
  const isa::Inst* readInst = nullptr;
  const isa::Inst* writeInst = nullptr;
  uint32_t readThread = 0, writeThread = 0;
  uint8_t readMask = 0, writeMask = 0;
};

class RacecheckObserver final : public sim::Observer {
 public:
  void ctaStarted(const sim::CtaInfo& c) override;
  void instruction(const sim::InstructionEvent& e) override;
  void memory(const sim::MemoryEvent& e) override;
  void barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) override;
  void ctaFinished(const sim::FaultInfo* fault) override;
  Findings& findings() { return findings_; }
  // After ctaFinished: the CTA's plain global accesses by word, sorted.
  std::vector<GlobalWordUse>& globalWords() { return words_; }
  const sim::CtaInfo& info() const { return view_.info(); }

 private:
  struct Cell {
    AccessStamp write, read, read2;  // the last write; the last two readers (distinct threads)
  };
  bool ordered(const AccessStamp& earlier, unsigned warp) const;
  void shared(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  void global(const sim::MemoryEvent& e, unsigned lane, uint64_t a);
  void report(const AccessStamp& earlier, const char* earlierKind, const sim::MemoryEvent& e,
              unsigned lane, const char* kind, uint64_t address);

  CtaView view_;
  Findings findings_;
  std::vector<Cell> cells_;  // per byte of the CTA's shared memory
  uint32_t gen_ = 0;
  std::vector<uint32_t> warpGen_, warpSync_, warpSeq_;
  // Global accesses are appended as they come (cheap on the CTA's path) and summarized per word
  // when the CTA ends, on its own host thread.
  struct GlobalAccess {
    uint64_t word = 0;
    const isa::Inst* inst = nullptr;
    uint32_t thread = 0;
    uint32_t gen = 0, warpGen = 0, wsync = 0, seq = 0;  // as AccessStamp, and the warp's gen
    uint8_t mask = 0;
    bool write = false;
  };
  // Hazards on global words between threads of this CTA, from its accesses sorted by word.
  void globalHazards();
  std::vector<GlobalAccess> accesses_;
  std::vector<GlobalWordUse> words_;
};

class Racecheck final : public sim::ObserverFactory {
 public:
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override {
    return std::make_unique<RacecheckObserver>();
  }
  void merge(sim::Observer& finished) override;
  // Judges the launch's global accesses between CTAs (every CTA's are known only now).
  void launchFinished();
  const Findings& findings() const { return findings_; }

 private:
  struct CtaWords {
    sim::CtaInfo info;
    std::vector<GlobalWordUse> words;  // sorted
  };
  struct Writer {
    uint64_t cta = 0;  // index into ctas_
    const isa::Inst* inst = nullptr;
    uint32_t thread = 0;
    uint8_t mask = 0;
  };
  void race(const CtaWords& a, const isa::Inst* aInst, uint32_t aThread, const char* aKind,
            const CtaWords& b, const isa::Inst* bInst, uint32_t bThread, const char* bKind,
            uint64_t word);
  Findings findings_;
  std::vector<CtaWords> ctas_;  // the launch's CTAs with global accesses, in CTA order
};

}  // namespace warpsim::check
