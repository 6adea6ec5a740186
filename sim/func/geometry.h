// Grid and block geometry: dimensions and positions of threads and CTAs.
#pragma once

#include <cstdint>

namespace warpsim::sim {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

struct ThreadPos {
  uint32_t x = 0, y = 0, z = 0;
};

// The position of linear index `i` in a box of dimensions `d` (x fastest). An index inside the
// first row (every thread of a 1-D block) is its own x: no division (a malloc asks it per lane).
inline ThreadPos positionIn(const Dim3& d, uint64_t i) {
  if (i < d.x) return {uint32_t(i), 0, 0};
  return {uint32_t(i % d.x), uint32_t(i / d.x % d.y), uint32_t(i / (uint64_t(d.x) * d.y))};
}

}  // namespace warpsim::sim
