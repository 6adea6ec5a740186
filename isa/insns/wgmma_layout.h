// Where wgmma.mma_async finds an element of a shared-memory matrix operand (PTX ISA,
// "Asynchronous Warpgroup Level Matrix Shared Memory Layout": "Matrix Descriptor Format",
// "Shared Memory Matrix Layout", "Strides", "Swizzling Modes").
//
// The 64-bit matrix descriptor:
//   bits  0..13  start address        (shared::cta byte address >> 4)
//   bits 16..29  leading dimension byte offset (LBO >> 4)
//   bits 32..45  stride dimension byte offset  (SBO >> 4)
//   bits 49..51  matrix base offset
//   bits 62..63  swizzle mode: 0 none (interleaved 8x16-byte core matrices), 1 128B, 2 64B, 3 32B
//
// A matrix is built of 16-byte units, each contiguous in memory: 16 bytes of one row along the
// contiguous dimension (K for a K-major operand, the default; M or N for an MN-major one, the
// transposed layouts imm-trans-a/b = 1 select for f16/bf16). The canonical layouts, with e the
// element size, W the swizzle width (32, 64 or 128 bytes), mn the row of A (M) or column of B
// (N) and k the position along K (0 .. 32/e - 1: a wgmma's K is always 32 bytes):
//   K-major, no swizzle:  (mn/8)*SBO + (mn%8)*16 + (k*e/16)*LBO + k*e%16
//   K-major, swizzle W:   (mn/8)*SBO + (mn%8)*W  + k*e                (LBO unused: K fits in W)
//   MN-major, no swizzle: (mn*e/16)*SBO + mn*e%16 + (k%8)*16 + (k/8)*LBO
//   MN-major, swizzle W:  (mn*e/W)*LBO  + mn*e%W  + (k%8)*W  + (k/8)*SBO
// (the core matrix of the interleaved layout is 8 rows of 16 bytes, 128 contiguous bytes; a
// swizzled atom is 8 rows of W bytes). Note the swizzled MN-major layouts give LBO and SBO the
// other roles: LBO steps over atoms along M/N, SBO over groups of 8 along K, as CUTLASS's
// canonical GMMA layouts state them. The swizzle then permutes the 16-byte units of the
// absolute shared address: bits 4.. (log2(W/16) of them) are XORed with the same number of
// bits from bit 7 on (Swizzle<1|2|3, 4, 3>), so the pattern repeats every 8 rows of W bytes
// (256, 512, 1024 bytes) and a matrix that starts at such a boundary sees the manual's tables.
// The base offset field is decoded but not applied: the address bits already carry the
// pattern's phase (what code that advances the start address along K inside a 128B atom, as
// CUTLASS and DeepGEMM do, relies on). That choice is one scripts/device_wgmma.sh checks.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

namespace warpsim::isa::insns::wgmma {

enum class Swizzle : uint8_t { None = 0, B128 = 1, B64 = 2, B32 = 3 };

struct Descriptor {
  uint32_t start = 0;  // bytes
  uint32_t lbo = 0;    // bytes
  uint32_t sbo = 0;    // bytes
  uint32_t baseOffset = 0;
  Swizzle swizzle = Swizzle::None;
};

inline Descriptor decode(uint64_t d) {
  Descriptor r;
  r.start = uint32_t(d & 0x3FFF) << 4;
  r.lbo = uint32_t((d >> 16) & 0x3FFF) << 4;
  r.sbo = uint32_t((d >> 32) & 0x3FFF) << 4;
  r.baseOffset = uint32_t((d >> 49) & 7);
  r.swizzle = Swizzle((d >> 62) & 3);
  return r;
}

inline uint64_t encode(const Descriptor& d) {
  return uint64_t((d.start >> 4) & 0x3FFF) | uint64_t((d.lbo >> 4) & 0x3FFF) << 16 |
         uint64_t((d.sbo >> 4) & 0x3FFF) << 32 | uint64_t(d.baseOffset & 7) << 49 |
         uint64_t(d.swizzle) << 62;
}

// The swizzle width in bytes (16 for none: one unit per row).
inline unsigned swizzleBytes(Swizzle s) {
  switch (s) {
    case Swizzle::B128:
      return 128;
    case Swizzle::B64:
      return 64;
    case Swizzle::B32:
      return 32;
    default:
      return 16;
  }
}

// The swizzled shared address of an unswizzled one.
inline uint32_t swizzle(Swizzle s, uint32_t addr) {
  const unsigned bits = s == Swizzle::B128 ? 3 : s == Swizzle::B64 ? 2 : s == Swizzle::B32 ? 1 : 0;
  const uint32_t mask = ((1u << bits) - 1) << 7;
  return addr ^ ((addr & mask) >> 3);
}

// The shared address of the 16-byte unit holding element (mn, k) of an operand, and the byte
// offset of that element inside it. `elemBytes` is 1, 2 or 4; `mnMajor` the transposed layout.
struct UnitAddress {
  uint32_t unit;    // 16-byte aligned when start, LBO and SBO are
  uint32_t within;  // 0..15
};

inline UnitAddress elementAddress(const Descriptor& d, bool mnMajor, unsigned elemBytes,
                                  unsigned mn, unsigned k) {
  const unsigned w = swizzleBytes(d.swizzle);
  const unsigned wShift = unsigned(std::countr_zero(w));  // w is a power of two: no division
  uint32_t off;
  if (!mnMajor) {
    const unsigned kb = k * elemBytes;
    if (d.swizzle == Swizzle::None)
      off = (mn / 8) * d.sbo + (mn % 8) * 16 + (kb / 16) * d.lbo + kb % 16;
    else
      off = (mn / 8) * d.sbo + (mn % 8) * w + kb;
  } else {
    const unsigned mb = mn * elemBytes;
    if (d.swizzle == Swizzle::None)
      off = (mb / 16) * d.sbo + mb % 16 + (k % 8) * 16 + (k / 8) * d.lbo;
    else
      off = (mb >> wShift) * d.lbo + (mb & (w - 1)) + (k % 8) * w + (k / 8) * d.sbo;
  }
  const uint32_t a = swizzle(d.swizzle, d.start + off);
  return {a & ~15u, a & 15u};
}

}  // namespace warpsim::isa::insns::wgmma
