// Properties of isa/fp.h against INDEPENDENT references, in every rounding mode:
//  - f32 / f64: the host's own IEEE arithmetic under <cfenv> fesetround (test code only: the
//    library never touches the floating-point environment), on volatile operands;
//  - f16: exact double / __float128 arithmetic, then GCC's _Float16 conversion (libgcc
//    soft-fp, which honours the rounding mode) -- exhaustive over all f16 first operands;
//  - bf16 / tf32: __float128 arithmetic rounded to odd (round toward zero plus the host's
//    inexact flag; 113 >= 8 + 2 bits, Boldo & Melquiond 2008), then a midpoint comparison on
//    the float grid written here from scratch.
// Generators weight special values (NaN, +-inf, +-0, subnormals, FLT_MAX, FLT_MIN, 1, powers of
// two) and cancellations. Also: the inline round-to-nearest fast paths equal the engine.
// The references' host operations read and write volatiles inside a HostRounding scope, which
// keeps them where they are even without -frounding-math (with it is fine too).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/fp.h"

namespace warpsim::fp {
namespace {

using Q = __float128;
constexpr Round kDirected[] = {Round::RN, Round::RZ, Round::RM, Round::RP};

// ---- the host's rounding mode, for references only ------------------------------------------
int feMode(Round r) {
  switch (r) {
    case Round::RZ:
      return FE_TOWARDZERO;
    case Round::RM:
      return FE_DOWNWARD;
    case Round::RP:
      return FE_UPWARD;
    default:
      return FE_TONEAREST;
  }
}
class HostRounding {
 public:
  explicit HostRounding(Round r) : old_(std::fegetround()) { std::fesetround(feMode(r)); }
  ~HostRounding() { std::fesetround(old_); }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

