// `warpsim diff`'s question, "who wrote this element?": an observer that records every store
// or atomic that writes one of a set of global addresses, with the writing thread and line.
#pragma once

#include <memory>
#include <vector>

#include "sim/func/launch.h"
#include "sim/observer.h"

namespace warpsim::sim {

class WriteWatchObserver final : public Observer {
 public:
  explicit WriteWatchObserver(const std::vector<uint64_t>& watched) : watched_(watched) {}
  void ctaStarted(const CtaInfo& c) override { cta_ = c; }
  void memory(const MemoryEvent& e) override;
  std::vector<WriteRecord>& writes() { return writes_; }

 private:
  const std::vector<uint64_t>& watched_;  // sorted byte addresses
  CtaInfo cta_;
  std::vector<WriteRecord> writes_;
};

// The writes of every CTA, in CTA order (so the last record of an address is the last writer).
class WriteWatch final : public ObserverFactory {
 public:
  explicit WriteWatch(std::vector<uint64_t> watched) : watched_(std::move(watched)) {}
  std::unique_ptr<Observer> create(const CtaInfo&) override;
  void merge(Observer& finished) override;
  std::vector<WriteRecord>& writes() { return writes_; }

 private:
  std::vector<uint64_t> watched_;
  std::vector<WriteRecord> writes_;
};

}  // namespace warpsim::sim
