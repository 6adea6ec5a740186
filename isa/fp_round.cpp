// The exact rounding engine: one function that every operation of isa/fp.h rounds through.
//
// The input is an exact value (-1)^sign * (sig + s) * 2^exp with 0 <= s < 1 (s > 0 iff sticky).
// The output is the IEEE 754 encoding of that value rounded to the format: the rounding point
// is chosen from the value's leading bit (normal results: manBits + 1 significant bits) or from
// the format's smallest exponent (subnormal results: the quantum 2^(emin - manBits)), so that
// subnormals are rounded once, at their own precision (IEEE 754-2019 4.3, 7.5: gradual
// underflow). No host floating point is involved.
#include <cassert>

#include "isa/fp.h"

namespace warpsim::fp {
namespace {

int msb(u128 v) {  // v != 0
  uint64_t hi = uint64_t(v >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(uint64_t(v));
}

// IEEE 754-2019 7.4: overflow. Round-to-nearest goes to infinity; the directed modes go to
// infinity only on the side they round toward, and to the largest finite number otherwise.
uint64_t overflow(Format f, bool sign, Round r) {
  const uint64_t s = sign ? f.signBit() : 0;
  switch (r) {
    case Round::RN:
    case Round::RNA:
      return s | f.infBits();
    case Round::RZ:
      return s | f.maxFinite();
    case Round::RP:
      return s | (sign ? f.maxFinite() : f.infBits());
    case Round::RM:
      return s | (sign ? f.infBits() : f.maxFinite());
  }
  return s | f.infBits();
}

// (sig + s) >> shift, shift > 0, rounded by `r` (s: the sticky part below bit 0).
u128 roundShift(u128 sig, int64_t shift, bool sticky, Round r, bool sign) {
  u128 q;
  bool half;   // the bit just below the last place
  bool below;  // anything below that bit (the sticky part included)
  if (shift > 128) {
    q = 0, half = false, below = true;  // sig != 0
  } else if (shift == 128) {
    q = 0;
    half = (sig >> 127) != 0;
    below = (sig & ((u128(1) << 127) - 1)) != 0 || sticky;
  } else {
    q = sig >> shift;
    half = ((sig >> (shift - 1)) & 1) != 0;
    below = (sig & ((u128(1) << (shift - 1)) - 1)) != 0 || sticky;
  }
  return q + roundsUp(r, sign, (q & 1) != 0, half, below);
}

}  // namespace

uint64_t roundPack(Format f, bool sign, int exp, u128 sig, bool sticky, Round r, bool ftz) {
  const uint64_t s = sign ? f.signBit() : 0;
  if (sig == 0) {
    assert(!sticky && "roundPack: a sticky part needs significant bits above it");
    return s;
  }
  const int m = f.manBits;
  const int p = msb(sig);
  assert((!sticky || p > m) && "roundPack: the sticky part must lie below the rounding bit");
  const int64_t lead = int64_t(exp) + p;  // exponent of the leading bit
  const bool normal = lead >= f.emin();
  if (normal && lead + f.bias() >= f.maxBiased()) return overflow(f, sign, r);
  if (ftz && !normal) {
    // .ftz flushes a tiny result to a zero of its sign. Tininess is detected after rounding
    // (IEEE 754-2019 7.5): rounded to manBits + 1 bits as though the exponent range were
    // unbounded, the result is below the smallest normal. So a value just below 2^emin that
    // rounds up to it is kept. Measured on the H200 (fma.rn.ftz.f32 giving 2^-126 (1 - 2^-45)
    // -> FLT_MIN, mul.rn.ftz.f32 of -FLT_MIN and 1 - 2^-24 -> -0, cvt.rn.ftz.f32.f64, and
    // fma.rn.ftz.f16 alike).
    const bool tiny =
        lead < f.emin() - 1 || p <= m || (roundShift(sig, p - m, sticky, r, sign) >> (m + 1)) == 0;
    if (tiny) return s;
  }

  // shift = how many low bits of sig lie below the result's last place.
  const int64_t shift = normal ? int64_t(p - m) : int64_t(f.emin() - m) - exp;
  // shift <= 0 is exact: -shift <= m, and q < 2^(m + 1).
  const u128 q = shift <= 0 ? sig << -shift : roundShift(sig, shift, sticky, r, sign);
  // Encoding: a normal result is ((biased exponent - 1) << m) + q with q in [2^m, 2^(m+1)],
  // so a carry out of the significand (q == 2^(m+1)) increments the exponent by itself; a
  // subnormal result is q itself (exponent field 0), and q == 2^m is the smallest normal.
  uint64_t out = normal ? ((uint64_t(lead + f.bias() - 1) << m) + uint64_t(q)) : uint64_t(q);
  if ((out >> m) >= uint64_t(f.maxBiased())) return overflow(f, sign, r);
  return s | out;
}

namespace detail {
uint64_t roundDoubleSlow(Format f, double x, Round r, bool ftz) {
  const Unpacked u = unpack(kF64, bits(x));
  return roundPack(f, u.sign, u.exp, u.sig, false, r, ftz);  // a zero gives a signed zero
}
}  // namespace detail

}  // namespace warpsim::fp