 private:
  int old_;
};

float canon(float x) { return x != x ? f32(kCanonicalNaN32) : x; }
float ftz32(float x, bool ftz) { return ftz ? flushSubnormal(x) : x; }

uint16_t h16(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
_Float16 toHalf(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return h;
}
bool signQ(Q x) {
  uint64_t w[2];
  std::memcpy(w, &x, 16);
  return (w[1] >> 63) != 0;
}
Q pow2q(int e) {  // 2^e exactly, for normal __float128 exponents
  uint64_t w[2] = {0, uint64_t(e + 16383) << 48};
  Q x;
  std::memcpy(&x, w, 16);
  return x;
}
Q setLsbQ(Q x) {
  uint64_t w[2];
  std::memcpy(w, &x, 16);
  w[0] |= 1;
  std::memcpy(&x, w, 16);
  return x;
}

// The expected f64 NaN (see nanResult64 in isa/fp.h, measured on the H200): the first NaN in
// the given priority order, quieted; kInvalidNaN64 when no operand is a NaN.
uint64_t expectedNaN64(std::initializer_list<double> priority) {
  for (double x : priority) {
    if (x != x) return bits(x) | 0x0008000000000000ull;
  }
  return kInvalidNaN64;
}

// ---- the float-grid reference rounding (bf16: drop 16 bits; tf32: drop 13) ---------------------
// x is exact, or rounded to odd with many more bits than the target. Returns f32 encoding bits.
uint32_t refRoundFloatGrid(Q x, int dropBits, Round r) {
  const bool neg = signQ(x);
  const uint32_t sign = neg ? 0x80000000u : 0;
  const Q ax = neg ? -x : x;
  if (ax == 0) return sign;
  volatile Q vx = ax;
  volatile float t;
  {
    HostRounding g(Round::RZ);
    t = float(vx);  // truncation onto the f32 grid (FLT_MAX at most)
  }
  const uint32_t mask = (1u << dropBits) - 1;
  const uint32_t lo = bits(float(t)) & ~mask;  // truncation onto the coarser grid
  const uint32_t hi = lo + mask + 1;           // the next grid point (0x7F800000 = overflow)
  const Q qlo = Q(f32(lo));
  const Q qhi = hi >= 0x7F800000u ? Q(f32(0x7F7FFFFFu)) + Q(f32(0x73800000u)) : Q(f32(hi));
  uint32_t res;
  if (ax == qlo) {
    res = lo;
  } else {
    switch (r) {
      case Round::RZ:
        res = lo;
        break;
      case Round::RP:
        res = neg ? lo : hi;
        break;
      case Round::RM:
        res = neg ? hi : lo;
        break;
      default: {
        const Q mid = (qlo + qhi) / 2;
        if (ax < mid) {
          res = lo;
        } else if (ax > mid) {
          res = hi;
        } else {
          res = (r == Round::RNA || ((lo >> dropBits) & 1)) ? hi : lo;
        }
      }
    }
  }
  return sign | res;
}
uint16_t refBF16(Q x, Round r) { return uint16_t(refRoundFloatGrid(x, 16, r) >> 16); }

// A __float128 operation op(a, b, c) in mode r, or rounded to odd when it is inexact (see the
// top). The operands pass through volatiles so that the two evaluations stay two.
template <class Op>
Q q128(Round r, Q a, Q b, Q c, Op op) {
  volatile Q va = a, vb = b, vc = c;
  volatile Q exact, odd;
  int inexact;
  {
    HostRounding g(r);
    exact = op(Q(va), Q(vb), Q(vc));
  }
  {
    HostRounding g(Round::RZ);
    std::feclearexcept(FE_INEXACT);
    odd = op(Q(va), Q(vb), Q(vc));
    inexact = std::fetestexcept(FE_INEXACT);
  }
  return inexact ? setLsbQ(odd) : Q(exact);
}

// .ftz tininess (IEEE 754-2019 7.5, "after rounding"): is v, rounded to the target's precision
// in mode r as though the exponent range were unbounded, below the smallest normal? Scaling by
// 2^64 moves every interesting value into the normal range, where the host's conversion rounds
// at full precision. v is exact or rounded to odd (many more bits than the target).
bool tiny32(Q v, Round r) {
  if (v == 0) return false;
  volatile Q scaled = v * pow2q(64);
  volatile float f;
  {
    HostRounding g(r);
    f = float(scaled);
  }
  return std::fabs(float(f)) < 0x1p-62f;
}
bool tiny16(double v, Round r) {  // v exact
  if (v == 0) return false;
  volatile double scaled = v * 0x1p20;
  volatile _Float16 h;
  {
    HostRounding g(r);
    h = _Float16(scaled);
  }
  return std::fabs(double(h)) < 64.0;  // 2^-14 * 2^20
}
float signedZero32(Q v) { return signQ(v) ? -0.0f : 0.0f; }

// ---- generators ---------------------------------------------------------------------------
rc::Gen<uint32_t> raw32() { return rc::gen::resize(100, rc::gen::arbitrary<uint32_t>()); }
rc::Gen<uint64_t> raw64() { return rc::gen::resize(100, rc::gen::arbitrary<uint64_t>()); }

rc::Gen<uint32_t> gen32() {
  using namespace rc;
  return gen::weightedOneOf<uint32_t>({
      {4, gen::element<uint32_t>(0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FFFFFFF,
                                 0x7FC00000, 0xFFC00001, 0x7F800001, 0x00800000, 0x80800000,
                                 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F000000,
                                 0x40000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x4B800000,
                                 0x4B800001, 0x3F7FFFFF, 0x3F800001, 0x5F000000, 0xCF000000,
                                 0x4F800000, 0x477FE000, 0x477FF000, 0x33800000, 0x00400000)},
      {2, gen::map(raw32(), [](uint32_t x) { return x & 0x807FFFFFu; })},  // subnormal
      {1, gen::map(raw32(), [](uint32_t x) { return x & 0x81FFFFFFu; })},  // near FLT_MIN
      {1, gen::map(raw32(), [](uint32_t x) { return (x & 0x80FFFFFFu) | 0x7E000000u; })},
      {2, gen::map(raw32(), [](uint32_t x) { return (x & 0x807FFFFFu) | 0x3F800000u; })},
      {1, gen::map(raw32(), [](uint32_t x) { return (x & 0x80003FFFu) | 0x3F800000u; })},
      {6, raw32()},
  });
}
rc::Gen<uint64_t> gen64() {
  using namespace rc;
  return gen::weightedOneOf<uint64_t>({
      {4, gen::element<uint64_t>(0, 0x8000000000000000, 0x7FF0000000000000, 0xFFF0000000000000,
                                 0x7FF8000000000000, 0xFFF8000000000123, 0x7FF0000000000001,
                                 0x0010000000000000, 0x7FEFFFFFFFFFFFFF, 0x3FF0000000000000,
                                 0xBFF0000000000000, 0x0000000000000001, 0x000FFFFFFFFFFFFF,
                                 0x3FE0000000000000, 0x43E0000000000000, 0xC3E0000000000000,
                                 0x41E0000000000000, 0x4330000000000001, 0x3FF0000000000001,
                                 0x3FEFFFFFFFFFFFFF, 0x3690000000000000, 0x47EFFFFFF0000000)},
      {2, gen::map(raw64(), [](uint64_t x) { return uint64_t(x & 0x800FFFFFFFFFFFFFull); })},
      {1, gen::map(raw64(), [](uint64_t x) { return uint64_t(x & 0x803FFFFFFFFFFFFFull); })},
      {1, gen::map(raw64(),
                   [](uint64_t x) {
                     return uint64_t((x & 0x801FFFFFFFFFFFFFull) | 0x7FC0000000000000ull);
                   })},
      {2, gen::map(raw64(),
                   [](uint64_t x) {
                     return uint64_t((x & 0x800FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
                   })},
      // f32-range values and values next to f32 ties (where f64 -> f32/f16/bf16 matter).
      {2, gen::map(raw64(),
                   [](uint64_t x) {
                     return uint64_t((x & 0x80FFFFFFFFFFFFFFull) |
                                     (uint64_t(0x360 + (x >> 53) % 0x140) << 52));
                   })},
      {2, gen::map(raw64(),
                   [](uint64_t x) {
                     return uint64_t((bits(double(f32(uint32_t(x)))) | 0x0000000010000000ull) +
                                     ((x >> 32) % 3) - 1);
                   })},
      {5, raw64()},
  });
}
rc::Gen<uint16_t> gen16() {
  using namespace rc;
  return gen::weightedOneOf<uint16_t>({
      {1, gen::element<uint16_t>(0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7FFF, 0x0001, 0x03FF,
                                 0x0400, 0x7BFF, 0x3C00, 0xBC00, 0x7F80, 0xFF80, 0x7FC0, 0x0080,
                                 0x007F, 0x3F80, 0x7F7F)},
      {6, gen::map(raw32(), [](uint32_t x) { return uint16_t(x); })},
  });
}
// A second operand that is often close to the first (or its negation): cancellation and ties.
uint32_t partner32(uint32_t a, uint32_t pick, uint32_t other) {
  switch (pick % 4) {
    case 0:
      return (a ^ (pick & 4 ? 0x80000000u : 0)) + ((pick >> 3) % 7) - 3;
    case 1:
      return (a & 0x807FFFFFu) | (other & 0x7F800000u);
    default:
      return other;
  }
}
uint64_t partner64(uint64_t a, uint64_t pick, uint64_t other) {
  switch (pick % 4) {
    case 0:
      return (a ^ (pick & 4 ? 0x8000000000000000ull : 0)) + ((pick >> 3) % 7) - 3;
    case 1:
      return (a & 0x800FFFFFFFFFFFFFull) | (other & 0x7FF0000000000000ull);
    default:
      return other;
  }
}

constexpr int kBatch = 64;

// Counts mismatches of an exhaustive sweep and reports the first few.
class Mismatches {
 public:
  template <class Want, class Got, class Ctx>
  void check(Want want, Got got, Ctx&& ctx) {
    if (uint64_t(want) == uint64_t(got)) return;
    if (++count_ <= 5) {
      ADD_FAILURE() << std::hex << "want " << uint64_t(want) << " got " << uint64_t(got) << " "
                    << ctx();
    }
  }
  int count() const { return count_; }

 private:
  int count_ = 0;
};

// ---- f32 against the host ------------------------------------------------------------------
struct F32Case {
  float a, b, c;
};
std::vector<F32Case> f32Cases() {
  const auto as = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  const auto bs = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  const auto cs = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  const auto picks = *rc::gen::container<std::vector<uint32_t>>(kBatch, raw32());
  std::vector<F32Case> out;
  for (int i = 0; i < kBatch; ++i) {
    const float a = f32(as[i]), b = f32(partner32(as[i], picks[i], bs[i]));
    float c = f32(cs[i]);
    if ((picks[i] >> 8) % 3 == 0) c = f32((bits(a * b) ^ 0x80000000u) + (picks[i] >> 12) % 5 - 2);
    out.push_back({a, b, c});
  }
  return out;
}

RC_GTEST_PROP(FpProperty, F32ArithmeticMatchesHostInEveryMode, ()) {
  for (const F32Case& k : f32Cases()) {
    for (Round r : kDirected) {
      for (bool ftz : {false, true}) {
        const float a = ftz32(k.a, ftz), b = ftz32(k.b, ftz), c = ftz32(k.c, ftz);
        volatile float va = a, vb = b, vc = c, one = 1.0f;
        volatile float s, d, p, q, f, rt, rc;
        {
          HostRounding g(r);
          s = va + vb;
          d = va - vb;
          p = va * vb;
          q = va / vb;
          f = std::fma(float(va), float(vb), float(vc));
          rt = std::sqrt(float(va));
          rc = one / va;
        }
        // Under .ftz a tiny result is a zero of its sign (the square root of a normal number
        // is never tiny).
        const Q qa = a, qb = b, qc = c, q1 = 1;
        auto want = [&](float host, Q qa_, Q qb_, Q qc_, auto op) {
          if (!ftz || host != host) return bits(canon(host));
          const Q v = q128(r, qa_, qb_, qc_, op);
          return tiny32(v, r) ? bits(signedZero32(v)) : bits(host);
        };
        RC_ASSERT(want(s, qa, qb, 0, [](Q x, Q y, Q) { return x + y; }) ==
                  bits(add(k.a, k.b, r, ftz)));
        RC_ASSERT(want(d, qa, qb, 0, [](Q x, Q y, Q) { return x - y; }) ==
                  bits(sub(k.a, k.b, r, ftz)));
        RC_ASSERT(want(p, qa, qb, 0, [](Q x, Q y, Q) { return x * y; }) ==
                  bits(mul(k.a, k.b, r, ftz)));
        RC_ASSERT(want(q, qa, qb, 0, [](Q x, Q y, Q) { return x / y; }) ==
                  bits(div(k.a, k.b, r, ftz)));
        RC_ASSERT(want(f, qa, qb, qc, [](Q x, Q y, Q z) { return x * y + z; }) ==
                  bits(fma(k.a, k.b, k.c, r, ftz)));
        RC_ASSERT(bits(canon(rt)) == bits(sqrt(k.a, r, ftz)));
        RC_ASSERT(want(rc, q1, qa, 0, [](Q x, Q y, Q) { return x / y; }) == bits(rcp(k.a, r, ftz)));
      }
    }
  }
}

RC_GTEST_PROP(FpProperty, TypedOperationsEqualTheEngineInEveryMode, ()) {
  // The typed functions take fast routes (host arithmetic, exact doubles, encoding-level
  // rounding); the engine (addBits, ..., convertBits, roundPack) is the definition.
  const auto hs = *rc::gen::container<std::vector<uint16_t>>(3 * kBatch, gen16());
  const auto ds = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  const auto is = *rc::gen::container<std::vector<uint64_t>>(kBatch, raw64());
  const auto sh = *rc::gen::container<std::vector<uint32_t>>(kBatch, rc::gen::inRange(0u, 64u));
  const std::vector<F32Case> fs = f32Cases();
  for (int i = 0; i < kBatch; ++i) {
    const F32Case& k = fs[i];
    const uint32_t a = bits(k.a), b = bits(k.b), c = bits(k.c);
    const uint16_t x = hs[3 * i], y = hs[3 * i + 1], z = hs[3 * i + 2];
    const double d = f64(ds[i]);
    const uint64_t v = is[i] >> sh[i];
    for (Round r : {Round::RN, Round::RZ, Round::RM, Round::RP, Round::RNA}) {
      for (bool ftz : {false, true}) {
        RC_ASSERT(addBits(kF32, a, b, r, ftz) == bits(add(k.a, k.b, r, ftz)));
        RC_ASSERT(subBits(kF32, a, b, r, ftz) == bits(sub(k.a, k.b, r, ftz)));
        RC_ASSERT(mulBits(kF32, a, b, r, ftz) == bits(mul(k.a, k.b, r, ftz)));
        RC_ASSERT(fmaBits(kF32, a, b, c, r, ftz) == bits(fma(k.a, k.b, k.c, r, ftz)));
        RC_ASSERT(divBits(kF32, a, b, r, ftz) == bits(div(k.a, k.b, r, ftz)));
        RC_ASSERT(sqrtBits(kF32, a, r, ftz) == bits(sqrt(k.a, r, ftz)));
        RC_ASSERT(addBits(kF16, x, y, r, ftz) == addF16(x, y, r, ftz));
        RC_ASSERT(subBits(kF16, x, y, r, ftz) == subF16(x, y, r, ftz));
        RC_ASSERT(mulBits(kF16, x, y, r, ftz) == mulF16(x, y, r, ftz));
        RC_ASSERT(fmaBits(kF16, x, y, z, r, ftz) == fmaF16(x, y, z, r, ftz));
        if (!isNaN(d))
          RC_ASSERT(convertBits(kF64, kF32, ds[i], r, ftz) == bits(f64ToF32(d, r, ftz)));
      }
      RC_ASSERT(addBits(kBF16, x, y, r, false) == addBF16(x, y, r));
      RC_ASSERT(subBits(kBF16, x, y, r, false) == subBF16(x, y, r));
      RC_ASSERT(mulBits(kBF16, x, y, r, false) == mulBF16(x, y, r));
      RC_ASSERT(fmaBits(kBF16, x, y, z, r, false) == fmaBF16(x, y, z, r));
      RC_ASSERT(convertBits(kF32, kF16, a, r) == f32ToF16(k.a, r));
      RC_ASSERT(convertBits(kF32, kBF16, a, r) == f32ToBF16(k.a, r));
      if (!isNaN(k.a)) {
        const uint64_t t = convertBits(kF32, kTF32, a, r);
        const uint32_t tf = uint32_t(t & kTF32.signBit() ? 0x80000000u : 0) |
                            uint32_t((t & ~kTF32.signBit()) << 13);
        RC_ASSERT(tf == bits(f32ToTF32(k.a, r)));
      }
      if (!isNaN(d)) {
        RC_ASSERT(convertBits(kF64, kF32, ds[i], r) == bits(f64ToF32(d, r)));
        RC_ASSERT(convertBits(kF64, kF16, ds[i], r) == f64ToF16(d, r));
        RC_ASSERT(convertBits(kF64, kBF16, ds[i], r) == f64ToBF16(d, r));
      }
      if (!isNaN16(x)) RC_ASSERT(convertBits(kF16, kF32, x, r) == bits(f16ToF32(x)));
      if (!isNaN(k.a)) RC_ASSERT(convertBits(kF32, kF64, a, r) == bits(f32ToF64(k.a)));
      for (bool sg : {false, true}) {
        const bool neg = sg && int64_t(v) < 0;
        const uint64_t mag = neg ? uint64_t(0) - v : v;
        auto viaEngine = [&](Format f) {
          return mag == 0 ? 0 : roundPack(f, neg, 0, mag, false, r);
        };
        RC_ASSERT(viaEngine(kF32) == bits(intToF32(v, sg, r)));
        RC_ASSERT(viaEngine(kF64) == bits(intToF64(v, sg, r)));
        RC_ASSERT(viaEngine(kF16) == intToF16(v, sg, r));
        RC_ASSERT(viaEngine(kBF16) == intToBF16(v, sg, r));
      }
    }
  }
}

// ---- f64 against the host ------------------------------------------------------------------
struct F64Case {
  double a, b, c;
};
std::vector<F64Case> f64Cases() {
  const auto as = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  const auto bs = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  const auto cs = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  const auto picks = *rc::gen::container<std::vector<uint64_t>>(kBatch, raw64());
  std::vector<F64Case> out;
  for (int i = 0; i < kBatch; ++i) {
    const double a = f64(as[i]), b = f64(partner64(as[i], picks[i], bs[i]));
    double c = f64(cs[i]);
    if ((picks[i] >> 8) % 3 == 0) {
      c = f64((bits(a * b) ^ 0x8000000000000000ull) + (picks[i] >> 12) % 5 - 2);
    }
    out.push_back({a, b, c});
  }
  return out;
}

uint64_t expect64(double host, std::initializer_list<double> priority) {
  return host != host ? expectedNaN64(priority) : bits(host);
}

RC_GTEST_PROP(FpProperty, F64ArithmeticMatchesHostInEveryMode, ()) {
  for (const F64Case& k : f64Cases()) {
    for (Round r : kDirected) {
      volatile double va = k.a, vb = k.b, vc = k.c, one = 1.0;
      volatile double s, d, p, q, f, rt, rc;
      {
        HostRounding g(r);
        s = va + vb;
        d = va - vb;
        p = va * vb;
        q = va / vb;
        f = std::fma(double(va), double(vb), double(vc));
        rt = std::sqrt(double(va));
        rc = one / va;
      }
      RC_ASSERT(expect64(s, {k.a, k.b}) == bits(add(k.a, k.b, r)));
      RC_ASSERT(expect64(d, {k.a, k.b}) == bits(sub(k.a, k.b, r)));
      RC_ASSERT(expect64(p, {k.a, k.b}) == bits(mul(k.a, k.b, r)));
      RC_ASSERT(expect64(q, {k.a, k.b}) == bits(div(k.a, k.b, r)));
      RC_ASSERT(expect64(f, {k.a, k.c, k.b}) == bits(fma(k.a, k.b, k.c, r)));
      RC_ASSERT(expect64(rt, {k.a}) == bits(sqrt(k.a, r)));
      RC_ASSERT(expect64(rc, {k.a}) == bits(rcp(k.a, r)));
    }
  }
}

RC_GTEST_PROP(FpProperty, F64EngineMatchesHostInEveryMode, ()) {
  // The raw engine (canonical NaNs) against the host, including round to nearest, where the
  // typed functions use the host themselves.
  for (const F64Case& k : f64Cases()) {
    for (Round r : kDirected) {
      volatile double va = k.a, vb = k.b, vc = k.c;
      volatile double s, p, q, f, rt;
      {
        HostRounding g(r);
        s = va + vb;
        p = va * vb;
        q = va / vb;
        f = std::fma(double(va), double(vb), double(vc));
        rt = std::sqrt(double(va));
      }
      auto c64 = [](double x) { return x != x ? kCanonicalNaN64 : bits(x); };
      const uint64_t a = bits(k.a), b = bits(k.b), c = bits(k.c);
      RC_ASSERT(c64(s) == addBits(kF64, a, b, r, false));
      RC_ASSERT(c64(p) == mulBits(kF64, a, b, r, false));
      RC_ASSERT(c64(q) == divBits(kF64, a, b, r, false));
      RC_ASSERT(c64(f) == fmaBits(kF64, a, b, c, r, false));
      RC_ASSERT(c64(rt) == sqrtBits(kF64, a, r, false));
    }
  }
}

// ---- f16 --------------------------------------------------------------------------------
// Operands b for the exhaustive sweeps: specials plus a fixed spread of ordinary values.
std::vector<uint16_t> f16Partners() {
  std::vector<uint16_t> v = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x83FF,
                             0x0400, 0x7BFF, 0x3C00, 0xBC00, 0x3800, 0x4000, 0x1000};
  uint32_t x = 0x9E3779B9u;
  while (v.size() < 24) {
    x = x * 1664525u + 1013904223u;
    v.push_back(uint16_t(x >> 16));
  }
  return v;
}

uint16_t refF16(double exact, Round r) {
  volatile double v = exact;
  volatile _Float16 h;
  {
    HostRounding g(r);
    h = _Float16(v);
  }
  const uint16_t b = h16(h);
  return isNaN16(b) ? kCanonicalNaN16 : b;
}

TEST(FpProperty, F16AddSubMulExhaustiveFirstOperand) {
  // f16 sums, differences and products are exact in double (at most 41 significant bits
  // between 2^-48 and 2^32), so one rounding of that double is the correctly rounded result.
  const std::vector<uint16_t> partners = f16Partners();
  Mismatches m;
  for (uint32_t ai = 0; ai < 65536; ++ai) {
    const uint16_t a = uint16_t(ai);
    for (uint16_t b : partners) {
      for (Round r : kDirected) {
        for (bool ftz : {false, true}) {
          if (ftz && r != Round::RN && r != Round::RZ) continue;
          const uint16_t fa = ftz ? flushSubnormal16(a) : a, fb = ftz ? flushSubnormal16(b) : b;
          const double x = double(toHalf(fa)), y = double(toHalf(fb));
          volatile double vx = x, vy = y, s, d, p;
          {
            HostRounding g(r);
            s = vx + vy;
            d = vx - vy;
            p = vx * vy;
          }
          // Under .ftz a tiny result (after rounding, unbounded exponent) is a signed zero.
          auto fl = [ftz, r](double exact, uint16_t h) -> uint16_t {
            if (!ftz || isNaN16(h) || !tiny16(exact, r)) return h;
            return std::signbit(exact) ? 0x8000 : 0x0000;
          };
          auto ctx = [&] {
            return "a=" + std::to_string(a) + " b=" + std::to_string(b) +
                   " r=" + std::to_string(int(r)) + " ftz=" + std::to_string(ftz);
          };
          m.check(fl(s, refF16(s, r)), addF16(a, b, r, ftz), ctx);
          m.check(fl(d, refF16(d, r)), subF16(a, b, r, ftz), ctx);
          m.check(fl(p, refF16(p, r)), mulF16(a, b, r, ftz), ctx);
        }
      }
    }
  }
  EXPECT_EQ(0, m.count());
}

RC_GTEST_PROP(FpProperty, F16FmaMatchesExactQuad, ()) {
  // a * b + c of f16 values spans at most 81 bits (2^-48 .. 2^33): exact in __float128.
  const auto as = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  const auto bs = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  const auto cs = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  for (int i = 0; i < kBatch; ++i) {
    for (Round r : kDirected) {
      for (bool ftz : {false, true}) {
        auto fl = [ftz](uint16_t h) { return ftz ? flushSubnormal16(h) : h; };
        const uint16_t a = fl(as[i]), b = fl(bs[i]), c = fl(cs[i]);  // inputs flushed
        volatile Q qa = Q(double(toHalf(a))), qb = Q(double(toHalf(b))), qc = Q(double(toHalf(c)));
        volatile Q q;
        volatile _Float16 h;
        {
          HostRounding g(r);
          q = qa * qb + qc;
          h = _Float16(q);
        }
        uint16_t want = h16(h);
        if (isNaN16(want)) {
          want = kCanonicalNaN16;
        } else if (ftz) {
          // Tiny after rounding at 11 bits with an unbounded exponent: scaled by 2^20, the
          // exact value (81 bits at most) rounds in the normal range.
          volatile Q scaled = q * pow2q(20);
          volatile _Float16 hs;
          {
            HostRounding g(r);
            hs = _Float16(scaled);
          }
          if (q != 0 && std::fabs(double(hs)) < 64.0) want = signQ(q) ? 0x8000 : 0x0000;
        }
        RC_ASSERT(want == fmaF16(as[i], bs[i], cs[i], r, ftz));
      }
    }
  }
}

TEST(FpProperty, F16ToWideExhaustive) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = uint16_t(i);
    const float wantF = isNaN16(h) ? f32(kCanonicalNaN32) : float(toHalf(h));
    // NaN -> f64 (measured on the H200): sign kept, quieted, payload shifted up.
    const double wantD = isNaN16(h) ? f64((uint64_t(h & 0x8000) << 48) | 0x7FF8000000000000ull |
                                          (uint64_t(h & 0x3FF) << 42))
                                    : double(toHalf(h));
    ASSERT_EQ(bits(wantF), bits(f16ToF32(h))) << std::hex << h;
    ASSERT_EQ(bits(wantD), bits(f16ToF64(h))) << std::hex << h;
  }
}

TEST(FpProperty, F16FromWideAtEveryValueAndMidpoint) {
  // Every finite f16 value, each midpoint to the next one up, and their f32 / f64 neighbours,
  // in both signs and every mode (RNA: a midpoint goes away from zero, the rest as RN).
  Mismatches m;
  for (uint32_t i = 0; i < 0x7C00; ++i) {
    const double v = double(toHalf(uint16_t(i)));
    const double next = i + 1 == 0x7C00 ? 65536.0 : double(toHalf(uint16_t(i + 1)));
    const double mid = (v + next) / 2;  // exact in double
    for (double base : {v, mid}) {
      const float fb = float(base);  // exact: f16 midpoints have at most 12 significant bits
      for (float x : {fb, std::nextafter(fb, 0.0f), std::nextafter(fb, 1e30f)}) {
        for (float sx : {x, -x}) {
          for (Round r : {Round::RN, Round::RZ, Round::RM, Round::RP, Round::RNA}) {
            uint16_t want;
            if (r == Round::RNA) {
              want = refF16(sx, Round::RN);
              if (std::fabs(double(sx)) == mid) want = uint16_t((i + 1) | (sx < 0 ? 0x8000 : 0));
            } else {
              want = refF16(sx, r);
            }
            m.check(want, f32ToF16(sx, r), [&] {
              return "f32ToF16 " + std::to_string(bits(sx)) + " r=" + std::to_string(int(r));
            });
          }
        }
      }
      for (double x : {base, std::nextafter(base, 0.0), std::nextafter(base, 1e300)}) {
        for (double sx : {x, -x}) {
          for (Round r : kDirected) {
            m.check(refF16(sx, r), f64ToF16(sx, r), [&] {
              return "f64ToF16 " + std::to_string(bits(sx)) + " r=" + std::to_string(int(r));
            });
          }
        }
      }
    }
  }
  EXPECT_EQ(0, m.count());
}

// ---- bf16 -------------------------------------------------------------------------------
double bfToD(uint16_t h) { return double(f32(uint32_t(h) << 16)); }

TEST(FpProperty, BF16AddSubMulExhaustiveFirstOperand) {
  const std::vector<uint16_t> partners = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0, 0x0001,
                                          0x807F, 0x0080, 0x7F7F, 0x3F80, 0xBF80, 0x3F00,
                                          0x4000, 0x3B80, 0x1234, 0xC321, 0x4F00, 0x2001};
  Mismatches m;
  for (uint32_t ai = 0; ai < 65536; ai += 3) {
    const uint16_t a = uint16_t(ai);
    for (uint16_t b : partners) {
      for (Round r : kDirected) {
        const Q x = Q(bfToD(a)), y = Q(bfToD(b));
        auto want = [&](auto op) -> uint16_t {
          if (isNaNBF16(a) || isNaNBF16(b)) return kCanonicalNaNBF16;
          const Q v = q128(r, x, y, 0, op);
          return v != v ? kCanonicalNaNBF16 : refBF16(v, r);
        };
        m.check(want([](Q p, Q q, Q) { return p + q; }), addBF16(a, b, r), [&] {
          return "addBF16 a=" + std::to_string(a) + " b=" + std::to_string(b) +
                 " r=" + std::to_string(int(r));
        });
        m.check(want([](Q p, Q q, Q) { return p - q; }), subBF16(a, b, r), [&] {
          return "subBF16 a=" + std::to_string(a) + " b=" + std::to_string(b) +
                 " r=" + std::to_string(int(r));
        });
        m.check(want([](Q p, Q q, Q) { return p * q; }), mulBF16(a, b, r), [&] {
          return "mulBF16 a=" + std::to_string(a) + " b=" + std::to_string(b) +
                 " r=" + std::to_string(int(r));
        });
      }
    }
  }
  EXPECT_EQ(0, m.count());
}

RC_GTEST_PROP(FpProperty, BF16FmaMatchesRoundToOddQuad, ()) {
  const auto as = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  const auto bs = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  const auto cs = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  for (int i = 0; i < kBatch; ++i) {
    for (Round r : kDirected) {
      const uint16_t a = as[i], b = bs[i], c = cs[i];
      uint16_t want = kCanonicalNaNBF16;
      if (!isNaNBF16(a) && !isNaNBF16(b) && !isNaNBF16(c)) {
        const Q x = Q(bfToD(a)), y = Q(bfToD(b)), z = Q(bfToD(c));
        const Q v = q128(r, x, y, z, [](Q p, Q q, Q w) { return p * q + w; });  // p * q is exact
        if (v == v) want = refBF16(v, r);
      }
      RC_ASSERT(want == fmaBF16(a, b, c, r));
    }
  }
}

TEST(FpProperty, BF16FromWideAtEveryValueAndMidpoint) {
  Mismatches m;
  for (uint32_t i = 0; i < 0x7F80; ++i) {
    const double v = bfToD(uint16_t(i));
    const double next = i + 1 == 0x7F80 ? std::ldexp(1.0, 128) : bfToD(uint16_t(i + 1));
    const double mid = (v + next) / 2;
    for (double base : {v, mid}) {
      const float fb = float(base);  // exact
      for (float x : {fb, std::nextafter(fb, 0.0f), std::nextafter(fb, 1e38f)}) {
        if (std::isinf(x)) continue;
        for (float sx : {x, -x}) {
          for (Round r : kDirected) {
            m.check(refBF16(Q(sx), r), f32ToBF16(sx, r), [&] {
              return "f32ToBF16 " + std::to_string(bits(sx)) + " r=" + std::to_string(int(r));
            });
          }
        }
      }
      for (double x : {base, std::nextafter(base, 0.0), std::nextafter(base, 1e300)}) {
        for (double sx : {x, -x}) {
          for (Round r : kDirected) {
            m.check(refBF16(Q(sx), r), f64ToBF16(sx, r), [&] {
              return "f64ToBF16 " + std::to_string(bits(sx)) + " r=" + std::to_string(int(r));
            });
          }
        }
      }
    }
  }
  EXPECT_EQ(0, m.count());
}

TEST(FpProperty, BF16ToWideExhaustive) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = uint16_t(i);
    const float wantF = f32(uint32_t(h) << 16);  // NaN too, unquieted (measured on the H200)
    ASSERT_EQ(bits(wantF), bits(bf16ToF32(h))) << std::hex << h;
    const double wantD =
        isNaNBF16(h)
            ? f64((uint64_t(h & 0x8000) << 48) | 0x7FF8000000000000ull | (uint64_t(h & 0x7F) << 45))
            : double(wantF);
    ASSERT_EQ(bits(wantD), bits(bf16ToF64(h))) << std::hex << h;
  }
}

