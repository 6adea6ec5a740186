// Half-precision arithmetic, PTX ISA 9.0 section 9.7.4: add sub mul fma (.rn; .ftz .sat for
// f16; .relu and .oob for fma), neg abs, min max (.ftz .NaN .xorsign.abs) on .f16 .f16x2 .bf16
// .bf16x2. The packed x2 forms apply the operation to both 16-bit halves of a 32-bit register
// independently ("fA[0] = a[0:15]; fA[1] = a[16:31]"). ex2 and tanh are in float_sfu.cpp.
//
// Each result is rounded once from the exact value in the 16-bit format itself (fp.h); NaN
// results are the canonical 0x7FFF ("Half-precision instructions return an unspecified NaN";
// 0x7FFF is what the H200 gives, measured for fma.relu, neg and abs too).
#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "isa/fp.h"
#include "isa/insns/families.h"
#include "isa/insns/float_family.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

using fp::Round;

constexpr uint16_t kSign16 = 0x8000;

// The four instruction types as (format, packed) pairs.
enum class Half : uint8_t { F16, F16x2, BF16, BF16x2 };
constexpr bool isBF(Half k) { return k == Half::BF16 || k == Half::BF16x2; }
constexpr bool isPacked(Half k) { return k == Half::F16x2 || k == Half::BF16x2; }
constexpr fp::Format formatOf(Half k) { return isBF(k) ? fp::kBF16 : fp::kF16; }

template <Half K>
bool isNaNH(uint16_t h) {
  return fp::isNaNBits(formatOf(K), h);
}
template <Half K>
uint16_t canonicalNaN() {
  return isBF(K) ? fp::kCanonicalNaNBF16 : fp::kCanonicalNaN16;
}
template <Half K>
uint16_t flushH(uint16_t h) {
  return uint16_t(fp::flushBits(formatOf(K), h));
}

// Runs f on the element(s): the low half only for the scalar types (the result zero-extended
// into the slot), both halves for x2.
template <Half K, class F>
uint32_t elementwise2(uint32_t a, uint32_t b, F f) {
  if constexpr (!isPacked(K)) return f(lowHalf(a), lowHalf(b));
  return packHalves(f(lowHalf(a), lowHalf(b)), f(highHalf(a), highHalf(b)));
}

// ---- add sub mul: flags .ftz (1) .sat (2), f16 only ---------------------------------------
constexpr unsigned kFtz = 1, kSat = 2, kRelu = 4, kOob = 8;

enum class Arith : uint8_t { Add, Sub, Mul };

template <Half K, Arith Op, bool Ftz>
uint16_t arith(uint16_t a, uint16_t b) {
  if constexpr (isBF(K)) {
    if constexpr (Op == Arith::Add) return fp::addBF16(a, b, Round::RN);
    if constexpr (Op == Arith::Sub) return fp::subBF16(a, b, Round::RN);
    return fp::mulBF16(a, b, Round::RN);
  } else {
    if constexpr (Op == Arith::Add) return fp::addF16(a, b, Round::RN, Ftz);
    if constexpr (Op == Arith::Sub) return fp::subF16(a, b, Round::RN, Ftz);
    return fp::mulF16(a, b, Round::RN, Ftz);
  }
}

// .sat: "clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f" (9.7.4.1).
template <Half K, Arith Op>
struct ArithH {
  template <unsigned F>
  struct H {
    static void run(Exec& x, const Inst& in) {
      binary<uint32_t>(x, in, [](uint32_t a, uint32_t b) {
        return elementwise2<K>(a, b, [](uint16_t p, uint16_t q) {
          uint16_t r = arith<K, Op, (F & kFtz) != 0>(p, q);
          if constexpr ((F & kSat) != 0) r = fp::saturateF16(r);
          return r;
        });
      });
    }
  };
};

// ---- fma: flags .ftz .sat (f16), .relu, .oob ---------------------------------------------
// .relu: "clamps the result to 0 if negative. NaN result is converted to canonical NaN"; a
// negative zero clamps to +0 as well (measured on the H200: fma.rn.relu.f16 of -0 * 1 + -0 is
// +0). .oob: "clamps the result to 0 if either of the operands is OOB NaN", the special NaN a
// tensor load writes for out-of-bound elements (PTX ISA 5.5.3.3), whose encoding the manual
// does not give. Measured on the H200 over all 65536 encodings, for both f16 and bf16: it is
// 0x7FF7 (either sign), and it forces +0 as the multiplicand a; as the addend c it is an
// ordinary NaN. The multiplicand b was not probed and is taken to behave like a.
template <Half K>
bool isOobNaN(uint16_t h) {
  return (h & 0x7FFF) == 0x7FF7;
}

