// Half and bfloat16 on the host: round-to-nearest-even encoding from double and exact decoding,
// written out with integer steps so that nothing depends on the host's floating-point
// environment or on compiler support for _Float16/__bf16.
#pragma once

#include <cmath>
#include <cstdint>

namespace warpsim::kernels {

// Rounds a finite or infinite double to a binary format with `mantBits` stored fraction bits
// and `expBits` exponent bits, to nearest, ties to even; returns the encoding. The result is
// correctly rounded when `v` is the exact value (callers keep inputs in ranges where their
// double arithmetic is exact, so that no double rounding occurs).
inline uint32_t roundToBinary(double v, int mantBits, int expBits) {
  const uint32_t signBit = uint32_t(std::signbit(v)) << (mantBits + expBits);
  const uint32_t expMask = (1u << expBits) - 1;
  const uint32_t infBits = expMask << mantBits;
  if (std::isnan(v)) return infBits | (1u << (mantBits - 1));  // the canonical quiet NaN
  const double a = std::fabs(v);
  if (a == 0) return signBit;
  if (std::isinf(a)) return signBit | infBits;
  const int bias = int(expMask >> 1), emin = 1 - bias;
  int e;
  std::frexp(a, &e);                    // a = m * 2^e, m in [0.5, 1)
  int E = e - 1 < emin ? emin : e - 1;  // below emin: the subnormal quantum 2^(emin - mant)
  const double q = std::ldexp(a, mantBits - E);  // a in units of the quantum: exact
  if (q >= 0x1p62) return signBit | infBits;     // far beyond the format
  uint64_t r = uint64_t(q);
  const double frac = q - double(r);
  if (frac > 0.5 || (frac == 0.5 && (r & 1))) ++r;
  if (r >> (mantBits + 1)) {  // rounded up to the next binade
    r >>= 1;
    ++E;
  }
  if (r < (uint64_t(1) << mantBits)) return signBit | uint32_t(r);  // subnormal
  const int field = E + bias;
  if (field >= int(expMask)) return signBit | infBits;
  return signBit | (uint32_t(field) << mantBits) | uint32_t(r - (uint64_t(1) << mantBits));
}

inline double fromBinary(uint32_t bits, int mantBits, int expBits) {
  const uint32_t expMask = (1u << expBits) - 1;
  const bool neg = (bits >> (mantBits + expBits)) & 1;
  const uint32_t field = (bits >> mantBits) & expMask;
  const uint32_t frac = bits & ((1u << mantBits) - 1);
  const int bias = int(expMask >> 1);
  double v;
  if (field == expMask)
    v = frac ? std::nan("") : INFINITY;
  else if (field == 0)
    v = std::ldexp(double(frac), 1 - bias - mantBits);
  else
    v = std::ldexp(double(frac | (1u << mantBits)), int(field) - bias - mantBits);
  return neg ? -v : v;
}

inline uint16_t toHalf(double v) { return uint16_t(roundToBinary(v, 10, 5)); }
inline uint16_t toBf16(double v) { return uint16_t(roundToBinary(v, 7, 8)); }
inline double halfToDouble(uint16_t h) { return fromBinary(h, 10, 5); }
inline double bf16ToDouble(uint16_t b) { return fromBinary(b, 7, 8); }

}  // namespace warpsim::kernels