// ---- other conversions -------------------------------------------------------------------
RC_GTEST_PROP(FpProperty, F32ToTF32MatchesGridReference, ()) {
  const auto xs = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  for (uint32_t xb : xs) {
    const float x = f32(xb);
    for (Round r : {Round::RN, Round::RZ, Round::RM, Round::RP, Round::RNA}) {
      // NaN (measured on the H200): .rna clears the low 13 bits, the others give 0x7FFFE000.
      const uint32_t want = isNaN(x)        ? (r == Round::RNA ? xb & ~0x1FFFu : 0x7FFFE000u)
                            : isInfinite(x) ? xb
                                            : refRoundFloatGrid(Q(x), 13, r);
      RC_ASSERT(want == bits(f32ToTF32(x, r)));
    }
  }
}

RC_GTEST_PROP(FpProperty, F64ToF32MatchesHost, ()) {
  const auto xs = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  for (uint64_t xb : xs) {
    for (Round r : kDirected) {
      volatile double vx = f64(xb);
      volatile float y;
      {
        HostRounding g(r);
        y = float(vx);
      }
      // NaN (measured on the H200, and what x86's cvtsd2ss does too): quieted, sign kept,
      // payload truncated to its top 23 bits.
      const uint32_t nan = uint32_t(xb >> 32 & 0x80000000u) | 0x7FC00000u |
                           uint32_t((xb & 0x000FFFFFFFFFFFFFull) >> 29);
      const bool isnan = f64(xb) != f64(xb);
      RC_ASSERT((isnan ? nan : bits(float(y))) == bits(f64ToF32(f64(xb), r)));
      if (!isnan) RC_ASSERT(convertBits(kF64, kF32, xb, r) == bits(f64ToF32(f64(xb), r)));
      // cvt.ftz.f32.f64: a tiny result is a signed zero.
      const uint32_t wantFtz = isnan                   ? nan
                               : tiny32(Q(f64(xb)), r) ? bits(signedZero32(Q(f64(xb))))
                                                       : bits(float(y));
      RC_ASSERT(wantFtz == bits(f64ToF32(f64(xb), r, true)));
    }
  }
}

