// Every event of the core as a line of text, CTA by CTA: for tests (golden event streams) and for
// a person asking "what exactly did my warps do?". Registers are named as the PTX declares them.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "sim/observer.h"

namespace warpsim::sim {

class EventLogObserver final : public Observer {
 public:
  void ctaStarted(const CtaInfo& c) override;
  void warpStarted(unsigned warp, isa::LaneMask threads) override;
  void instruction(const InstructionEvent& e) override;
  void memory(const MemoryEvent& e) override;
  void diverged(const DivergenceEvent& e) override;
  void barrierArrived(const BarrierArrival& e) override;
  void barrierReleased(uint32_t id, const std::vector<unsigned>& waiters) override;
  void warpFinished(unsigned warp) override;
  void ctaFinished(const FaultInfo* fault) override;
  std::string& text() { return text_; }

 private:
  std::string regName(const isa::FunctionCode& fn, isa::RegRef r);
  std::string text_;
  const isa::FunctionCode* names_ = nullptr;  // whose names `byReg_` holds
  std::unordered_map<uint64_t, std::string> byReg_;
};

// The log of a launch: every CTA's lines, in CTA order.
class EventLog final : public ObserverFactory {
 public:
  std::unique_ptr<Observer> create(const CtaInfo&) override;
  void merge(Observer& finished) override;
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace warpsim::sim
