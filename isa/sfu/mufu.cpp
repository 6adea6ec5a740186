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
constexpr Coeffs kLg2[] = {
#include "isa/sfu/tables/mufu_lg2.inc"
};
constexpr Coeffs kSinCos[] = {
#include "isa/sfu/tables/mufu_sincos.inc"
};
constexpr Coeffs kTanh[] = {
#include "isa/sfu/tables/mufu_tanh.inc"
};
// Which rows of kTanh, and which G, each binade of x in [2^-8, 8) uses.
struct TanhBinade {
  int exponent, ignoredBits, segmentBits, g, firstRow;
};
constexpr TanhBinade kTanhBinades[] = {
#include "isa/sfu/tables/mufu_tanh_binades.inc"
};

// j^2 from an array squarer of `Bits`-bit operands that keeps only the partial-product bits
// b_i b_k 2^(i+k) of columns >= Drop (the dropped bits' carries are lost with them), >> Drop.
// Row i of the folded squarer: b_i 4^i on the diagonal, b_i b_k 2^(i+k+1) for k > i.
template <int Bits, int Drop>
constexpr uint32_t truncatedSquare(uint32_t j) {
  uint64_t s = 0;
  for (int i = 0; i < Bits; ++i) {
    if (!((j >> i) & 1)) continue;
    if (2 * i >= Drop) s += uint64_t{1} << (2 * i);
    const int from = std::max(i + 1, Drop - i - 1);  // lowest k whose column i+k+1 is kept
    if (from < Bits) s += uint64_t(j >> from << from) << (i + 1);
  }
  return uint32_t(s >> Drop);
}

// S(j) without a table of every j (2^17 entries, 256 KB, which a MUFU-heavy kernel read at
// random, mostly from beyond the host's L2): j = h 2^L + l with h its top 8 bits. Each kept
// partial product is a power of two of column >= Drop, so S is the sum of those products
// >> Drop, term by term. The products of two low bits are all dropped (column at most 2L - 2 <
// Drop); those of two high bits, diagonals included, are S(h 2^L), one of 256 entries; a high
// bit i and a low bit k are kept when i + k + 1 >= Drop, 2^(i+k+1-Drop) each, which summed over
// k is l >> (Drop - 1 - i). Mufu.SquarerWithoutItsTableIsTheRowLoop checks every j.
template <int Bits, int Drop>
uint32_t foldedSquare(uint32_t j) {
  constexpr int kLow = Bits - 8;
  static_assert(2 * (kLow - 1) < Drop && Bits <= Drop);
  static constexpr auto high = [] {
    std::array<uint16_t, 256> t{};
    for (uint32_t h = 0; h < t.size(); ++h) t[h] = uint16_t(truncatedSquare<Bits, Drop>(h << kLow));
    return t;
  }();
  const uint32_t l = j & ((1u << kLow) - 1);
  uint32_t s = high[(j >> kLow) & 0xFF];
  for (int i = kLow; i < Bits; ++i) s += (0 - ((j >> i) & 1)) & (l >> (Drop - 1 - i));
  return s;
}

// C0 + C1 j + C2 S(j) for j, the low Bits bits of the fraction (the caller picks the row).
template <int Bits, int Drop>
int64_t interpolationSum(const Coeffs& c, uint32_t fraction) {
  const uint32_t j = fraction & ((1u << Bits) - 1);
  return c.c0 + int64_t{c.c1} * j + int64_t{c.c2} * foldedSquare<Bits, Drop>(j);
}

// (C0 + C1 j + C2 S(j)) >> G for the segment of `fraction` (its top bits) and j (the rest).
template <int Bits, int Drop, int G, size_t N>
uint32_t interpolate(const Coeffs (&table)[N], uint32_t fraction) {
  return uint32_t(interpolationSum<Bits, Drop>(table[(fraction >> Bits) % N], fraction) >> G);
}

// sign | significand y (2^23 <= y <= 2^24) at biased exponent e; subnormal results flush to
// signed zero and overflows give infinity, as MUFU does.
uint32_t pack(uint32_t sign, int e, uint32_t y) {
  if (y >= 2 * kOne23) y >>= 1, ++e;  // only y = 2^24 exactly: the next power of two
  if (e <= 0) return sign;
  if (e >= 255) return sign | kInf;
  return sign | uint32_t(e) << 23 | (y - kOne23);
}