RC_GTEST_PROP(FpProperty, IntToFloatMatchesHost, ()) {
  const auto raws = *rc::gen::container<std::vector<uint64_t>>(kBatch, raw64());
  const auto shifts = *rc::gen::container<std::vector<uint32_t>>(kBatch, rc::gen::inRange(0u, 64u));
  for (int i = 0; i < kBatch; ++i) {
    const uint64_t v = raws[i] >> shifts[i];
    for (uint64_t x : {v, uint64_t(0) - v, uint64_t(int64_t(int32_t(uint32_t(v))))}) {
      for (Round r : kDirected) {
        volatile int64_t vs = int64_t(x);
        volatile uint64_t vu = x;
        volatile float fs, fu;
        volatile double ds, du;
        volatile _Float16 hs, hu;
        {
          HostRounding g(r);
          fs = float(vs);
          fu = float(vu);
          ds = double(vs);
          du = double(vu);
          hs = _Float16(vs);
          hu = _Float16(vu);
        }
        RC_ASSERT(bits(float(fs)) == bits(intToF32(x, true, r)));
        RC_ASSERT(bits(float(fu)) == bits(intToF32(x, false, r)));
        RC_ASSERT(bits(double(ds)) == bits(intToF64(x, true, r)));
        RC_ASSERT(bits(double(du)) == bits(intToF64(x, false, r)));
        RC_ASSERT(h16(hs) == intToF16(x, true, r));
        RC_ASSERT(h16(hu) == intToF16(x, false, r));
        RC_ASSERT(refBF16(Q(int64_t(x)), r) == intToBF16(x, true, r));
        RC_ASSERT(refBF16(Q(x), r) == intToBF16(x, false, r));
      }
    }
  }
}

