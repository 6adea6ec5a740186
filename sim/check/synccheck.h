// synccheck: synchronization used wrongly.
//  - A CTA barrier (bar.sync / __syncthreads) that a warp reaches with only some of its live
//    threads (a divergent barrier), or with another thread count than the warps already waiting.
//  - A warp primitive (shfl/vote/match/redux/elect.sync, bar.warp.sync) executed by a lane that
//    is not in its member mask (an error), or whose member mask names lanes that do not execute
//    it: exited, no threads, or on another path to their exit (a warning: PTX lets exited lanes
//    be named; a shuffle reads 0 from them).
//  - What the core stops on: a barrier deadlock, with where every warp waits, and a member mask
//    naming lanes that are live but do not take part.
#pragma once

#include <memory>
#include <vector>

#include "sim/check/cta_view.h"

namespace warpsim::check {

class SynccheckObserver final : public sim::Observer {
 public:
  void ctaStarted(const sim::CtaInfo& c) override;
  void warpStarted(unsigned warp, isa::LaneMask threads) override;
  void instruction(const sim::InstructionEvent& e) override;
  void barrierArrived(const sim::BarrierArrival& e) override;
  void barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) override;
  void ctaFinished(const sim::FaultInfo* fault) override;
  Findings& findings() { return findings_; }

 private:
  void add(Severity s, std::string title, const isa::Inst& in, unsigned warp, unsigned lane,
           std::string detail);

  CtaView view_;
  Findings findings_;
  std::vector<isa::LaneMask> live_;     // per warp: threads that have not exited
  std::vector<const uint64_t*> regs_;   // per warp: the registers of its current instruction
  std::vector<uint32_t> barrierCount_;  // per barrier id: the thread count of waiting warps
};

class Synccheck final : public sim::ObserverFactory {
 public:
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override {
    return std::make_unique<SynccheckObserver>();
  }
  void merge(sim::Observer& finished) override {
    findings_.merge(static_cast<SynccheckObserver&>(finished).findings());
  }
  const Findings& findings() const { return findings_; }

 private:
  Findings findings_;
};

}  // namespace warpsim::check
