// cvt with a floating-point destination or source, PTX ISA 9.0 section 9.7.9.21:
//   float <-> float   (.rn .rz .rm .rp when narrowing; .rni .rzi .rmi .rpi to an integral value
//                      in the same type; .ftz on f32 inputs and results; .sat to [0, 1])
//   float  -> integer (.rni .rzi .rmi .rpi required; clamped to the destination range; NaN per
//                      the Integer Notes; .ftz on f32 inputs)
//   integer -> float  (.rn .rz .rm .rp required)
//   f32 -> f16/bf16/tf32 with .relu / .satfinite, the packing forms cvt.{rn,rz}.{f16x2,bf16x2}.f32
//   d, a, b (a in the upper half), and the fp8 forms to and from .e4m3x2 / .e5m2x2.
// convert.cpp binds integer-to-integer cvt and cvt.pack and hands everything else here.
#include "isa/fp.h"
#include "isa/insns/families.h"
#include "isa/insns/float_family.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

using fp::Format;
using fp::Round;

// The scalar floating-point cvt types.
enum class FK : uint8_t { F16, BF16, F32, F64 };
constexpr Format formatOf(FK k) {
  switch (k) {
    case FK::F16:
      return fp::kF16;
    case FK::BF16:
      return fp::kBF16;
    case FK::F32:
      return fp::kF32;
    case FK::F64:
      return fp::kF64;
  }
  return fp::kF32;
}
constexpr unsigned widthOf(FK k) { return k == FK::F64 ? 64 : k == FK::F32 ? 32 : 16; }

template <class F>
auto withFloatKind(Type t, F&& f) -> decltype(f(std::integral_constant<FK, FK::F32>{})) {
  switch (t) {
    case Type::F16:
      return f(std::integral_constant<FK, FK::F16>{});
    case Type::BF16:
      return f(std::integral_constant<FK, FK::BF16>{});
    case Type::F32:
      return f(std::integral_constant<FK, FK::F32>{});
    case Type::F64:
      return f(std::integral_constant<FK, FK::F64>{});
    default:
      return {};
  }
}
bool isScalarFloat(Type t) {
  return t == Type::F16 || t == Type::BF16 || t == Type::F32 || t == Type::F64;
}

uint64_t readFloat(FK k, uint64_t slot) { return slot & lowMask(widthOf(k)); }

// .sat for floating-point destinations: "limits the result to the range [0.0, 1.0]. NaN results
// are flushed to positive zero" (f16, f32, f64).
template <FK D>
uint64_t saturateTo(uint64_t r) {
  if constexpr (D == FK::F16) return fp::saturateF16(uint16_t(r));
  if constexpr (D == FK::BF16) return fp::saturateBF16(uint16_t(r));
  if constexpr (D == FK::F32) return fp::bits(fp::saturate(fp::f32(uint32_t(r))));
  return fp::bits(fp::saturate(fp::f64(r)));
}

// cvt.rni/.rzi/.rmi/.rpi with a floating-point destination of the source's type. f16 and bf16
// widen to f32 exactly, and the integral value rounds back exactly (it has at most 11 and 8
// significant bits respectively, or the input was integral already).
template <FK S>
uint64_t roundIntegralBits(uint64_t v, Round r) {
  if constexpr (S == FK::F32) return fp::bits(fp::roundIntegral(fp::f32(uint32_t(v)), r));
  if constexpr (S == FK::F64) return fp::bits(fp::roundIntegral(fp::f64(v), r));
  if constexpr (S == FK::F16)
    return fp::f32ToF16(fp::roundIntegral(fp::f16ToF32(uint16_t(v)), r), Round::RN);
  return fp::f32ToBF16(fp::roundIntegral(fp::bf16ToF32(uint16_t(v)), r), Round::RN);
}

