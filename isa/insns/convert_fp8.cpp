// cvt to and from the fp8 pairs .e4m3x2 / .e5m2x2 (PTX ISA 9.0 section 9.7.9.21, sm_89+):
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32    d, a, b   (a in the upper byte)
//   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2  d, a      (the upper f16 to the upper byte)
//   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}            d, a      (the upper byte to the upper f16)
// Measured on the H200 (29 values to fp8, with and without .relu, covering every rounding case,
// and all 256 encodings from fp8): identical results.
#include "isa/fp.h"
#include "isa/insns/float_family.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

using fp::Format;
using fp::Round;

// ---- fp8: .e4m3x2 / .e5m2x2 (sm_89+) ----------------------------------------------------
// e5m2 is IEEE-like (5 exponent bits, 2 fraction bits, infinities, max normal 57344 = 0x7B).
// e4m3 (OCP "E4M3FN") has no infinities: exponent field 15 holds normals except S.1111.111,
// its only NaN; max normal 448 = 0x7E. It is rounded as the IEEE-like format with 5 exponent
// bits and 3 fraction bits at a scale of 2^-8 (the bias difference 15 - 7), whose encodings
// coincide with e4m3's below exponent field 16. Every fp8 conversion to fp8 is .rn.satfinite:
// NaN -> 0x7F, magnitudes beyond MAX_NORM (infinities included) -> sign-preserved MAX_NORM.
enum class F8 : uint8_t { E4M3, E5M2 };
constexpr Format kE5M2{5, 2};
constexpr Format kE4M3Scaled{5, 3};

template <F8 K, bool Relu>
uint16_t toF8(Format src, uint64_t bits) {
  const fp::Unpacked u = fp::unpack(src, bits);
  if (u.cls == fp::Class::NaN) return 0x7F;
  if (Relu && u.sign) return 0;
  const uint16_t sign = u.sign ? 0x80 : 0;
  constexpr uint16_t maxNorm = K == F8::E4M3 ? 0x7E : 0x7B;
  if (u.cls == fp::Class::Inf) return sign | maxNorm;
  if (u.cls == fp::Class::Zero) return sign;
  uint64_t e;
  if constexpr (K == F8::E4M3)
    e = fp::roundPack(kE4M3Scaled, u.sign, u.exp - 8, u.sig, false, Round::RN);
  else
    e = fp::roundPack(kE5M2, u.sign, u.exp, u.sig, false, Round::RN);
  const uint64_t mag = e & ~(K == F8::E4M3 ? kE4M3Scaled.signBit() : kE5M2.signBit());
  return sign | uint16_t(mag > maxNorm ? maxNorm : mag);
}

// fp8 -> f16, exact; .relu as for the other conversions; every e4m3 and e5m2 NaN gives the f16
// canonical NaN 0x7FFF (the manual does not say which NaN; measured on the H200 for all 256
// encodings of both formats, as were all the other results).
template <F8 K, bool Relu>
uint16_t fromF8(uint8_t b) {
  uint16_t h;
  if constexpr (K == F8::E5M2) {
    h = uint16_t(b) << 8;  // e5m2 is the upper byte of an f16
    if (fp::isNaN16(h)) return fp::kCanonicalNaN16;
  } else {
    if ((b & 0x7F) == 0x7F) return fp::kCanonicalNaN16;
    const unsigned e = (b >> 3) & 0xF, m = b & 7;
    const uint64_t sig = e ? (8 | m) : m;
    const int exp = (e ? int(e) : 1) - 7 - 3;
    h = sig ? uint16_t(fp::roundPack(fp::kF16, b & 0x80, exp, sig, false, Round::RN))
            : uint16_t((b & 0x80) << 8);
  }
  if (Relu && (h & 0x8000)) return 0;
  return h;
}

