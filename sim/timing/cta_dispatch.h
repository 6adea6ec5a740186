// Hands CTAs to SMs in order: the first wave breadth-first (CTA i to SM i mod SMs, round after
// round while an SM has room), then each freed CTA slot gets the next CTA. With every SM alike
// this is the hardware's order, and the tail effect of the last wave falls out of it.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace warpsim::sim::timing {

class CtaDispatcher {
 public:
  CtaDispatcher(uint64_t ctas, uint32_t sms, uint32_t ctasPerSm)
      : ctas_(ctas), sms_(sms), perSm_(ctasPerSm) {}
  // (sm, cta) pairs of the first wave.
  std::vector<std::pair<uint32_t, uint64_t>> firstWave();
  // The next CTA for a freed slot, if any is left.
  std::optional<uint64_t> next();
  // Full waves the grid needs at this occupancy.
  uint64_t waves() const;
  // Hands out only CTAs [0, n) (a sampled launch runs the rest functionally).
  void limit(uint64_t n) { limit_ = n; }

 private:
  uint64_t ctas_, next_ = 0, limit_ = UINT64_MAX;
  uint32_t sms_, perSm_;
};

}  // namespace warpsim::sim::timing