// The PTX float-to-integer result, from the host's round-to-integral in mode r and a clamp.
uint64_t refFloatToInt(double x, Round r, unsigned w, bool isSigned, bool srcF64) {
  if (x != x) {
    if (!srcF64 && w != 64) return 0;
    return isSigned ? uint64_t(0) - (uint64_t{1} << (w - 1)) : uint64_t{1} << (w - 1);
  }
  volatile double vx = x, n;
  {
    HostRounding g(r);
    n = std::nearbyint(double(vx));
  }
  const long double lo = isSigned ? -std::ldexp(1.0L, int(w) - 1) : 0.0L;
  const long double hi = isSigned ? std::ldexp(1.0L, int(w) - 1) - 1 : std::ldexp(1.0L, int(w)) - 1;
  long double m = n;
  if (m < lo) m = lo;
  if (m > hi) m = hi;
  if (isSigned) return uint64_t(int64_t(m));
  return uint64_t(m);
}

RC_GTEST_PROP(FpProperty, FloatToIntMatchesHostAndClamps, ()) {
  const auto fs = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  const auto ds = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  const auto ints =
      *rc::gen::container<std::vector<int32_t>>(kBatch, rc::gen::inRange(-300000, 300000));
  for (int i = 0; i < kBatch; ++i) {
    const float f = i % 3 == 0 ? float(ints[i]) / 4.0f : f32(fs[i]);
    const double d = i % 3 == 0 ? double(ints[i]) / 8.0 : f64(ds[i]);
    for (Round r : kDirected) {
      for (unsigned w : {8u, 16u, 32u, 64u}) {
        for (bool sg : {false, true}) {
          RC_ASSERT(refFloatToInt(f, r, w, sg, false) == floatToInt(f, r, w, sg));
          RC_ASSERT(refFloatToInt(flushSubnormal(f), r, w, sg, false) ==
                    floatToInt(f, r, w, sg, true));
          RC_ASSERT(refFloatToInt(d, r, w, sg, true) == floatToInt(d, r, w, sg));
        }
      }
    }
  }
}