// Between two different formats, through fp.h's typed conversions (one rounding; their NaN
// results are the ones measured on the H200, see isa/fp.h). f16 <-> bf16 has no typed helper
// (neither format holds the other) and goes through the engine: NaN -> canonical 0x7FFF.
// `ftz` flushes a tiny f32 result of f64 -> f32 before rounding, as the H200 does.
template <FK S, FK D>
uint64_t convertFloat(uint64_t v, Round r, bool ftz) {
  const float f = fp::f32(uint32_t(v));
  const double g = fp::f64(v);
  const uint16_t h = uint16_t(v);
  if constexpr (S == FK::F64 && D == FK::F32) return fp::bits(fp::f64ToF32(g, r, ftz));
  if constexpr (S == FK::F64 && D == FK::F16) return fp::f64ToF16(g, r);
  if constexpr (S == FK::F64 && D == FK::BF16) return fp::f64ToBF16(g, r);
  if constexpr (S == FK::F32 && D == FK::F64) return fp::bits(fp::f32ToF64(f));
  if constexpr (S == FK::F32 && D == FK::F16) return fp::f32ToF16(f, r);
  if constexpr (S == FK::F32 && D == FK::BF16) return fp::f32ToBF16(f, r);
  if constexpr (S == FK::F16 && D == FK::F32) return fp::bits(fp::f16ToF32(h));
  if constexpr (S == FK::F16 && D == FK::F64) return fp::bits(fp::f16ToF64(h));
  if constexpr (S == FK::BF16 && D == FK::F32) return fp::bits(fp::bf16ToF32(h));
  if constexpr (S == FK::BF16 && D == FK::F64) return fp::bits(fp::bf16ToF64(h));
  if constexpr ((S == FK::F16 && D == FK::BF16) || (S == FK::BF16 && D == FK::F16))
    return fp::convertBits(formatOf(S), formatOf(D), v, r);
  return v;  // S == D
}

// ---- float -> float ----------------------------------------------------------------------
// "Modifier .ftz ... applies only to single precision (.f32) inputs and results": an f32 source
// is flushed before converting, an f32 result after (f64 -> f32 flushes tiny values inside
// fp::f64ToF32). Same type without rounding is a move, bits unchanged; with .ftz it is an f32
// operation on the H200 (measured: cvt.ftz.f32.f32 of a NaN gives 0x7FFFFFFF).
template <FK S, FK D, bool Ftz, bool Sat>
struct FloatToFloat {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    const bool integral = in.mods.rounding.integral;
    unary<uint64_t>(x, in, [r, integral](uint64_t a) {
      uint64_t v = readFloat(S, a);
      // f32 -> f16 keeps a subnormal f32 source even with .ftz (measured: cvt.rm.ftz.f16.f32
      // of -FLT_MIN/2 is 0x8001, not -0).
      if constexpr (Ftz && S == FK::F32 && D != FK::F16) v = fp::flushBits(fp::kF32, v);
      uint64_t d;
      if constexpr (S == D) {
        d = integral ? roundIntegralBits<S>(v, r) : v;
        if constexpr (Ftz && S == FK::F32)
          if (fp::isNaNBits(fp::kF32, d)) d = fp::kCanonicalNaN32;
        // cvt.f16.f16 and cvt.bf16.bf16 are half-precision operations on the H200: a NaN
        // comes back as 0x7FFF (224 of 224 cases in the ISA campaign).
        if constexpr (S == FK::F16 || S == FK::BF16)
          if (fp::isNaNBits(formatOf(S), d)) d = 0x7FFF;
      } else {
        d = convertFloat<S, D>(v, r, Ftz);
        // With .ftz, widening is an f32 operation: a NaN source gives the canonical f32 NaN
        // (cvt.ftz.f32.bf16 -> 0x7FFFFFFF, cvt.ftz.f64.f32 -> 0x7FFFFFFF widened; measured).
        if constexpr (Ftz && S == FK::BF16 && D == FK::F32)
          if (fp::isNaNBits(fp::kF32, d)) d = fp::kCanonicalNaN32;
        if constexpr (Ftz && S == FK::F32 && D == FK::F64)
          if (fp::isNaN(fp::f64(d))) d = 0x7FFFFFFFE0000000ull;
      }
      if constexpr (Ftz && D == FK::F32) d = fp::flushBits(fp::kF32, d);
      if constexpr (Sat) d = saturateTo<D>(d);
      return d;
    });
  }
};

// ---- integer -> float --------------------------------------------------------------------
template <class A, FK D, bool Sat>
struct IntToFloat {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    unary<uint64_t>(x, in, [r](uint64_t a) {
      constexpr bool s = std::is_signed_v<A>;
      // The low bits of the source, sign- or zero-extended to 64 bits per its type.
      const uint64_t src = s ? uint64_t(int64_t(as<A>(a))) : uint64_t(as<A>(a));
      uint64_t d;
      if constexpr (D == FK::F16) d = fp::intToF16(src, s, r);
      if constexpr (D == FK::BF16) d = fp::intToBF16(src, s, r);
      if constexpr (D == FK::F32) d = fp::bits(fp::intToF32(src, s, r));
      if constexpr (D == FK::F64) d = fp::bits(fp::intToF64(src, s, r));
      if constexpr (Sat) d = saturateTo<D>(d);
      return d;
    });
  }
};

