// The seeded input generators shared by every card. std::mt19937_64's output is fixed by the
// C++ standard; the standard distributions (uniform_real_distribution, ...) are not, so the
// mappings from raw bits to values are ours and give the same inputs on every standard library.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/lowp.h"

namespace warpsim::kernels {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  uint64_t bits64() { return engine_(); }
  uint32_t bits32() { return uint32_t(engine_() >> 32); }

  // Uniform in [lo, hi], both inclusive (multiply-shift: a bias below 2^-32, and no loop, so
  // the number of draws per value is fixed).
  uint32_t u32(uint32_t lo, uint32_t hi) {
    const uint64_t span = uint64_t(hi) - lo + 1;
    return lo + uint32_t((bits64() >> 32) * span >> 32);
  }
  int32_t s32(int32_t lo, int32_t hi) {
    return int32_t(uint32_t(lo) + u32(0, uint32_t(int64_t(hi) - lo)));
  }
  // Uniform in [0, 1) with 53 random bits.
  double unit() { return double(bits64() >> 11) * 0x1p-53; }
  double f64(double lo, double hi) { return lo + (hi - lo) * unit(); }
  // A double-precision value rounded once to float: [lo, hi] up to that rounding.
  float f32(float lo, float hi) { return float(f64(lo, hi)); }
  // A random sign and a magnitude in [lo, hi]: keeps values away from zero where a product
  // must stay exact in a wider format or a result must not cancel.
  double signedMagnitude(double lo, double hi) {
    const double m = f64(lo, hi);
    return (bits64() & 1) ? -m : m;
  }
  uint16_t f16(double lo, double hi) { return toHalf(f64(lo, hi)); }
  uint16_t bf16(double lo, double hi) { return toBf16(f64(lo, hi)); }

 private:
  std::mt19937_64 engine_;
};

inline std::vector<float> randomFloats(Rng& rng, uint64_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (auto& x : v) x = rng.f32(lo, hi);
  return v;
}
inline std::vector<double> randomDoubles(Rng& rng, uint64_t n, double lo, double hi) {
  std::vector<double> v(n);
  for (auto& x : v) x = rng.f64(lo, hi);
  return v;
}
inline std::vector<uint32_t> randomU32(Rng& rng, uint64_t n, uint32_t lo, uint32_t hi) {
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng.u32(lo, hi);
  return v;
}

}  // namespace warpsim::kernels