RC_GTEST_PROP(FpProperty, RoundIntegralMatchesHost, ()) {
  const auto fs = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  const auto ds = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  for (int i = 0; i < kBatch; ++i) {
    const float f = f32(fs[i]);
    const double d = f64(ds[i]);
    for (Round r : kDirected) {
      volatile float vf = f, nf, nff;
      volatile double vd = d, nd;
      {
        HostRounding g(r);
        nf = std::nearbyint(float(vf));
        nff = std::nearbyint(flushSubnormal(float(vf)));
        nd = std::nearbyint(double(vd));
      }
      RC_ASSERT(bits(canon(nf)) == bits(roundIntegral(f, r)));
      RC_ASSERT(bits(canon(nff)) == bits(roundIntegral(f, r, true)));
      const uint64_t wantD = d != d ? bits(d) | 0x0008000000000000ull : bits(double(nd));
      RC_ASSERT(wantD == bits(roundIntegral(d, r)));
    }
  }
}

// ---- min / max ------------------------------------------------------------------------------
template <class T>
T refMinMax(T a, T b, bool wantMax, bool nanProp, T canonical) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return (nanProp || (na && nb)) ? canonical : (na ? b : a);
  if (a == b) return (std::signbit(a) != wantMax) ? a : b;  // zeros: -0 < +0
  return ((a < b) != wantMax) ? a : b;
}