// ---- float -> integer --------------------------------------------------------------------
// fp::floatToInt clamps to the destination range and applies the NaN rule ("Zero if source is
// not .f64 and destination is not .s64, .u64. Otherwise 1 << (BitWidth(dst) - 1)"); f16 and
// bf16 widen to f32 exactly first. The result is written per the register-width rule.
template <FK S, class D, bool Ftz>
struct FloatToInt {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    constexpr unsigned w = 8 * sizeof(D);
    constexpr bool s = std::is_signed_v<D>;
    const uint32_t regBits = destinationRegisterBits(in, w);
    uint64_t* d = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    forLanes(x.mask, [&](unsigned l) {
      const uint64_t v = readFloat(S, a[l]);
      uint64_t i;
      if constexpr (S == FK::F64) {
        i = fp::floatToInt(fp::f64(v), r, w, s);
      } else {
        float f;
        if constexpr (S == FK::F32) f = fp::f32(uint32_t(v));
        if constexpr (S == FK::F16) f = fp::f16ToF32(uint16_t(v));
        if constexpr (S == FK::BF16) f = fp::bf16ToF32(uint16_t(v));
        i = fp::floatToInt(f, r, w, s, Ftz && S == FK::F32);
      }
      d[l] = extendToRegister(i, w, s, regBits);
    });
  }
};

// ---- f32 -> f16 / bf16 / tf32 with .relu and .satfinite -------------------------------------
// .relu: "clamps the result to 0 if negative. NaN results are converted to canonical NaN" (a
// negative zero, or a negative value rounding to zero, gives +0: measured on the H200).
// .satfinite: "if the input value is NaN, then the result is NaN in the specified destination
// format ... If the absolute value of input (ignoring sign) is greater than MAX_NORM of the
// specified destination format, then the result is sign-preserved MAX_NORM" -- so infinities
// too, and any finite result that rounded to infinity.
template <bool Relu, bool SatFinite>
uint64_t finishNarrow(Format f, uint64_t h) {
  if (fp::isNaNBits(f, h)) return f.canonicalNaN();
  if (Relu && (h & f.signBit())) return 0;
  if (SatFinite && (h & ~f.signBit()) == f.infBits()) return (h & f.signBit()) | f.maxFinite();
  return h;
}

template <FK D, bool Relu, bool SatFinite>
uint64_t narrowF32(uint32_t a, Round r) {
  return finishNarrow<Relu, SatFinite>(formatOf(D), convertFloat<FK::F32, D>(a, r, false));
}

template <FK D, bool Relu, bool SatFinite>
struct NarrowF32 {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    unary<uint64_t>(x, in,
                    [r](uint64_t a) { return narrowF32<D, Relu, SatFinite>(uint32_t(a), r); });
  }
};

// cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: "the value converted from input a
// is stored in the upper half of d and the value converted from input b is stored in the lower
// half of d".
template <FK D, bool Relu, bool SatFinite>
struct PackF32x2 {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    binary<uint64_t>(x, in, [r](uint64_t a, uint64_t b) {
      return (narrowF32<D, Relu, SatFinite>(uint32_t(a), r) << 16) |
             narrowF32<D, Relu, SatFinite>(uint32_t(b), r);
    });
  }
};

// cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32: the f32 encoding
// with the low 13 significand bits cleared after rounding (fp::f32ToTF32, whose NaN results are
// the measured ones: .rna keeps the NaN with its low bits cleared, .rn/.rz give 0x7FFFE000, the
// canonical NaN in tf32); MAX_NORM of tf32 is 0x7F7FE000.
template <bool Relu, bool SatFinite>
struct ToTF32 {
  static void run(Exec& x, const Inst& in) {
    const Round r = in.mods.rounding.mode;
    unary<uint32_t>(x, in, [r](uint32_t a) -> uint32_t {
      const uint32_t t = fp::bits(fp::f32ToTF32(fp::f32(a), r));
      // .satfinite on the H200 (measured, cvt.rna.satfinite): a result whose exponent field is
      // all ones loses one tf32 ulp -- infinities become MAX_NORM, and NaNs too lose one ulp
      // (0x7FC00000 -> 0x7FBFE000, sign kept), rather than staying NaNs as the manual reads.
      if (SatFinite && (t & 0x7F800000u) == 0x7F800000u) return t - 0x2000u;
      if (fp::isNaN(fp::f32(t))) return t;
      if (Relu && (t & 0x80000000u)) return 0;
      return t;
    });
  }
};

