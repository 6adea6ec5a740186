// Schedule exploration's question about a byte whose value depends on the schedule: which
// store or atomic wrote it last under this schedule? An observer of global writes to a few
// watched bytes. Writes are stamped from one launch-wide clock; under a schedule the CTAs run
// one at a time (sim/func/schedule.h), so the stamps follow the order the writes happened in,
// and the latest stamp is the last writer (WriteWatch's CTA order would not be).
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "sim/check/cta_view.h"

namespace warpsim::check {

class LastWriter final : public sim::ObserverFactory {
 public:
  // `addresses`: global byte addresses to watch (a handful: a linear search per access).
  explicit LastWriter(std::vector<uint64_t> addresses);
  std::unique_ptr<sim::Observer> create(const sim::CtaInfo&) override;
  void merge(sim::Observer& finished) override;
  // The last writer of addresses[i], when anything wrote it.
  const std::optional<Actor>& writer(size_t i) const { return last_[i].actor; }

  struct Write {
    uint64_t stamp = 0;
    std::optional<Actor> actor;
  };

 private:
  friend class LastWriterObserver;
  std::vector<uint64_t> addresses_;
  std::atomic<uint64_t> clock_{0};
  std::vector<Write> last_;
};

}  // namespace warpsim::check