template <Half K, unsigned F>
uint16_t fmaH(uint16_t a, uint16_t b, uint16_t c, Round rnd) {
  if constexpr ((F & kOob) != 0)
    if (isOobNaN<K>(a) || isOobNaN<K>(b)) return 0;
  uint16_t r;
  if constexpr (isBF(K))
    r = fp::fmaBF16(a, b, c, rnd);
  else
    r = fp::fmaF16(a, b, c, Round::RN, (F & kFtz) != 0);
  if constexpr ((F & kSat) != 0) r = fp::saturateF16(r);
  if constexpr ((F & kRelu) != 0) {
    if (isNaNH<K>(r)) return canonicalNaN<K>();
    if (r & kSign16) return 0;
  }
  return r;
}

#if defined(__F16C__) && defined(__FMA__) && defined(__AVX2__) && defined(__BMI2__)
// fma.rn.f16x2 without flags, four lanes (eight halves) at a time on the host's f16 conversions:
// a*b is exact in f32 (22 significant bits, exponents far inside f32's range), so the host's f32
// fma rounds the exact a*b+c once, and the conversion to f16 rounds it again. Rounding twice to
// nearest gives the once-rounded result unless the f32 result lies exactly halfway between two
// f16 values (the f32 grid holds every f16 value and midpoint, so a result not on a midpoint
// is on the same side of it as the exact value), or is beyond f16's largest finite value or
// NaN (f16's overflow and canonical NaN). Those halves' lanes are returned, for fp::fmaF16.
// Writes the lanes of `lanes` (bit k: lane k of the four) that are not returned.
inline unsigned fmaF16x2FourLanes(uint64_t* d, const uint64_t* a, const uint64_t* b,
                                  const uint64_t* c, unsigned lanes) {
  const __m256i low32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  auto halves = [&](const uint64_t* r) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r));
    return _mm256_cvtph_ps(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, low32)));
  };
  const __m256 f = _mm256_fmadd_ps(halves(a), halves(b), halves(c));
  const __m128i h = _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m128i hz = _mm256_cvtps_ph(f, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256 lo = _mm256_cvtph_ps(hz);                                    // f rounded to zero
  const __m256 hi = _mm256_cvtph_ps(_mm_add_epi16(hz, _mm_set1_epi16(1)));  // one f16 ulp out
  const __m256 mag = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), f);
  // f - lo and hi - f are exact (f's bits below an f16 ulp); NaN compares false.
  const __m256 slow =
      _mm256_or_ps(_mm256_cmp_ps(mag, _mm256_set1_ps(65504.0f), _CMP_NLT_UQ),
                   _mm256_cmp_ps(_mm256_sub_ps(f, lo), _mm256_sub_ps(hi, f), _CMP_EQ_OQ));
  const unsigned s = unsigned(_mm256_movemask_ps(slow));
  const unsigned slowLanes = _pext_u32(s | s >> 1, 0x55) & lanes;
  const unsigned write = lanes & ~slowLanes;
  const __m256i r = _mm256_cvtepu32_epi64(h);
  if (write == 0xF) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), r);
  } else if (write) {
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    const __m256i m = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(write), bit), bit);
    _mm256_maskstore_epi64(reinterpret_cast<long long*>(d), m, r);
  }
  return slowLanes;
}

