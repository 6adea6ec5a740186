#include "isa/insns/mma_accumulate.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace warpsim::isa::insns {
namespace {

double widen(uint64_t bits, fp::Format f) {
  return f.manBits == 23 ? double(fp::f32(uint32_t(bits))) : double(fp::f16ToF32(uint16_t(bits)));
}

// The exponent the tensor core aligns by: the exponent field's, subnormals at emin.
int fieldExponent(double x, fp::Format f) { return std::max(std::ilogb(x), f.emin()); }

// The final rounding of a finite sum (see the header, step 3).
uint64_t roundResult(double s, fp::Format d, int f32ResultBits) {
  if (d.manBits != 23) return fp::convertBits(fp::kF64, d, fp::bits(s), fp::Round::RN);
  if (std::fabs(s) >= 0x1p128) return (s < 0 ? d.signBit() : 0) | d.infBits();
  const uint64_t r = fp::convertBits(fp::kF64, d, fp::bits(s), fp::Round::RZ);
  // Truncating the f32 toward zero again keeps the first f32ResultBits significant bits
  // (of a normal result: the subnormal range holds no fp8 sum's 14-bit grid).
  return r & ~((uint64_t(1) << (24 - f32ResultBits)) - 1);
}

}  // namespace

uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format input, uint64_t c,
                fp::Format cFormat, fp::Format dFormat) {
  return mmaDot(a, b, k, input, input, kMmaAdder, c, cFormat, dFormat);
}

uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format aFormat,
                fp::Format bFormat, const MmaAdder& adder, uint64_t c, fp::Format cFormat,
                fp::Format dFormat) {
  const unsigned n = k + 1;
  double terms[33];
  int exps[33];
  terms[0] = widen(c, cFormat);
  bool special = !std::isfinite(terms[0]);
  for (unsigned i = 0; i < k; ++i) {
    // Exact: f16/bf16/tf32 significands have at most 11 bits, and the exponents stay far
    // inside a double's range.
    terms[i + 1] = a[i] * b[i];
    special = special || !std::isfinite(terms[i + 1]);
  }
  if (special) {
    // A sum of at most 33 exact terms, one of them inf or NaN: the double sum is the IEEE one.
    double s = 0;
    for (unsigned i = 0; i < n; ++i) s += terms[i];
    return std::isnan(s) ? dFormat.canonicalNaN() : roundResult(s, dFormat, adder.f32ResultBits);
  }
  int emax = INT_MIN;
  if (terms[0] != 0) emax = exps[0] = fieldExponent(terms[0], cFormat);
  for (unsigned i = 0; i < k; ++i)
    if (terms[i + 1] != 0)
      emax =
          std::max(emax, exps[i + 1] = fieldExponent(a[i], aFormat) + fieldExponent(b[i], bFormat));
  double sum = 0;
  if (emax == INT_MIN) {
    for (unsigned i = 0; i < n; ++i) sum += terms[i];  // all zero: IEEE signed-zero rules
  } else {
    // Each term truncated toward zero to a multiple of 2^q. Every term is below 2^(emax + 2),
    // so each is an integer multiple of 2^q below 2^28 and their sum (33 terms at most) is
    // exact in a double.
    const int q = emax - adder.sumBits + 1;
    for (unsigned i = 0; i < n; ++i) sum += std::ldexp(std::trunc(std::ldexp(terms[i], -q)), q);
    // A nonzero sum too small for the result format comes out +0, whatever its sign (fresh
    // tiny-mode cases of device_mma.sh 700 1121: the chip gave +0 where rounding gave -0).
    const uint64_t r = roundResult(sum, dFormat, adder.f32ResultBits);
    return (r & ~dFormat.signBit()) == 0 ? 0 : r;
  }
  return roundResult(sum, dFormat, adder.f32ResultBits);
}

}  // namespace warpsim::isa::insns