RC_GTEST_PROP(FpProperty, MinMaxFollowPtx, ()) {
  const auto as = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  const auto bs = *rc::gen::container<std::vector<uint32_t>>(kBatch, gen32());
  const auto ha = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  const auto hb = *rc::gen::container<std::vector<uint16_t>>(kBatch, gen16());
  const auto gd = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  const auto hd = *rc::gen::container<std::vector<uint64_t>>(kBatch, gen64());
  const float cn = f32(kCanonicalNaN32);
  for (int i = 0; i < kBatch; ++i) {
    const float a = f32(as[i]), b = f32(i % 4 == 0 ? as[i] ^ 0x80000000u : bs[i]);
    for (bool np : {false, true}) {
      RC_ASSERT(bits(refMinMax(a, b, false, np, cn)) == bits(fmin(a, b, np)));
      RC_ASSERT(bits(refMinMax(a, b, true, np, cn)) == bits(fmax(a, b, np)));
      const float fa = flushSubnormal(a), fb = flushSubnormal(b);
      RC_ASSERT(bits(refMinMax(fa, fb, false, np, cn)) == bits(fmin(a, b, np, true)));
      RC_ASSERT(bits(refMinMax(fa, fb, true, np, cn)) == bits(fmax(a, b, np, true)));
    }
    const double da = f64(gd[i]), db = f64(i % 4 == 1 ? gd[i] ^ 0x8000000000000000ull : hd[i]);
    // min.f64 / max.f64 of two NaNs: a, quieted (measured on the H200).
    const double dn = f64(bits(da) | 0x0008000000000000ull);
    RC_ASSERT(bits(refMinMax(da, db, false, false, dn)) == bits(fmin(da, db)));
    RC_ASSERT(bits(refMinMax(da, db, true, false, dn)) == bits(fmax(da, db)));
    // f16 / bf16 through their exact f32 values; the result is one operand, bit for bit.
    const uint16_t x = ha[i], y = i % 4 == 0 ? uint16_t(ha[i] ^ 0x8000) : hb[i];
    for (bool np : {false, true}) {
      auto pick16 = [&](bool wantMax, float fx, float fy, uint16_t canon16) -> uint16_t {
        const float m = refMinMax(fx, fy, wantMax, np, cn);
        if (m != m) return canon16;
        return bits(m) == bits(fx) ? x : y;
      };
      RC_ASSERT(pick16(false, f16ToF32(x), f16ToF32(y), kCanonicalNaN16) == fminF16(x, y, np));
      RC_ASSERT(pick16(true, f16ToF32(x), f16ToF32(y), kCanonicalNaN16) == fmaxF16(x, y, np));
      RC_ASSERT(pick16(false, bf16ToF32(x), bf16ToF32(y), kCanonicalNaNBF16) == fminBF16(x, y, np));
      RC_ASSERT(pick16(true, bf16ToF32(x), bf16ToF32(y), kCanonicalNaNBF16) == fmaxBF16(x, y, np));
    }
  }
}

