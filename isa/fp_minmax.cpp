// min / max (PTX ISA 9.7.3.11-12 for f32/f64, 9.7.4.8-9 for f16/bf16) and .sat. The f32, f16
// and bf16 min/max are inline in isa/fp.h (detail::minMax); f64 is here, with its NaN rule.
//
// min_num (no .NaN): both NaN -> NaN, one NaN -> the other operand, else the smaller with
// -0.0 < +0.0 ("If values of both inputs are 0.0, then +0.0 > -0.0"). min_nan (.NaN): any NaN
// -> canonical NaN. A non-NaN result is one operand, bit for bit.
#include "isa/fp.h"

namespace warpsim::fp {
namespace {

// .sat: clamp to [+0.0, 1.0]; NaN -> +0.0 (PTX ISA 9.7.3.3: "add.sat.f32 clamps the result to
// [0.0, 1.0]. NaN results are flushed to +0.0f"). -0.0 becomes +0.0 too: measured on the H200
// (add.rn.sat.f32 of -0 and -0, mul.rn.sat.f32 of -1 and 0, add.rn.sat.f16 of -0 and -0 all
// give +0), as CUDA's __saturatef documents ("Clamp the input argument to [+0.0, 1.0]").
uint64_t saturateBits(Format f, uint64_t a) {
  const uint64_t one = uint64_t(f.bias()) << f.manBits;
  if (isNaNBits(f, a) || (a & f.signBit())) return 0;
  return a > one ? one : a;
}

constexpr uint64_t kSign64 = uint64_t{1} << 63;

}  // namespace

// min.f64 / max.f64 of two NaNs: a, quieted (measured on the H200; see nanResult64).
double fmin(double a, double b) {
  if (isNaN(a) && isNaN(b)) return nanResult64(a, b);
  return f64(detail::minMax<uint64_t, kSign64, kF64.infBits(), kCanonicalNaN64>(bits(a), bits(b),
                                                                                false, false));
}
double fmax(double a, double b) {
  if (isNaN(a) && isNaN(b)) return nanResult64(a, b);
  return f64(detail::minMax<uint64_t, kSign64, kF64.infBits(), kCanonicalNaN64>(bits(a), bits(b),
                                                                                true, false));
}

float saturate(float x) { return f32(uint32_t(saturateBits(kF32, bits(x)))); }
double saturate(double x) { return f64(saturateBits(kF64, bits(x))); }
uint16_t saturateF16(uint16_t h) { return uint16_t(saturateBits(kF16, h)); }
uint16_t saturateBF16(uint16_t h) { return uint16_t(saturateBits(kBF16, h)); }

}  // namespace warpsim::fp