// The f32 of mag 2^-fraction (mag > 0), its significand truncated to 24 bits: how LG2 and
// SIN/COS turn their fixed-point sums into floats.
uint32_t truncatedF32(uint64_t mag, int fraction) {
  const int length = 64 - __builtin_clzll(mag);
  const uint64_t y = length >= 24 ? mag >> (length - 24) : mag << (24 - length);
  return uint32_t(length - 1 - fraction + 127) << 23 | (uint32_t(y) - kOne23);
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

uint32_t mufuSquare(int bits, uint32_t j) {
  return bits == 16 ? foldedSquare<16, 17>(j) : foldedSquare<17, 19>(j);
}
uint32_t mufuSquareByRows(int bits, uint32_t j) {
  return bits == 16 ? truncatedSquare<16, 17>(j) : truncatedSquare<17, 19>(j);
}

uint32_t mufuRcpSignificand(uint32_t fraction) {
  return fraction == 0 ? 2 * kOne23 : interpolate<16, 17, 15>(kRcp, fraction);
}
uint32_t mufuRsqSignificand(uint32_t fraction) {
  // 1/sqrt(1) = 1 exactly: the one input of the binade that the table does not give.
  return fraction == 0 ? 2 * kOne23 : interpolate<17, 19, 16>(kRsq, fraction);
}
uint32_t mufuSqrtSignificand(uint32_t fraction) { return interpolate<17, 19, 17>(kSqrt, fraction); }
uint32_t mufuEx2Significand(uint32_t fraction) { return interpolate<17, 19, 16>(kEx2, fraction); }

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

// log2(x) for x = 1.m 2^k: V = k 2^36 + z, z = log2(1.m) 2^36 from the table (sum >> 2); the
// result is V's magnitude truncated to 24 bits with V's sign, where a negative V's magnitude is
// -V - 1 (its one's complement: no carry chain, as EX2's negative argument). log2(1) is 0
// exactly (the table would give 2^-23.2); every other power of two takes the table's z(0):
// lg2(0.5) = -(1 - 2^-23), measured.
uint32_t mufuLg2(uint32_t a) {
  const uint32_t sign = a & kSign, e = (a >> 23) & 0xFF, m = a & 0x7FFFFF;
  if (e == 0xFF && m) return kNaN;
  if (e == 0) return kSign | kInf;  // +-0 and flushed subnormals: -inf
  if (sign) return kNaN;
  if (e == 0xFF) return kInf;
  if (a == 0x3F800000u) return 0;
  constexpr int kFraction = 36;
  const int64_t z = interpolationSum<17, 19>(kLg2[m >> 17], m) >> 2;
  const int64_t fixed = int64_t{int(e) - 127} * (int64_t{1} << kFraction) + z;
  const uint64_t mag = uint64_t(fixed < 0 ? -fixed - 1 : fixed);  // never 0 here
  return (fixed < 0 ? kSign : 0) | truncatedF32(mag, kFraction);
}

// sin(2 pi t) (quarter = 0) or cos(2 pi t) = sin(2 pi (t + 1/4)) (quarter = 1) of |t|: the
// fraction of a turn T (25 bits, toward zero: an integer t has none), quadrant q = T's top 2
// bits plus the quarter, u = the other 23 (their one's complement when q is odd: sin falls
// there), the table's z = sin(pi/2 u 2^-23) 2^40, negative in quadrants 2 and 3.
namespace {
uint32_t sinCosTurns(uint32_t t, uint32_t quarter) {
  const uint32_t e = (t >> 23) & 0xFF;
  uint64_t turn = 0;                              // |t| 2^25 mod 2^25
  if (e != 0 && e >= 125 - 24 && e < 125 + 25) {  // flushed subnormals and integers: 0
    const uint64_t sig = (t & 0x7FFFFF) | kOne23;
    turn = e >= 125 ? sig << (e - 125) : sig >> (125 - e);
  }
  const uint32_t q = uint32_t(turn >> 23) + quarter;
  const uint32_t r = uint32_t(turn) & 0x7FFFFF;
  const uint32_t u = (q & 1) ? 0x7FFFFF - r : r;
  const auto z = uint64_t(interpolationSum<17, 19>(kSinCos[u >> 17], u));
  return ((q & 2) ? kSign : 0) | (z ? truncatedF32(z, 40) : 0);
}
}  // namespace

uint32_t mufuSin(uint32_t t) {
  if (((t >> 23) & 0xFF) == 0xFF) return kNaN;
  return sinCosTurns(t, 0) ^ (t & kSign);
}
uint32_t mufuCos(uint32_t t) {
  if (((t >> 23) & 0xFF) == 0xFF) return kNaN;
  return sinCosTurns(t, 1);
}

// tanh(x) for 2^k <= |x| < 2^(k+1), -8 <= k <= 2: the binade's rows and G, the sum's significand
// at the top result exponent min(k, -1); a sum below it is a result one binade lower with one
// more bit (sum >> (G - 1)), as a normalizing shift of the fixed-point sum gives.
uint32_t mufuTanh(uint32_t a) {
  const uint32_t sign = a & kSign, mag = a & ~kSign;
  if (mag > kInf) return kNaN;
  if (mag < 0x3B800000u) return a;                    // |x| < 2^-8
  if (mag >= 0x41000000u) return sign | 0x3F800000u;  // |x| >= 8, infinities
  const TanhBinade& b = kTanhBinades[(mag >> 23) - (127 - 8)];
  const uint32_t fraction = (a & 0x7FFFFF) >> b.ignoredBits;
  const int64_t sum = interpolationSum<17, 19>(kTanh[b.firstRow + (fraction >> 17)], fraction);
  const int top = std::min(b.exponent, -1) + 127;
  const auto y = uint32_t(sum >> b.g);
  if (y >= kOne23) return pack(sign, top, y);
  return pack(sign, top - 1, uint32_t(sum >> (b.g - 1)));
}

}  // namespace warpsim::isa::sfu
