#include "sim/func/device_launch.h"

namespace warpsim::sim {

DeviceLaunchArena::DeviceLaunchArena(uint64_t base, uint32_t slots) : base_(base), slots_(slots) {
  free_.reserve(slots);
  for (uint32_t s = slots; s-- > 0;) free_.push_back(s);
}

uint64_t DeviceLaunchArena::take(const ChildLaunch& pending) {
  if (free_.empty()) return 0;
  const uint64_t address = base_ + uint64_t(free_.back()) * kParamBufferBytes;
  free_.pop_back();
  taken_.emplace(address, pending);
  return address;
}

bool DeviceLaunchArena::release(uint64_t buffer, ChildLaunch& out) {
  auto it = taken_.find(buffer);
  if (it == taken_.end()) return false;
  out = std::move(it->second);
  taken_.erase(it);
  // Slots go back so that the lowest free one is taken next: addresses depend only on the
  // order of the calls.
  const uint32_t slot = uint32_t((buffer - base_) / kParamBufferBytes);
  auto pos = free_.begin();
  while (pos != free_.end() && *pos > slot) ++pos;
  free_.insert(pos, slot);
  return true;
}

}  // namespace warpsim::sim