// ---- binding --------------------------------------------------------------------------------
// H<Relu, SatFinite>::run for the decoded flags.
template <template <bool, bool> class H>
Handler pickReluSat(bool relu, bool satfinite) {
  if (relu) return satfinite ? H<true, true>::run : H<true, false>::run;
  return satfinite ? H<false, true>::run : H<false, false>::run;
}
template <FK D>
struct NarrowTo {
  template <bool R, bool S>
  using H = NarrowF32<D, R, S>;
};
template <FK D>
struct PackTo {
  template <bool R, bool S>
  using H = PackF32x2<D, R, S>;
};

bool isF8x2(Type t) { return t == Type::E4M3x2 || t == Type::E5M2x2; }

std::string needRounding(const Inst& in, std::initializer_list<Round> modes, const char* what) {
  const Rounding& r = in.mods.rounding;
  if (!r.present || r.integral || std::find(modes.begin(), modes.end(), r.mode) == modes.end())
    return bindError(in, std::string("requires rounding ") + what);
  return "";
}

// f32 -> f16 / bf16 (scalar or x2) with .relu / .satfinite: "cvt.frnd2{.relu}{.satfinite}",
// .frnd2 = { .rn, .rz }.
std::string bindNarrowRelu(Inst& in, Type d) {
  if (auto e = checkModifiers(in, {"relu", "satfinite"}); !e.empty()) return e;
  if (auto e = needRounding(in, {Round::RN, Round::RZ}, ".rn or .rz"); !e.empty()) return e;
  const bool relu = in.mods.has("relu"), sf = in.mods.has("satfinite");
  const bool bf = d == Type::BF16 || d == Type::BF16x2;
  if (d == Type::F16x2 || d == Type::BF16x2)
    return bindRegs(
        in,
        bf ? pickReluSat<PackTo<FK::BF16>::H>(relu, sf) : pickReluSat<PackTo<FK::F16>::H>(relu, sf),
        3, InsnClass::Convert);
  return bindRegs(in,
                  bf ? pickReluSat<NarrowTo<FK::BF16>::H>(relu, sf)
                     : pickReluSat<NarrowTo<FK::F16>::H>(relu, sf),
                  2, InsnClass::Convert);
}

// cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32.
std::string bindTF32(Inst& in) {
  if (in.mods.type(1) != Type::F32) return bindError(in, ".tf32 converts from .f32 only");
  if (auto e = checkModifiers(in, {"relu", "satfinite"}); !e.empty()) return e;
  if (auto e = needRounding(in, {Round::RNA, Round::RN, Round::RZ}, ".rna, .rn or .rz"); !e.empty())
    return e;
  const bool relu = in.mods.has("relu");
  if (relu && in.mods.rounding.mode == Round::RNA)
    return bindError(in, ".relu is defined with .rn and .rz only");
  return bindRegs(in, pickReluSat<ToTF32>(relu, in.mods.has("satfinite")), 2, InsnClass::Convert);
}

// Whether converting A to D can lose precision or range (then a .frnd rounding is required).
bool isLossy(Type d, Type a) {
  auto rank = [](Type t) { return t == Type::F64 ? 3 : t == Type::F32 ? 2 : 1; };
  if (d == a) return false;
  if (rank(d) > rank(a)) return false;  // f16/bf16 -> f32/f64, f32 -> f64: exact
  return true;                          // narrowing, and f16 <-> bf16 (neither holds the other)
}

