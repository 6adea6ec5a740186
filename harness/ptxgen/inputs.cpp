// The input words of generated programs: per kind, a weighted mix of special values (what the
// edge cases of PTX semantics turn on) and random values spread over the whole range.
//
// Stability matters more than elegance here: a recorded case regenerates its inputs from
// (seed, kinds, threads) and checks their hash, so any change to what this file draws for the
// same arguments must bump kInputVersion (and keep the old version's behaviour reachable, or
// re-record).
#include <cstring>
#include <stdexcept>

#include "harness/ptxgen/ptxgen.h"
#include "kernels/random.h"

namespace warpsim::ptxgen {

namespace {

using kernels::Rng;

struct KindName {
  InputKind kind;
  const char* name;
};
constexpr KindName kKindNames[] = {
    {InputKind::Int16, "i16"}, {InputKind::F16, "f16"},     {InputKind::BF16, "bf16"},
    {InputKind::Int32, "i32"}, {InputKind::F16x2, "f16x2"}, {InputKind::BF16x2, "bf16x2"},
    {InputKind::Int64, "i64"}, {InputKind::F32, "f32"},     {InputKind::F64, "f64"},
    {InputKind::Pred, "pred"},
};

// A binary floating-point format: `m` stored fraction bits, `e` exponent bits.
struct Format {
  unsigned m, e;
  unsigned width() const { return 1 + m + e; }
  uint64_t signBit() const { return uint64_t(1) << (m + e); }
  uint64_t expMask() const { return ((uint64_t(1) << e) - 1) << m; }
  uint64_t fracMask() const { return (uint64_t(1) << m) - 1; }
  int bias() const { return (1 << (e - 1)) - 1; }
};
constexpr Format kF16{10, 5}, kBF16{7, 8}, kF32{23, 8}, kF64{52, 11};

// Bits of an exact binary value sign * (1 + frac/2^m) * 2^exp in format f, exp within range.
uint64_t encode(const Format& f, bool neg, int exp, uint64_t frac) {
  return (neg ? f.signBit() : 0) | (uint64_t(exp + f.bias()) << f.m) | (frac & f.fracMask());
}

// A small integer (or a half-integer, to exercise ties of rounding to integral) in format f.
uint64_t smallValue(Rng& rng, const Format& f) {
  const bool neg = rng.bits64() & 1;
  const uint32_t twice = rng.u32(1, 2 * 40);  // 0.5 .. 40 in steps of 0.5
  // twice = 2^k * odd: value = odd * 2^(k-1); the leading bit of odd sets the exponent.
  uint32_t odd = twice;
  int k = 0;
  while (!(odd & 1)) {
    odd >>= 1;
    ++k;
  }
  int top = 31 - __builtin_clz(odd);
  const uint64_t frac = top ? (uint64_t(odd) & ((1u << top) - 1)) << (f.m - top) : 0;
  return encode(f, neg, top + k - 1, frac);
}

uint64_t floatSpecial(Rng& rng, const Format& f) {
  const uint64_t sign = (rng.bits64() & 1) ? f.signBit() : 0;
  const uint64_t quiet = uint64_t(1) << (f.m - 1);
  const uint64_t fracRand = rng.bits64() & f.fracMask();
  switch (rng.u32(0, 16)) {
    case 0:
      return sign;  // +-0
    case 1:
      return sign | f.expMask();  // +-inf
    case 2:
      return f.expMask() | quiet;  // the default quiet NaN
    case 3:
      return f.signBit() | f.expMask() | quiet;  // negative quiet NaN
    case 4:
      return sign | f.expMask() | quiet | fracRand;  // quiet NaN with payload
    case 5:
      return sign | f.expMask() | ((fracRand & (quiet - 1)) | 1);  // signaling NaN
    case 6:
      return sign | (fracRand ? fracRand : 1);  // subnormal
    case 7:
      return sign | 1;  // the smallest subnormal
    case 8:
      return sign | f.fracMask();  // the largest subnormal
    case 9:
      return sign | (uint64_t(1) << f.m);  // the smallest normal
    case 10:
      return sign | (f.expMask() - (uint64_t(1) << f.m)) | f.fracMask();  // the largest finite
    case 11:
      return encode(f, sign, 0, 0);  // +-1
    case 12:
      return encode(f, sign, 0, rng.u32(0, 1) ? 1 : f.fracMask());  // 1 + ulp, 2 - ulp
    case 13: {  // around the integer limits: 2^31, 2^32, 2^63, 2^64, 2^15, 2^16, 2^24, 2^53
      constexpr int exps[] = {7, 8, 15, 16, 24, 31, 32, 53, 63, 64};
      const int e = exps[rng.u32(0, 9)];
      if (e > f.bias()) return sign | f.expMask();
      const uint64_t frac = rng.u32(0, 2) == 0 ? f.fracMask() : rng.u32(0, 1);
      return encode(f, sign, rng.u32(0, 1) ? e : e - 1, frac);
    }
    case 14: {  // a power of two anywhere in range
      const int e = int(rng.u32(0, uint32_t(2 * f.bias()))) - f.bias() + 1;
      return encode(f, sign, e, 0);
    }
    default:
      return smallValue(rng, f);
  }
}

// A random finite value: mostly of moderate magnitude (where sums and products stay finite and
// normal), sometimes anywhere in the exponent range.
uint64_t floatRandom(Rng& rng, const Format& f) {
  const bool neg = rng.bits64() & 1;
  const uint64_t frac = rng.bits64() & f.fracMask();
  const int span = f.bias() < 20 ? f.bias() - 1 : 20;
  int exp;
  if (rng.u32(0, 3))
    exp = int(rng.u32(0, uint32_t(2 * span))) - span;
  else
    exp = int(rng.u32(0, uint32_t(2 * f.bias()))) - f.bias() + 1;
  return encode(f, neg, exp, frac);
}

uint64_t floatWord(Rng& rng, const Format& f) {
  const uint32_t r = rng.u32(0, 99);
  if (r < 40) return floatSpecial(rng, f);
  if (r < 92) return floatRandom(rng, f);
  const uint64_t mask = f.width() == 64 ? ~uint64_t(0) : (uint64_t(1) << f.width()) - 1;
  return rng.bits64() & mask;  // any bits
}

uint64_t intWord(Rng& rng, unsigned width) {
  const uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  const uint64_t top = uint64_t(1) << (width - 1);
  const uint32_t r = rng.u32(0, 99);
  if (r < 22) {  // small integers and shift amounts at and past the widths
    constexpr int64_t small[] = {0,  1,  2,  3,  4,  5,  7,  8,  -1,  -2,  -3,  15,
                                 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256};
    return uint64_t(small[rng.u32(0, sizeof small / sizeof small[0] - 1)]) & mask;
  }
  if (r < 40) {
    switch (rng.u32(0, 9)) {
      case 0:
        return top;  // INT_MIN
      case 1:
        return top - 1;  // INT_MAX
      case 2:
        return mask;  // all ones
      case 3:
        return (top + 1) & mask;  // INT_MIN + 1
      case 4:
        return uint64_t(1) << rng.u32(0, width - 1);  // one bit
      case 5:
        return mask ^ (uint64_t(1) << rng.u32(0, width - 1));  // one bit clear
      case 6:
        return (uint64_t(1) << rng.u32(1, width - 1)) - 1;  // low bits set
      case 7:
        return 0x5555555555555555ull & mask;
      case 8:
        return 0x00FF00FF00FF00FFull & mask;
      default:
        return (width > 16 ? 0x7FFF : 0x7F) & mask;
    }
  }
  if (r < 60) {  // a random value of random magnitude
    const unsigned bits = rng.u32(1, width);
    const uint64_t v = rng.bits64() & (bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1);
    return (rng.bits64() & 1 ? (0 - v) : v) & mask;
  }
  return rng.bits64() & mask;
}

uint64_t drawWord(Rng& rng, InputKind k) {
  switch (k) {
    case InputKind::Int16:
      return intWord(rng, 16);
    case InputKind::F16:
      return floatWord(rng, kF16);
    case InputKind::BF16:
      return floatWord(rng, kBF16);
    case InputKind::Int32:
      return intWord(rng, 32);
    case InputKind::F16x2: {
      const uint64_t lo = floatWord(rng, kF16);
      return lo | floatWord(rng, kF16) << 16;
    }
    case InputKind::BF16x2: {
      const uint64_t lo = floatWord(rng, kBF16);
      return lo | floatWord(rng, kBF16) << 16;
    }
    case InputKind::Int64:
      return intWord(rng, 64);
    case InputKind::F32:
      return floatWord(rng, kF32);
    case InputKind::F64:
      return floatWord(rng, kF64);
    case InputKind::Pred:
      return rng.u32(0, 1);
  }
  return 0;
}

}  // namespace

const char* inputKindName(InputKind k) {
  for (const auto& n : kKindNames)
    if (n.kind == k) return n.name;
  return "?";
}

InputKind inputKindFromName(const std::string& name) {
  for (const auto& n : kKindNames)
    if (name == n.name) return n.kind;
  throw std::invalid_argument("unknown input kind '" + name + "'");
}

std::vector<uint8_t> makeInputs(uint64_t seed, const std::vector<InputKind>& kinds,
                                unsigned threads) {
  Rng rng(seed ^ 0x1f0a2b3c4d5e6f70ull);
  std::vector<uint8_t> out(size_t(threads) * kinds.size() * 8);
  size_t at = 0;
  for (unsigned t = 0; t < threads; ++t)
    for (InputKind k : kinds) {
      const uint64_t w = drawWord(rng, k);
      std::memcpy(out.data() + at, &w, 8);  // little endian, as the GPU reads it
      at += 8;
    }
  return out;
}

}  // namespace warpsim::ptxgen