// fma.rn.bf16x2 (and .relu), four lanes at a time: the host's f32 fma rounds the exact a*b+c
// once to f32 (the product is not rounded, and f32's range is bf16's, subnormals included), and
// rounding that to bf16 on its bits (add 0x7FFF plus the kept lowest bit) gives the once-rounded
// result for the same reason as above, as f32's grid holds every bf16 value and midpoint. f32
// results on a bf16 midpoint (low 16 bits 0x8000), at or beyond bf16's largest finite value, or
// NaN go to fp::fmaBF16; their lanes are returned, the others' written (see fmaF16x2FourLanes).
template <bool Relu>
inline unsigned fmaBF16x2FourLanes(uint64_t* d, const uint64_t* a, const uint64_t* b,
                                   const uint64_t* c, unsigned lanes) {
  const __m256i low32 = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m128i top = _mm_set1_epi32(int(0xFFFF0000u));
  auto words = [&](const uint64_t* r) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(r));
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, low32));
  };
  const __m128i wa = words(a), wb = words(b), wc = words(c);
  // The low halves as f32 (shifted up), then the high halves (masked): u is an f32's bits.
  auto halfFma = [](__m128i x, __m128i y, __m128i z) {
    return _mm_castps_si128(
        _mm_fmadd_ps(_mm_castsi128_ps(x), _mm_castsi128_ps(y), _mm_castsi128_ps(z)));
  };
  const __m128i ulo =
      halfFma(_mm_slli_epi32(wa, 16), _mm_slli_epi32(wb, 16), _mm_slli_epi32(wc, 16));
  const __m128i uhi =
      halfFma(_mm_and_si128(wa, top), _mm_and_si128(wb, top), _mm_and_si128(wc, top));
  const __m128i one = _mm_set1_epi32(1), half = _mm_set1_epi32(0x7FFF);
  auto round = [&](__m128i u) {  // to the nearest bf16, ties to even, in the top 16 bits
    return _mm_and_si128(
        _mm_add_epi32(u, _mm_add_epi32(half, _mm_and_si128(_mm_srli_epi32(u, 16), one))), top);
  };
  auto slow = [&](__m128i u) {
    const __m128i mag = _mm_and_si128(u, _mm_set1_epi32(0x7FFFFFFF));
    // mag >= 0x7F7F0000 as signed 32-bit: mag > 0x7F7EFFFF.
    return _mm_or_si128(
        _mm_cmpgt_epi32(mag, _mm_set1_epi32(0x7F7EFFFF)),
        _mm_cmpeq_epi32(_mm_and_si128(u, _mm_set1_epi32(0xFFFF)), _mm_set1_epi32(0x8000)));
  };
  __m128i rlo = round(ulo), rhi = round(uhi);
  if constexpr (Relu) {  // a negative result (-0 too) is +0; NaNs take the exact path
    rlo = _mm_andnot_si128(_mm_srai_epi32(rlo, 31), rlo);
    rhi = _mm_andnot_si128(_mm_srai_epi32(rhi, 31), rhi);
  }
  const __m128i r = _mm_or_si128(_mm_srli_epi32(rlo, 16), rhi);
  const unsigned slowLanes =
      unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(slow(ulo), slow(uhi))))) & lanes;
  const unsigned write = lanes & ~slowLanes;
  const __m256i wide = _mm256_cvtepu32_epi64(r);
  if (write == 0xF) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), wide);
  } else if (write) {
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    const __m256i m = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(write), bit), bit);
    _mm256_maskstore_epi64(reinterpret_cast<long long*>(d), m, wide);
  }
  return slowLanes;
}
#endif

