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

// The position of linear index `i` in a box of dimensions `d` (x fastest).
inline ThreadPos positionIn(const Dim3& d, uint64_t i) {
  return {uint32_t(i % d.x), uint32_t(i / d.x % d.y), uint32_t(i / (uint64_t(d.x) * d.y))};
}

}  // namespace warpsim::sim