// The general scalar form cvt{.rnd}{.ftz}{.sat}.dtype.atype between integer and floating-point
// types (at least one of them floating).
std::string bindScalar(Inst& in, Type d, Type a) {
  const Mods& m = in.mods;
  const Rounding& rd = m.rounding;
  if (auto e = checkModifiers(in, {"ftz", "sat"}); !e.empty()) return e;
  const bool ftz = m.has("ftz"), sat = m.has("sat");
  // "Modifier .ftz can only be specified when either .dtype or .atype is .f32".
  if (ftz && d != Type::F32 && a != Type::F32)
    return bindError(in, ".ftz requires .f32 as the source or destination type");
  // .sat "Applies to .f16, .f32, and .f64 types"; ptxas (sm_90) also refuses it for every
  // conversion from .bf16 ("Illegal modifier '.sat'").
  if (sat && (d == Type::BF16 || a == Type::BF16))
    return bindError(in, ".sat is not defined for conversions to or from .bf16");
  if (rd.present && rd.mode == Round::RNA)
    return bindError(in, ".rna is defined for the .tf32 destination only");

  if (isCvtIntType(d)) {  // float -> integer: "Integer rounding is required"
    if (!rd.present || !rd.integral)
      return bindError(in, "float-to-integer conversion requires .rni, .rzi, .rmi or .rpi");
    const bool z = ftz && a == Type::F32;
    Handler h = withFloatKind(a, [&](auto s) {
      return withIntType(d, [&](auto dt) -> Handler {
        using D = decltype(dt);
        return z ? FloatToInt<decltype(s)::value, D, true>::run
                 : FloatToInt<decltype(s)::value, D, false>::run;
      });
    });
    return bindRegs(in, h, 2, InsnClass::Convert);
  }
  if (isCvtIntType(a)) {  // integer -> float: "All int-to-float conversions" need .frnd
    if (!rd.present || rd.integral)
      return bindError(in, "integer-to-float conversion requires .rn, .rz, .rm or .rp");
    Handler h = withIntType(a, [&](auto at) {
      return withFloatKind(d, [&](auto dk) -> Handler {
        using A = decltype(at);
        return sat ? IntToFloat<A, decltype(dk)::value, true>::run
                   : IntToFloat<A, decltype(dk)::value, false>::run;
      });
    });
    return bindRegs(in, h, 2, InsnClass::Convert);
  }
  // float -> float. A rounding is "mandatory ... when destination type is smaller than source
  // type", so f16 <-> bf16 (same size) may omit it: ptxas accepts them and they round to
  // nearest. Rounding is "illegal in all other instances" of exact conversions, except that
  // ptxas accepts one on .bf16 -> .f32/.f64 (the manual's own example: cvt.f64.bf16.rp), where
  // it changes nothing.
  const bool sameSize = typeBits(d) == typeBits(a);
  if (rd.present && rd.integral) {
    if (d != a) return bindError(in, "integer rounding needs the same source and destination type");
  } else if (isLossy(d, a)) {
    if (!rd.present && !sameSize)
      return bindError(in, "a narrowing conversion requires .rn, .rz, .rm or .rp");
  } else if (rd.present && (a != Type::BF16 || d == a)) {
    return bindError(in, "floating-point rounding is illegal for a conversion that loses nothing");
  }
  Handler h = withFloatKind(a, [&](auto s) {
    return withFloatKind(d, [&](auto dk) -> Handler {
      constexpr FK S = decltype(s)::value, D = decltype(dk)::value;
      if (ftz)
        return sat ? FloatToFloat<S, D, true, true>::run : FloatToFloat<S, D, true, false>::run;
      return sat ? FloatToFloat<S, D, false, true>::run : FloatToFloat<S, D, false, false>::run;
    });
  });
  return bindRegs(in, h, 2, InsnClass::Convert);
}

}  // namespace

std::string bindCvtFloat(Inst& in) {
  const Type d = in.mods.type(0), a = in.mods.type(1);
  if (isF8x2(d) || isF8x2(a)) {
    if ((d == Type::F16x2 && isF8x2(a)) || (isF8x2(d) && !isF8x2(a))) return bindCvtF8(in);
    return bindError(in, "unsupported fp8 conversion");
  }
  if (d == Type::TF32) return bindTF32(in);
  if (d == Type::F16x2 || d == Type::BF16x2) {
    if (a != Type::F32) return bindError(in, "packs two .f32 sources (cvt.rn.f16x2.f32 d, a, b)");
    return bindNarrowRelu(in, d);
  }
  if ((d == Type::F16 || d == Type::BF16) && (in.mods.has("relu") || in.mods.has("satfinite"))) {
    if (a != Type::F32) return bindError(in, ".relu and .satfinite convert from .f32 only");
    return bindNarrowRelu(in, d);
  }
  const bool dOk = isScalarFloat(d) || isCvtIntType(d), aOk = isScalarFloat(a) || isCvtIntType(a);
  if (!dOk || !aOk) return bindError(in, "unsupported conversion types");
  return bindScalar(in, d, a);
}

}  // namespace warpsim::isa::insns
