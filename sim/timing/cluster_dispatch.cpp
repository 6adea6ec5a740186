#include "sim/timing/cluster_dispatch.h"

#include <numeric>

#include "sim/timing/config.h"

namespace warpsim::sim::timing {

std::vector<uint32_t> parseGpcs(const std::string& text, uint32_t smCount) {
  std::vector<uint32_t> gpcs;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string part = text.substr(at, comma - at);
    const bool digits = !part.empty() && part.size() <= 4 &&
                        part.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::stoul(part) == 0)
      throw ConfigError("sm.gpcs: '" + text +
                        "' must list each GPC's SM count, positive integers separated by commas");
    gpcs.push_back(uint32_t(std::stoul(part)));
    at = comma + 1;
  }
  const uint64_t sum = std::accumulate(gpcs.begin(), gpcs.end(), uint64_t(0));
  if (sum != smCount)
    throw ConfigError("sm.gpcs: the GPCs hold " + std::to_string(sum) + " SMs, sm.count is " +
                      std::to_string(smCount));
  return gpcs;
}

ClusterDispatcher::ClusterDispatcher(uint64_t clusters, uint32_t clusterSize,
                                     std::vector<uint32_t> gpcs, uint32_t ctasPerSm)
    : clusters_(clusters), size_(clusterSize), perSm_(ctasPerSm), gpcSms_(std::move(gpcs)) {
  uint32_t first = 0;
  for (uint32_t n : gpcSms_) {
    gpcFirst_.push_back(first);
    first += n;
  }
  freeSlots_.assign(first, ctasPerSm);
}

std::optional<ClusterDispatcher::Placement> ClusterDispatcher::next() {
  if (next_ >= clusters_) return std::nullopt;
  int best = -1;
  uint64_t bestFree = 0;
  for (size_t g = 0; g < gpcSms_.size(); ++g) {
    uint64_t free = 0;
    for (uint32_t s = gpcFirst_[g]; s < gpcFirst_[g] + gpcSms_[g]; ++s) free += freeSlots_[s];
    if (free >= size_ && free > bestFree) {
      best = int(g);
      bestFree = free;
    }
  }
  if (best < 0) return std::nullopt;
  Placement p;
  p.cluster = next_++;
  const uint32_t lo = gpcFirst_[size_t(best)], hi = lo + gpcSms_[size_t(best)];
  for (uint32_t r = 0; r < size_; ++r) {
    uint32_t pick = lo;
    for (uint32_t s = lo; s < hi; ++s)
      if (freeSlots_[s] > freeSlots_[pick]) pick = s;
    --freeSlots_[pick];
    p.sms.push_back(pick);
  }
  return p;
}

void ClusterDispatcher::release(uint32_t sm) { ++freeSlots_[sm]; }

uint64_t ClusterDispatcher::clustersAtOnce() const {
  uint64_t n = 0;
  for (uint32_t sms : gpcSms_) n += uint64_t(sms) * perSm_ / size_;
  return n;
}

uint64_t ClusterDispatcher::waves() const {
  const uint64_t once = clustersAtOnce();
  return once ? (clusters_ + once - 1) / once : 0;
}

}  // namespace warpsim::sim::timing