// ---- the engine itself -----------------------------------------------------------------------
RC_GTEST_PROP(FpProperty, RoundPackMatchesHostConversion, ()) {
  // (sig + s) * 2^exp with a 64-bit sig is exact in __float128 (a sticky s is represented by
  // adding half a unit); the host converts it once, in mode r, to f64, f32 and f16.
  const auto sigs = *rc::gen::container<std::vector<uint64_t>>(kBatch, raw64());
  const auto shifts = *rc::gen::container<std::vector<uint32_t>>(kBatch, rc::gen::inRange(0u, 64u));
  const auto exps = *rc::gen::container<std::vector<int>>(kBatch, rc::gen::inRange(-1200, 1100));
  const auto flags = *rc::gen::container<std::vector<uint32_t>>(kBatch, raw32());
  for (int i = 0; i < kBatch; ++i) {
    const uint64_t sig = (sigs[i] >> shifts[i]) | (uint64_t{1} << 63 >> shifts[i]);
    const bool sign = flags[i] & 1, sticky = (flags[i] & 2) && (sig >> 55) != 0;
    // Exponents that land near each format's range are the interesting ones.
    const int exp = (flags[i] >> 2) % 3 == 0   ? exps[i]
                    : (flags[i] >> 2) % 3 == 1 ? exps[i] % 200 - 60
                                               : exps[i] % 40 - 70;
    Q v = Q(sig);
    if (sticky) v += Q(0.5);
    v = v * pow2q(exp);
    if (sign) v = -v;
    for (Round r : kDirected) {
      volatile Q vv = v;
      volatile double d;
      volatile float f;
      volatile _Float16 h;
      {
        HostRounding g(r);
        d = double(vv);
        f = float(vv);
        h = _Float16(vv);
      }
      RC_ASSERT(bits(double(d)) == roundPack(kF64, sign, exp, sig, sticky, r));
      RC_ASSERT(uint64_t(bits(float(f))) == roundPack(kF32, sign, exp, sig, sticky, r));
      RC_ASSERT(uint64_t(h16(h)) == roundPack(kF16, sign, exp, sig, sticky, r));
      RC_ASSERT(uint64_t(refBF16(v, r)) == roundPack(kBF16, sign, exp, sig, sticky, r));
      // .ftz: tiny after rounding (unbounded exponent) -> a signed zero, else as without.
      const uint64_t z32 = sign ? 0x80000000u : 0;
      RC_ASSERT((tiny32(v, r) ? z32 : uint64_t(bits(float(f)))) ==
                roundPack(kF32, sign, exp, sig, sticky, r, true));
    }
  }
}

}  // namespace
}  // namespace warpsim::fp
