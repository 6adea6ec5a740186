#include "sim/timing/cta_dispatch.h"

namespace warpsim::sim::timing {

std::vector<std::pair<uint32_t, uint64_t>> CtaDispatcher::firstWave() {
  std::vector<std::pair<uint32_t, uint64_t>> out;
  for (uint32_t round = 0; round < perSm_; ++round)
    for (uint32_t sm = 0; sm < sms_ && next_ < ctas_ && next_ < limit_; ++sm)
      out.push_back({sm, next_++});
  return out;
}

std::optional<uint64_t> CtaDispatcher::next() {
  if (next_ >= ctas_ || next_ >= limit_) return std::nullopt;
  return next_++;
}

uint64_t CtaDispatcher::waves() const {
  const uint64_t perWave = uint64_t(sms_) * perSm_;
  return (ctas_ + perWave - 1) / perWave;
}

}  // namespace warpsim::sim::timing
