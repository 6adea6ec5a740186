// The chunk hash that proves a model against the chip over a whole input space: the sum, over
// the inputs of a chunk, of mix64(input << 32 | output) modulo 2^64. A sum does not depend on
// the order of the additions (the GPU adds in any order, scripts/device_fastmath.cu), and the
// hash of a chunk is the sum of the hashes of its parts (so coarser chunks are exact sums of
// the measured ones).
#pragma once

#include <cstdint>

namespace warpsim::isa::sfu {

// splitmix64's finalizer (with its increment): every input bit affects every output bit.
constexpr uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The hash of inputs [first, first + count) of a 32-bit function.
template <class Fn>
uint64_t hashRange(Fn&& fn, uint64_t first, uint64_t count) {
  uint64_t sum = 0;
  for (uint64_t i = first; i < first + count; ++i) {
    const uint32_t in = uint32_t(i);
    sum += mix64((uint64_t{in} << 32) | fn(in));
  }
  return sum;
}

}  // namespace warpsim::isa::sfu