template <Half K>
struct FmaH {
  template <unsigned F>
  struct H {
    static void run(Exec& x, const Inst& in) {
#if defined(__F16C__) && defined(__FMA__) && defined(__AVX2__) && defined(__BMI2__)
      if constexpr (K == Half::F16x2 && F == 0) {
        uint64_t* d = x.reg(in.ops[0]);
        const uint64_t* a = x.reg(in.ops[1]);
        const uint64_t* b = x.reg(in.ops[2]);
        const uint64_t* c = x.reg(in.ops[3]);
        LaneMask slow = 0;
        for (unsigned g = 0; g < kWarpSize; g += 4)
          if (const unsigned lanes = (x.mask >> g) & 0xF)
            slow |= LaneMask(fmaF16x2FourLanes(d + g, a + g, b + g, c + g, lanes)) << g;
        forLanes(slow, [&](unsigned l) {
          d[l] = packHalves(fmaH<K, F>(lowHalf(a[l]), lowHalf(b[l]), lowHalf(c[l]), Round::RN),
                            fmaH<K, F>(highHalf(a[l]), highHalf(b[l]), highHalf(c[l]), Round::RN));
        });
        return;
      }
      if constexpr (K == Half::BF16x2 && (F == 0 || F == kRelu)) {
        if (in.mods.rounding.mode == Round::RN) {
          uint64_t* d = x.reg(in.ops[0]);
          const uint64_t* a = x.reg(in.ops[1]);
          const uint64_t* b = x.reg(in.ops[2]);
          const uint64_t* c = x.reg(in.ops[3]);
          LaneMask slow = 0;
          for (unsigned g = 0; g < kWarpSize; g += 4)
            if (const unsigned lanes = (x.mask >> g) & 0xF)
              slow |= LaneMask(fmaBF16x2FourLanes<F == kRelu>(d + g, a + g, b + g, c + g, lanes))
                      << g;
          forLanes(slow, [&](unsigned l) {
            d[l] =
                packHalves(fmaH<K, F>(lowHalf(a[l]), lowHalf(b[l]), lowHalf(c[l]), Round::RN),
                           fmaH<K, F>(highHalf(a[l]), highHalf(b[l]), highHalf(c[l]), Round::RN));
          });
          return;
        }
      }
#endif
      const Round rnd = in.mods.rounding.mode;  // .rn; bf16 also takes .rz .rm .rp
      ternary<uint32_t>(x, in, [rnd](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
        if constexpr (!isPacked(K)) return fmaH<K, F>(lowHalf(a), lowHalf(b), lowHalf(c), rnd);
        return packHalves(fmaH<K, F>(lowHalf(a), lowHalf(b), lowHalf(c), rnd),
                          fmaH<K, F>(highHalf(a), highHalf(b), highHalf(c), rnd));
      });
    }
  };
};

// ---- a mul fused into an add/sub by the contraction pass (isa/contract.h) -------------------
// ptxas's HFMA2 of `mul` + `add`/`sub` without .rn: (+-a) * b + (+-c) rounded once, with the
// pair's .ftz and the add's .sat (flags kFtz, kSat; kNegProduct, kNegAddend flip the signs).
constexpr unsigned kNegProduct = 4, kNegAddend = 8;

template <Half K>
struct FusedH {
  template <unsigned F>
  struct H {
    static void run(Exec& x, const Inst& in) {
      ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
        auto one = [](uint16_t p, uint16_t q, uint16_t r) {
          if constexpr ((F & kNegProduct) != 0) p ^= kSign16;
          if constexpr ((F & kNegAddend) != 0) r ^= kSign16;
          return fmaH<K, F&(kFtz | kSat)>(p, q, r, Round::RN);
        };
        if constexpr (!isPacked(K)) return one(lowHalf(a), lowHalf(b), lowHalf(c));
        return packHalves(one(lowHalf(a), lowHalf(b), lowHalf(c)),
                          one(highHalf(a), highHalf(b), highHalf(c)));
      });
    }
  };
};

// ---- neg abs (9.7.4.5-9.7.4.6): sign operations; .ftz (f16) flushes first ----------------
// "NaN inputs yield an unspecified NaN": the H200 gives the canonical 0x7FFF for f16 and bf16
// alike (measured), as neg.f32 / abs.f32 give 0x7FFFFFFF (see float_arith.cpp).
template <Half K, bool Neg>
struct AbsNegH {
  template <unsigned F>
  struct H {
    static void run(Exec& x, const Inst& in) {
      unary<uint32_t>(x, in, [](uint32_t a) {
        auto f = [](uint16_t h, uint16_t) -> uint16_t {
          if (isNaNH<K>(h)) return canonicalNaN<K>();
          if constexpr ((F & kFtz) != 0) h = flushH<K>(h);
          return Neg ? uint16_t(h ^ kSign16) : uint16_t(h & ~kSign16);
        };
        return elementwise2<K>(a, 0, f);
      });
    }
  };
};

// ---- min max (9.7.4.7-9.7.4.8): flags .ftz (f16) .NaN .xorsign.abs ------------------------
constexpr unsigned kMmFtz = 1, kMmNaN = 2, kMmXorAbs = 4;

