// cvt and cvt.pack, PTX ISA 9.0 sections 9.7.9.21-9.7.9.22. This file holds the family's spec,
// the integer-to-integer conversions and cvt.pack; every cvt with a floating-point type is bound
// by convert_float.cpp.
//
// Register widths (9.7.9.21 Notes): a source register wider than the instruction type is read
// through its low bits; the result is "sign-extended to the destination register width for
// signed integers, and is zero-extended to the destination register width for unsigned,
// bit-size, and floating-point types" -- so cvt.s8.s32 into a 32-bit register writes the 8-bit
// value sign-extended to 32 bits, and cvt.s16.s8 into a 16-bit register its 16-bit pattern.
#include <algorithm>
#include <limits>
#include <tuple>
#include <type_traits>

#include "isa/insns/families.h"
#include "isa/insns/float_family.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// ---- integer -> integer ------------------------------------------------------------------
// Without .sat the value is truncated to the destination width (after the source's sign or
// zero extension); .sat "limits the result to MININT..MAXINT for the size of the operation".
template <class D, class A, bool Sat>
struct IntToInt {
  static void run(Exec& x, const Inst& in) {
    constexpr unsigned w = 8 * sizeof(D);
    const uint32_t regBits = destinationRegisterBits(in, w);
    uint64_t* d = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    forLanes(x.mask, [&](unsigned l) {
      const A v = as<A>(a[l]);
      D r;
      if constexpr (Sat)
        r = D(
            std::clamp<__int128>(v, std::numeric_limits<D>::min(), std::numeric_limits<D>::max()));
      else
        r = D(v);  // modulo 2^w (C++20 integral conversion)
      d[l] = extendToRegister(uint64_t(r), w, std::is_signed_v<D>, regBits);
    });
  }
};

// Whether every value of integer type `a` is a value of `d`: then .sat is illegal ("the .sat
// modifier is illegal in cases where saturation is not possible based on the source and
// destination types").
bool rangeContains(Type d, Type a) {
  const uint32_t dw = typeBits(d), aw = typeBits(a);
  if (isUnsignedInt(a)) return isUnsignedInt(d) ? aw <= dw : aw < dw;
  return isSigned(d) && aw <= dw;
}

std::string bindIntToInt(Inst& in) {
  const Type d = in.mods.type(0), a = in.mods.type(1);
  if (auto e = checkModifiers(in, {"sat"}); !e.empty()) return e;
  // "Integer rounding is illegal in all other instances"; float rounding needs a float type.
  if (in.mods.rounding.present) return bindError(in, "integer-to-integer cvt takes no rounding");
  const bool sat = in.mods.has("sat");
  if (sat && rangeContains(d, a))
    return bindError(in, ".sat is illegal: the destination type holds every source value");
  Handler h = withIntType(d, [&](auto dt) {
    return withIntType(a, [&](auto at) -> Handler {
      using D = decltype(dt);
      using A = decltype(at);
      return sat ? IntToInt<D, A, true>::run : IntToInt<D, A, false>::run;
    });
  });
  return bindRegs(in, h, 2, InsnClass::Convert);
}

// ---- cvt.pack (9.7.9.22) -----------------------------------------------------------------
// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u2,s2,u4,s4,u8,s8}.s32.b32 d, a, b, c:
// a and b saturated to the convert type, b in the low `size` bits and a above it; for the
// narrow types the rest of d comes from the low bits of c.
template <unsigned Size, bool Signed, bool HasC>
struct CvtPack {
  static int64_t saturate(int32_t v) {
    constexpr int64_t lo = Signed ? -(int64_t{1} << (Size - 1)) : 0;
    constexpr int64_t hi = Signed ? (int64_t{1} << (Size - 1)) - 1 : (int64_t{1} << Size) - 1;
    return std::clamp<int64_t>(v, lo, hi);
  }
  static void run(Exec& x, const Inst& in) {
    uint64_t* d = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    const uint64_t* b = x.reg(in.ops[2]);
    const uint64_t* c = HasC ? x.reg(in.ops[3]) : nullptr;
    constexpr uint64_t m = lowMask(Size);
    forLanes(x.mask, [&](unsigned l) {
      const uint64_t ta = uint64_t(saturate(as<int32_t>(a[l]))) & m;
      const uint64_t tb = uint64_t(saturate(as<int32_t>(b[l]))) & m;
      uint64_t td = tb | (ta << Size);
      if constexpr (HasC) td |= uint64_t(as<uint32_t>(c[l])) << (2 * Size);
      d[l] = td & 0xFFFFFFFFu;
    });
  }
};

