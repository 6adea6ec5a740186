// f16 and bf16 arithmetic (PTX ISA 9.7.4, Half Precision Floating-Point Instructions): each
// operation rounds the exact result once, in the 16-bit format itself (never through f32, which
// would round twice). NaN results are the canonical 0x7FFF: PTX says "Half-precision
// instructions return an unspecified NaN"; the H200 gives 0x7FFF (measured by the differential
// probe). .ftz exists for f16 only ("add.ftz.{f16, f16x2} flushes subnormal inputs and results
// to sign-preserving zero"); bf16 arithmetic keeps subnormals.
//
// How, fast and exact: the operands are exact doubles. A product of two 16-bit values is exact
// in double (at most 22 significant bits); so is an f16 sum (f16 values are multiples of 2^-24
// below 2^16, so a sum needs at most 41 bits). A bf16 sum, and any fma, is made exact-or-odd
// with sumToOdd. detail::roundDouble then rounds once, in any mode. tests/isa/
// fp_property_test.cpp checks all of it against addBits/fmaBits-independent references.
#include "isa/fp.h"

namespace warpsim::fp {
namespace {

template <int E, int M>
struct Half {
  static constexpr Format f{E, M};
  static bool isNaN(uint16_t h) { return isNaNBits(f, h); }
  static double value(uint16_t h) {
    if constexpr (M == 7) {
      return double(bf16ToF32(h));
    } else {
      return double(f16ToF32(h));
    }
  }
  static uint16_t add(uint16_t a, uint16_t b, Round r, bool ftz) {
    if (ftz) a = uint16_t(flushBits(f, a)), b = uint16_t(flushBits(f, b));
    if (isNaN(a) || isNaN(b)) return uint16_t(f.canonicalNaN());
    return uint16_t(detail::roundSumDouble<E, M>(value(a), value(b), r, ftz, E == 5));
  }
  static uint16_t mul(uint16_t a, uint16_t b, Round r, bool ftz) {
    if (ftz) a = uint16_t(flushBits(f, a)), b = uint16_t(flushBits(f, b));
    if (isNaN(a) || isNaN(b)) return uint16_t(f.canonicalNaN());
    return uint16_t(detail::roundProductDouble<E, M>(value(a) * value(b), r, ftz));
  }
  static uint16_t fma(uint16_t a, uint16_t b, uint16_t c, Round r, bool ftz) {
    if (ftz) {
      a = uint16_t(flushBits(f, a)), b = uint16_t(flushBits(f, b)), c = uint16_t(flushBits(f, c));
    }
    if (isNaN(a) || isNaN(b) || isNaN(c)) return uint16_t(f.canonicalNaN());
    const double p = value(a) * value(b);           // exact
    if (p != p) return uint16_t(f.canonicalNaN());  // 0 * inf
    return uint16_t(detail::roundSumDouble<E, M>(p, value(c), r, ftz, false));
  }
};
using F16 = Half<5, 10>;
using BF16 = Half<8, 7>;

}  // namespace

uint16_t addF16(uint16_t a, uint16_t b, Round r, bool ftz) { return F16::add(a, b, r, ftz); }
uint16_t subF16(uint16_t a, uint16_t b, Round r, bool ftz) {
  return F16::isNaN(b) ? kCanonicalNaN16 : F16::add(a, b ^ 0x8000, r, ftz);
}
uint16_t mulF16(uint16_t a, uint16_t b, Round r, bool ftz) { return F16::mul(a, b, r, ftz); }
uint16_t fmaF16(uint16_t a, uint16_t b, uint16_t c, Round r, bool ftz) {
  return F16::fma(a, b, c, r, ftz);
}

uint16_t addBF16(uint16_t a, uint16_t b, Round r) { return BF16::add(a, b, r, false); }
uint16_t subBF16(uint16_t a, uint16_t b, Round r) {
  return BF16::isNaN(b) ? kCanonicalNaNBF16 : BF16::add(a, b ^ 0x8000, r, false);
}
uint16_t mulBF16(uint16_t a, uint16_t b, Round r) { return BF16::mul(a, b, r, false); }
uint16_t fmaBF16(uint16_t a, uint16_t b, uint16_t c, Round r) {
  return BF16::fma(a, b, c, r, false);
}

}  // namespace warpsim::fp