template <Half K, bool IsMax, unsigned F>
uint16_t minMaxH(uint16_t a, uint16_t b) {
  if constexpr ((F & kMmFtz) != 0) a = flushH<K>(a), b = flushH<K>(b);
  const uint16_t xorsign = (a ^ b) & kSign16;  // taken before .abs
  if constexpr ((F & kMmXorAbs) != 0) a &= ~kSign16, b &= ~kSign16;
  constexpr bool nan = (F & kMmNaN) != 0;
  uint16_t d;
  if constexpr (isBF(K))
    d = IsMax ? fp::fmaxBF16(a, b, nan) : fp::fminBF16(a, b, nan);
  else
    d = IsMax ? fp::fmaxF16(a, b, nan) : fp::fminF16(a, b, nan);
  if constexpr ((F & kMmXorAbs) != 0)
    if (!isNaNH<K>(d)) d = uint16_t((d & ~kSign16) | xorsign);
  return d;
}

template <Half K, bool IsMax>
struct MinMaxH {
  template <unsigned F>
  struct H {
    static void run(Exec& x, const Inst& in) {
      binary<uint32_t>(x, in, [](uint32_t a, uint32_t b) {
        return elementwise2<K>(a, b, minMaxH<K, IsMax, F>);
      });
    }
  };
};

// ---- binding --------------------------------------------------------------------------------
// One table per instruction type: Op<K>::template H<Flags>.
template <template <Half> class Op, unsigned N>
Handler pickHalf(Type t, unsigned flags) {
  switch (t) {
    case Type::F16:
      return pickFlags<Op<Half::F16>::template H, N>(flags);
    case Type::F16x2:
      return pickFlags<Op<Half::F16x2>::template H, N>(flags);
    case Type::BF16:
      return pickFlags<Op<Half::BF16>::template H, N>(flags);
    case Type::BF16x2:
      return pickFlags<Op<Half::BF16x2>::template H, N>(flags);
    default:
      return nullptr;
  }
}

bool isBFType(Type t) { return t == Type::BF16 || t == Type::BF16x2; }

// Only .rn exists for the half-precision arithmetic (9.7.4.1-9.7.4.4: ".rnd = { .rn }"), and
// it is the default of add/sub/mul; fma requires it ("fma.rnd", and ptxas: "Rounding modifier
// required"). ptxas for sm_90 also accepts .rz .rm .rp on fma.bf16/.bf16x2, which fp.h rounds
// exactly, so they are accepted there.
std::string checkRn(const Inst& in, bool isFma = false) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  const Rounding& r = in.mods.rounding;
  if (isFma && !r.present) return bindError(in, "requires a rounding modifier (.rn)");
  const bool directedOk = isFma && isBFType(in.mods.type());
  if (r.present && (r.integral || r.mode == Round::RNA || (r.mode != Round::RN && !directedOk)))
    return bindError(in, "half-precision arithmetic rounds with .rn only");
  return "";
}

std::string noFtzSatForBF(const Inst& in) {
  if (isBFType(in.mods.type()) && (in.mods.has("ftz") || in.mods.has("sat")))
    return bindError(in, ".ftz and .sat are defined for .f16 and .f16x2 only");
  return "";
}

template <Arith Op>
struct ArithOf {
  template <Half K>
  using T = ArithH<K, Op>;
};

template <Arith Op>
std::string bindArith(Inst& in) {
  if (auto e = checkRn(in); !e.empty()) return e;
  if (auto e = checkModifiers(in, {"ftz", "sat"}); !e.empty()) return e;
  if (auto e = noFtzSatForBF(in); !e.empty()) return e;
  const unsigned flags = (in.mods.has("ftz") ? kFtz : 0) | (in.mods.has("sat") ? kSat : 0);
  return bindRegs(in, pickHalf<ArithOf<Op>::template T, 2>(in.mods.type(), flags), 3,
                  InsnClass::Half);
}

// fma.rn{.ftz}{.sat}.f16[x2], fma.rn{.ftz}.relu.f16[x2], fma.rnd{.relu}.bf16[x2],
// fma.rn.oob{.relu}.{f16,f16x2,bf16,bf16x2} (and fma.rn.oob.sat.f16[x2], which ptxas accepts).
std::string bindFma(Inst& in) {
  if (auto e = checkRn(in, true); !e.empty()) return e;
  if (auto e = checkModifiers(in, {"ftz", "sat", "relu", "oob"}); !e.empty()) return e;
  if (auto e = noFtzSatForBF(in); !e.empty()) return e;
  const Mods& m = in.mods;
  if (m.has("sat") && m.has("relu")) return bindError(in, ".sat and .relu are exclusive");
  if (m.has("oob") && m.has("ftz")) return bindError(in, ".oob does not take .ftz");
  const unsigned flags = (m.has("ftz") ? kFtz : 0) | (m.has("sat") ? kSat : 0) |
                         (m.has("relu") ? kRelu : 0) | (m.has("oob") ? kOob : 0);
  return bindRegs(in, pickHalf<FmaH, 4>(m.type(), flags), 4, InsnClass::Half);
}