std::string bindCvtPack(Inst& in) {
  const Mods& m = in.mods;
  if (auto e = checkModifiers(in, {"pack", "sat", "u2", "s2", "u4", "s4"}); !e.empty()) return e;
  if (!m.has("sat")) return bindError(in, "cvt.pack requires .sat");
  if (m.rounding.present) return bindError(in, "cvt.pack takes no rounding");
  // The convert type: a sub-byte word (not a warpsim Type) or the first type word.
  unsigned size = 0;
  bool isSignedConvert = false;
  for (auto [w, s, sg] :
       {std::tuple{"u2", 2u, false}, {"s2", 2u, true}, {"u4", 4u, false}, {"s4", 4u, true}}) {
    if (m.has(w)) {
      if (size) return bindError(in, "takes one convert type");
      size = s, isSignedConvert = sg;
    }
  }
  std::vector<Type> rest = m.types;  // abType (and cType) after the convert type
  if (!size) {
    const Type t = m.type(0);
    if (t != Type::U8 && t != Type::S8 && t != Type::U16 && t != Type::S16)
      return bindError(in, "convert type must be .u16 .s16 .u8 .s8 .u4 .s4 .u2 or .s2");
    size = typeBits(t), isSignedConvert = isSigned(t);
    rest.erase(rest.begin());
  }
  const bool wide = size == 16;
  const std::vector<Type> want =
      wide ? std::vector<Type>{Type::S32} : std::vector<Type>{Type::S32, Type::B32};
  if (rest != want)
    return bindError(in, wide ? "form is cvt.pack.sat.{u16,s16}.s32 d, a, b"
                              : "form is cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c");
  Handler h = nullptr;
  switch (size) {
    case 16:
      h = isSignedConvert ? CvtPack<16, true, false>::run : CvtPack<16, false, false>::run;
      break;
    case 8:
      h = isSignedConvert ? CvtPack<8, true, true>::run : CvtPack<8, false, true>::run;
      break;
    case 4:
      h = isSignedConvert ? CvtPack<4, true, true>::run : CvtPack<4, false, true>::run;
      break;
    case 2:
      h = isSignedConvert ? CvtPack<2, true, true>::run : CvtPack<2, false, true>::run;
      break;
  }
  return bindRegs(in, h, wide ? 3 : 4, InsnClass::Convert);
}

std::string bindCvt(Inst& in) {
  if (in.mods.has("pack")) return bindCvtPack(in);
  if (in.mods.types.size() != 2)
    return bindError(in, "takes a destination type and a source type (cvt.dtype.atype)");
  if (isCvtIntType(in.mods.type(0)) && isCvtIntType(in.mods.type(1))) return bindIntToInt(in);
  return bindCvtFloat(in);
}

}  // namespace

std::vector<OpcodeSpec> conversion() {
  return {
      {"cvt",
       "convert",
       InsnClass::Convert,
       Role::Compute,
       Operation::Other,
       {Type::U8, Type::U16, Type::U32, Type::U64, Type::S8, Type::S16, Type::S32, Type::S64,
        Type::F16, Type::BF16, Type::TF32, Type::F32, Type::F64, Type::F16x2, Type::BF16x2,
        Type::E4M3x2, Type::E5M2x2, Type::B32},
       {"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi", "ftz", "sat", "relu",
        "satfinite", "pack", "u2", "s2", "u4", "s4"},
       bindCvt},
  };
}

}  // namespace warpsim::isa::insns