// cvt.rn.satfinite{.relu}.f8x2.f32 d, a, b: "the value converted from input a is stored in the
// upper 8 bits of d and the value converted from input b is stored in the lower 8 bits".
template <F8 K, bool Relu>
struct F32x2ToF8x2 {
  static void run(Exec& x, const Inst& in) {
    binary<uint64_t>(x, in, [](uint64_t a, uint64_t b) -> uint64_t {
      return (uint64_t(toF8<K, Relu>(fp::kF32, uint32_t(a))) << 8) |
             toF8<K, Relu>(fp::kF32, uint32_t(b));
    });
  }
};
// cvt.rn.satfinite{.relu}.f8x2.f16x2 d, a: the upper f16 of a goes to the upper byte.
template <F8 K, bool Relu>
struct F16x2ToF8x2 {
  static void run(Exec& x, const Inst& in) {
    unary<uint64_t>(x, in, [](uint64_t a) -> uint64_t {
      return (uint64_t(toF8<K, Relu>(fp::kF16, highHalf(a))) << 8) |
             toF8<K, Relu>(fp::kF16, lowHalf(a));
    });
  }
};
// cvt.rn{.relu}.f16x2.f8x2 d, a: the upper byte of a goes to the upper f16 of d.
template <F8 K, bool Relu>
struct F8x2ToF16x2 {
  static void run(Exec& x, const Inst& in) {
    unary<uint64_t>(x, in, [](uint64_t a) -> uint64_t {
      return packHalves(fromF8<K, Relu>(uint8_t(a)), fromF8<K, Relu>(uint8_t(a >> 8)));
    });
  }
};

}  // namespace

// The fp8 forms: to e4m3x2/e5m2x2 from f32 pairs or an f16x2, and from them to f16x2.
std::string bindCvtF8(Inst& in) {
  const Type d = in.mods.type(0), a = in.mods.type(1);
  if (auto e = checkModifiers(in, {"relu", "satfinite"}); !e.empty()) return e;
  const Rounding& rd = in.mods.rounding;
  if (!rd.present || rd.integral || rd.mode != Round::RN)
    return bindError(in, "fp8 conversions round with .rn");
  const bool relu = in.mods.has("relu");
  if (d == Type::F16x2) {
    if (in.mods.has("satfinite")) return bindError(in, ".satfinite does not apply to .f16x2");
    Handler h = a == Type::E4M3x2
                    ? (relu ? F8x2ToF16x2<F8::E4M3, true>::run : F8x2ToF16x2<F8::E4M3, false>::run)
                    : (relu ? F8x2ToF16x2<F8::E5M2, true>::run : F8x2ToF16x2<F8::E5M2, false>::run);
    return bindRegs(in, h, 2, InsnClass::Convert);
  }
  if (!in.mods.has("satfinite"))
    return bindError(in, ".satfinite is mandatory for conversions to .e4m3x2/.e5m2x2");
  const bool e4 = d == Type::E4M3x2;
  if (a == Type::F32) {
    Handler h = e4 ? (relu ? F32x2ToF8x2<F8::E4M3, true>::run : F32x2ToF8x2<F8::E4M3, false>::run)
                   : (relu ? F32x2ToF8x2<F8::E5M2, true>::run : F32x2ToF8x2<F8::E5M2, false>::run);
    return bindRegs(in, h, 3, InsnClass::Convert);
  }
  if (a == Type::F16x2) {
    Handler h = e4 ? (relu ? F16x2ToF8x2<F8::E4M3, true>::run : F16x2ToF8x2<F8::E4M3, false>::run)
                   : (relu ? F16x2ToF8x2<F8::E5M2, true>::run : F16x2ToF8x2<F8::E5M2, false>::run);
    return bindRegs(in, h, 2, InsnClass::Convert);
  }
  return bindError(in, "converts to .e4m3x2/.e5m2x2 from .f32 or .f16x2 (.bf16x2 needs sm_100)");
}

}  // namespace warpsim::isa::insns
