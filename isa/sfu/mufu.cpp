// The MUFU f32 functions from the tables that scripts/fit_mufu.py fitted to the H200's dense
// binades (isa/sfu/tables/mufu_*.inc); see mufu.h for the method.
#include "isa/sfu/mufu.h"

#include <algorithm>
#include <array>

namespace warpsim::isa::sfu {
namespace {

constexpr uint32_t kSign = 0x80000000u, kInf = 0x7F800000u, kNaN = 0x7FFFFFFFu;
constexpr uint32_t kOne23 = 1u << 23;

struct Coeffs {
  int64_t c0;
  int32_t c1, c2;
};
constexpr Coeffs kRcp[] = {
#include "isa/sfu/tables/mufu_rcp.inc"
};
constexpr Coeffs kRsq[] = {
#include "isa/sfu/tables/mufu_rsq.inc"
};
constexpr Coeffs kSqrt[] = {
#include "isa/sfu/tables/mufu_sqrt.inc"
};
constexpr Coeffs kEx2[] = {
#include "isa/sfu/tables/mufu_ex2.inc"
};
constexpr Coeffs kTanh[] = {
    // [1, 2) only: the one binade measured
#include "isa/sfu/tables/mufu_tanh.inc"
};

// j^2 from an array squarer of `Bits`-bit operands that keeps only the partial-product bits
// b_i b_k 2^(i+k) of columns >= Drop (the dropped bits' carries are lost with them), >> Drop.
// Row i of the folded squarer: b_i 4^i on the diagonal, b_i b_k 2^(i+k+1) for k > i.
template <int Bits, int Drop>
uint32_t truncatedSquare(uint32_t j) {
  uint64_t s = 0;
  for (int i = 0; i < Bits; ++i) {
    if (!((j >> i) & 1)) continue;
    if (2 * i >= Drop) s += uint64_t{1} << (2 * i);
    const int from = std::max(i + 1, Drop - i - 1);  // lowest k whose column i+k+1 is kept
    if (from < Bits) s += uint64_t(j >> from << from) << (i + 1);
  }
  return uint32_t(s >> Drop);
}

// Every S(j) of one squarer, computed once: a MUFU costs a table load, not a 17-row loop.
template <int Bits, int Drop>
const std::array<uint16_t, (1u << Bits)>& squares() {
  static const auto table = [] {
    std::array<uint16_t, (1u << Bits)> t{};
    for (uint32_t j = 0; j < t.size(); ++j) t[j] = uint16_t(truncatedSquare<Bits, Drop>(j));
    return t;
  }();
  return table;
}

// (C0 + C1 j + C2 S(j)) >> G for the segment of `fraction` (its top bits) and j (the rest).
template <int Bits, int Drop, int G, size_t N>
uint32_t interpolate(const Coeffs (&table)[N], uint32_t fraction) {
  const Coeffs& c = table[(fraction >> Bits) % N];  // N segments: the fraction's top bits
  const uint32_t j = fraction & ((1u << Bits) - 1);
  const int64_t sum = c.c0 + int64_t{c.c1} * j + int64_t{c.c2} * squares<Bits, Drop>()[j];
  return uint32_t(sum >> G);
}

// sign | significand y (2^23 <= y <= 2^24) at biased exponent e; subnormal results flush to
// signed zero and overflows give infinity, as MUFU does.
uint32_t pack(uint32_t sign, int e, uint32_t y) {
  if (y >= 2 * kOne23) y >>= 1, ++e;  // only y = 2^24 exactly: the next power of two
  if (e <= 0) return sign;
  if (e >= 255) return sign | kInf;
  return sign | uint32_t(e) << 23 | (y - kOne23);
}

// rsq and sqrt reduce x = X 4^t with X in [1, 4): the fraction is the exponent's parity above
// the mantissa, t = (exponent - parity) / 2.
struct Reduced4 {
  uint32_t fraction;
  int t;
};
Reduced4 reduce4(uint32_t a) {
  const int k = int((a >> 23) & 0xFF) - 127;
  const uint32_t parity = uint32_t(k) & 1;
  return {parity << 23 | (a & 0x7FFFFF), (k - int(parity)) / 2};
}

}  // namespace

uint32_t mufuRcpSignificand(uint32_t fraction) {
  return fraction == 0 ? 2 * kOne23 : interpolate<16, 17, 15>(kRcp, fraction);
}
uint32_t mufuRsqSignificand(uint32_t fraction) {
  // 1/sqrt(1) = 1 exactly: the one input of the binade that the table does not give.
  return fraction == 0 ? 2 * kOne23 : interpolate<17, 19, 16>(kRsq, fraction);
}
uint32_t mufuSqrtSignificand(uint32_t fraction) { return interpolate<17, 19, 17>(kSqrt, fraction); }
uint32_t mufuEx2Significand(uint32_t fraction) { return interpolate<17, 19, 16>(kEx2, fraction); }
uint32_t mufuTanhSignificand1To2(uint32_t mantissa) {
  return interpolate<17, 19, 13>(kTanh, mantissa >> 3);  // the 3 low bits are ignored
}

// 1/x: x = 1.m 2^(e-127), 1/x = (y / 2^24) 2^(127-e) with y from the [1, 2) table.
uint32_t mufuRcp(uint32_t a) {
  const uint32_t sign = a & kSign, e = (a >> 23) & 0xFF, m = a & 0x7FFFFF;
  if (e == 0xFF) return m ? kNaN : sign;  // 1/inf = 0
  if (e == 0) return sign | kInf;         // +-0 and flushed subnormals
  return pack(sign, 253 - int(e), mufuRcpSignificand(m));
}

// 1/sqrt(x) = (y / 2^24) 2^-t.
uint32_t mufuRsq(uint32_t a) {
  const uint32_t sign = a & kSign, e = (a >> 23) & 0xFF, m = a & 0x7FFFFF;
  if (e == 0xFF && m) return kNaN;
  if (e == 0) return sign | kInf;  // rsqrt(-0) = -inf
  if (sign) return kNaN;
  if (e == 0xFF) return 0;
  const Reduced4 r = reduce4(a);
  return pack(0, 126 - r.t, mufuRsqSignificand(r.fraction));
}

// sqrt(x) = (y / 2^23) 2^t.
uint32_t mufuSqrt(uint32_t a) {
  const uint32_t sign = a & kSign, e = (a >> 23) & 0xFF, m = a & 0x7FFFFF;
  if (e == 0xFF && m) return kNaN;
  if (e == 0) return sign;  // sqrt(-0) = -0
  if (sign) return kNaN;
  if (e == 0xFF) return kInf;
  const Reduced4 r = reduce4(a);
  return pack(0, 127 + r.t, mufuSqrtSignificand(r.fraction));
}

// 2^x: |x| to fixed point with 23 fraction bits (toward zero), 2^x = 2^n 2^f with n the
// integer part and f the fraction, 2^f from the [0, 1) table. A negative x takes the one's
// complement of that fixed-point magnitude (-|x| - 2^-23: no carry chain) unless its fraction
// is 0, where it is exact: 2^-1 = 0.5 and 2^-tiny = 1 (measured on the H200, every input).
uint32_t mufuEx2(uint32_t a) {
  const uint32_t sign = a & kSign, e = (a >> 23) & 0xFF, m = a & 0x7FFFFF;
  if (e == 0xFF) return m ? kNaN : sign ? 0 : kInf;
  if (e == 0) return 0x3F800000u;            // 2^+-0 = 1, subnormals flushed
  if (e >= 127 + 7) return sign ? 0 : kInf;  // |x| >= 128
  // |x| 2^23 as an integer, truncated: the significand shifted by e - 127.
  const uint64_t sig = uint64_t{m | kOne23};
  const int shift = int(e) - 127;  // -126 .. 6
  const int64_t mag = shift >= 0 ? int64_t(sig << shift) : shift > -25 ? int64_t(sig >> -shift) : 0;
  const int64_t fixed = !sign ? mag : (mag & 0x7FFFFF) ? ~mag : -mag;
  const int64_t n = fixed >> 23;  // floor
  return pack(0, 127 + int(n), mufuEx2Significand(uint32_t(fixed & 0x7FFFFF)));
}

}  // namespace warpsim::isa::sfu
