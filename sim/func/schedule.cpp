#include "sim/func/schedule.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace warpsim::sim {

namespace {

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ull;

}  // namespace

uint64_t scheduleSeed(uint64_t explorationSeed, uint64_t index) {
  // Kept below 2^53 so that JSON readers hold the seed exactly.
  const uint64_t s = mix(explorationSeed * kGolden + index) & ((uint64_t(1) << 53) - 1);
  return s ? s : 1;
}

std::vector<uint64_t> ctaOrder(const SchedulePolicy& policy, uint64_t first, uint64_t count) {
  std::vector<uint64_t> order(count);
  std::iota(order.begin(), order.end(), first);
  uint64_t state = mix(policy.seed ^ (first * kGolden + 0x5bd1e995));
  // Fisher-Yates with the stream above (std::shuffle's result differs between libraries).
  for (uint64_t i = count; i > 1; --i) {
    state += kGolden;
    std::swap(order[i - 1], order[mix(state) % i]);
  }
  return order;
}

CtaSchedule::CtaSchedule(const SchedulePolicy& policy, uint64_t ctaLinear)
    : state_(mix(policy.seed + kGolden * (ctaLinear + 1))),
      maxSlice_(std::max<uint32_t>(1, policy.maxSlice)) {}

uint64_t CtaSchedule::next() {
  state_ += kGolden;
  return mix(state_);
}

void CtaSchedule::shuffle(std::vector<unsigned>& order) {
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[next() % i]);
}

}  // namespace warpsim::sim
