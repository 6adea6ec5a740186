#include "isa/insns/mma_accumulate.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>

namespace warpsim::isa::insns {
namespace {

double widen(uint64_t bits, fp::Format f) {
  return f.manBits == 23 ? double(fp::f32(uint32_t(bits))) : double(fp::f16ToF32(uint16_t(bits)));
}

// The exponent the tensor core aligns by: the exponent field's, subnormals at emin. The answers
// that count are those for nonzero finite elements of formats at most as wide as f32, normal
// doubles: their exponent is the biased field less the bias (std::ilogb's answer, without the
// library call).
int fieldExponent(double x, fp::Format f) {
  return std::max(int((fp::bits(x) >> 52) & 0x7FF) - 1023, f.emin());
}

// 2^e as a double, for |e| within the normal range (e in [-1022, 1023]).
double pow2(int e) { return fp::f64(uint64_t(e + 1023) << 52); }

// The final rounding of a finite sum (see the header, step 3).
uint64_t roundResult(double s, fp::Format d, int f32ResultBits) {
  if (d.manBits != 23) return fp::convertBits(fp::kF64, d, fp::bits(s), fp::Round::RN);
  const uint64_t b = fp::bits(s), sign = (b >> 63) << 31;
  const int e = int((b >> 52) & 0x7FF) - 1023;
  if (e >= 128) return sign | d.infBits();
  // Truncating the f32 toward zero again keeps the first f32ResultBits significant bits (of a
  // normal result: the subnormal range holds no fp8 sum's 14-bit grid).
  const uint64_t keep = ~((uint64_t(1) << (24 - f32ResultBits)) - 1);
  // A normal f32 result rounded toward zero is the double's fraction cut to 23 bits (what
  // convertBits computes; it stays for zero and the subnormal range).
  if (e >= -126) return (sign | uint64_t(e + 127) << 23 | (b & ((1ull << 52) - 1)) >> 29) & keep;
  return fp::convertBits(fp::kF64, d, b, fp::Round::RZ) & keep;
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
  terms[0] = widen(c, cFormat);
  // One pass over the products: each product (exact: f16/bf16/tf32 significands have at most 11
  // bits, and the exponents stay far inside a double's range), whether any term is infinite or
  // NaN (its exponent field all ones), and the largest alignment exponent of a nonzero term
  // (computed for every term, used only when none is infinite or NaN).
  constexpr uint64_t kExponentField = 0x7FFull << 52;
  bool special = (fp::bits(terms[0]) & kExponentField) == kExponentField;
  int emax = terms[0] != 0 ? fieldExponent(terms[0], cFormat) : INT_MIN;
  for (unsigned i = 0; i < k; ++i) {
    const double t = a[i] * b[i];
    terms[i + 1] = t;
    special |= (fp::bits(t) & kExponentField) == kExponentField;
    const int e = fieldExponent(a[i], aFormat) + fieldExponent(b[i], bFormat);
    emax = t != 0 && e > emax ? e : emax;
  }
  if (special) {
    // A sum of at most 33 exact terms, one of them inf or NaN: the double sum is the IEEE one.
    double s = 0;
    for (unsigned i = 0; i < n; ++i) s += terms[i];
    return std::isnan(s) ? dFormat.canonicalNaN() : roundResult(s, dFormat, adder.f32ResultBits);
  }
  if (emax == INT_MIN) {
    double sum = 0;
    for (unsigned i = 0; i < n; ++i) sum += terms[i];  // all zero: IEEE signed-zero rules
    return roundResult(sum, dFormat, adder.f32ResultBits);
  }
  // Each term truncated toward zero to a multiple of 2^q. Every term is below 2^(emax + 2), so
  // each is an integer multiple of 2^q below 2^(sumBits + 1) and their sum (33 terms at most) is
  // exact in an int64_t and in a double. Scaling by a power of two is exact here (the scaled
  // terms stay normal doubles: the smallest term is above 2^-300, |q| < 300), the conversion to
  // an integer truncates toward zero, and a zero sum is +0 as the sum of doubles starting at +0.
  const int q = emax - adder.sumBits + 1;
  const double down = pow2(-q);
  int64_t units = 0;
  for (unsigned i = 0; i < n; ++i) units += int64_t(terms[i] * down);
  const double sum = double(units) * pow2(q);
  // A nonzero sum too small for the result format comes out +0, whatever its sign (fresh
  // tiny-mode cases of device_mma.sh 700 1121: the chip gave +0 where rounding gave -0).
  const uint64_t r = roundResult(sum, dFormat, adder.f32ResultBits);
  return (r & ~dFormat.signBit()) == 0 ? 0 : r;
}

}  // namespace warpsim::isa::insns
