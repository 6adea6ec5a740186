// The element types of the matrix instructions (mma, wmma, wgmma) that the rest of warpsim does
// not have: the sub-byte integers .s4/.u4 and the single bit .b1 (modifiers of mma and wmma only,
// so they are words here, not isa::Type), and the exact values of the fp8 elements .e4m3 and
// .e5m2 (one decoder for mma's and wgmma's fp8 forms).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "isa/fp.h"
#include "isa/mods.h"

namespace warpsim::isa::insns {

// The fp8 formats as fp::Format (for the alignment exponents of mmaDot): e4m3's exponent field
// 15 holds normals (OCP "E4M3FN"), which the Format's emin and bias describe all the same.
inline constexpr fp::Format kE4M3{4, 3};
inline constexpr fp::Format kE5M2{5, 2};

// The exact value of an fp8 element's low 8 bits. e4m3 has no infinities; S.1111.111 is its
// only NaN. e5m2 is the upper byte of an f16.
inline double fp8Value(bool e5m2, uint32_t bits) {
  if (e5m2) return fp::f16ToF32(uint16_t(bits << 8));
  if ((bits & 0x7F) == 0x7F) return std::numeric_limits<double>::quiet_NaN();
  const unsigned e = (bits >> 3) & 0xF, m = bits & 7;
  const double v = e ? std::ldexp(double(8 | m), int(e) - 10) : std::ldexp(double(m), -9);
  return (bits & 0x80) ? -v : v;
}

// The exact value of an f16 element, as fp::f16ToF32 gives it (a NaN's payload aside: mmaDot
// turns every NaN into the canonical one), without a branch, so that a loop decoding a
// fragment's elements vectorizes: a subnormal is its integer significand times 2^-24, any
// other encoding its bits moved into a double's fields with the bias changed (15 -> 1023; the
// all-ones exponent of inf/NaN to the double's).
inline double f16Exact(uint16_t h) {
  const uint64_t mag = h & 0x7FFFu;
  const uint64_t bias = mag >= 0x7C00u ? 0x7FF - 0x1F : 1023 - 15;
  const uint64_t wide = (mag << 42) + (bias << 52);
  const uint64_t tiny = fp::bits(double(int32_t(mag)) * 0x1p-24);
  const uint64_t isTiny = uint64_t(0) - uint64_t(mag < 0x400u);  // a select by masks: no branch
  return fp::f64((tiny & isTiny) | (wide & ~isTiny) | uint64_t(h >> 15) << 63);
}

// The element type words of a matrix instruction, in source order: every PTX type word and the
// sub-byte words s4, u4, b1 ("mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32" -> s32 s4 u4 s32).
inline std::vector<std::string> matrixTypeWords(const Mods& m) {
  std::vector<std::string> out;
  for (const std::string& w : m.words)
    if (w == "s4" || w == "u4" || w == "b1" || typeFromName(w)) out.push_back(w);
  return out;
}

}  // namespace warpsim::isa::insns