template <bool Neg>
struct AbsNegOf {
  template <Half K>
  using T = AbsNegH<K, Neg>;
};

template <bool Neg>
std::string bindAbsNeg(Inst& in) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  if (in.mods.rounding.present) return bindError(in, "takes no rounding modifier");
  if (auto e = checkModifiers(in, {"ftz"}); !e.empty()) return e;
  if (auto e = noFtzSatForBF(in); !e.empty()) return e;
  return bindRegs(in, pickHalf<AbsNegOf<Neg>::template T, 1>(in.mods.type(), in.mods.has("ftz")), 2,
                  InsnClass::Half);
}

template <bool IsMax>
struct MinMaxOf {
  template <Half K>
  using T = MinMaxH<K, IsMax>;
};

template <bool IsMax>
std::string bindMinMax(Inst& in) {
  if (auto e = checkOneType(in); !e.empty()) return e;
  const Mods& m = in.mods;
  if (m.rounding.present) return bindError(in, "takes no rounding modifier");
  if (auto e = checkModifiers(in, {"ftz", "NaN", "xorsign", "abs"}); !e.empty()) return e;
  if (auto e = noFtzSatForBF(in); !e.empty()) return e;
  if (m.has("xorsign") != m.has("abs"))
    return bindError(in, ".abs and .xorsign must be specified together");
  const unsigned flags = (m.has("ftz") ? kMmFtz : 0) | (m.has("NaN") ? kMmNaN : 0) |
                         (m.has("xorsign") ? kMmXorAbs : 0);
  // min/max(x, x) of a scalar half is x (ptxas folds it); the packed forms stay half-precision
  // operations on the H200 and canonicalize NaN halves (measured: min.f16x2 of 0xffffffff with
  // itself is 0x7fff7fff).
  const bool scalar = m.type() == Type::F16 || m.type() == Type::BF16;
  if (flags == 0 && scalar && sameSourceRegister(in))
    return bindRegs(in, copyFirstSource<uint32_t>, 3, InsnClass::Half);
  return bindRegs(in, pickHalf<MinMaxOf<IsMax>::template T, 3>(m.type(), flags), 3,
                  InsnClass::Half);
}

}  // namespace

Handler fusedMultiplyAddHalf(Type type, bool ftz, bool sat, bool negProduct, bool negAddend) {
  if (isBFType(type) && (ftz || sat)) return nullptr;
  return pickHalf<FusedH, 4>(type, (ftz ? kFtz : 0) | (sat ? kSat : 0) |
                                       (negProduct ? kNegProduct : 0) |
                                       (negAddend ? kNegAddend : 0));
}

std::vector<OpcodeSpec> halfArithmetic() {
  constexpr std::string_view kFamily = "half_arith";
  const std::vector<Type> t = {Type::F16, Type::F16x2, Type::BF16, Type::BF16x2};
  return {
      {"add",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::Add,
       t,
       {"rn", "ftz", "sat"},
       bindArith<Arith::Add>},
      {"sub",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::Subtract,
       t,
       {"rn", "ftz", "sat"},
       bindArith<Arith::Sub>},
      {"mul",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::Multiply,
       t,
       {"rn", "ftz", "sat"},
       bindArith<Arith::Mul>},
      {"fma",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::MultiplyAdd,
       t,
       {"rn", "rz", "rm", "rp", "ftz", "sat", "relu", "oob"},
       bindFma},
      {"neg",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::Negate,
       t,
       {"ftz"},
       bindAbsNeg<true>},
      {"abs",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::Absolute,
       t,
       {"ftz"},
       bindAbsNeg<false>},
      {"min",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::Min,
       t,
       {"ftz", "NaN", "xorsign", "abs"},
       bindMinMax<false>},
      {"max",
       kFamily,
       InsnClass::Half,
       Role::Compute,
       Operation::Max,
       t,
       {"ftz", "NaN", "xorsign", "abs"},
       bindMinMax<true>},
  };
}

}  // namespace warpsim::isa::insns
