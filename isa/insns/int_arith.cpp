// Integer arithmetic: add sub (.sat, .cc, addc/subc), mul mad (.lo .hi .wide, .sat, madc),
// mul24 mad24 (.lo .hi), sad, div rem, abs neg, min max (.relu), for 16-, 32- and 64-bit
// types. PTX ISA 9.0 section 9.7.1 (integer arithmetic) and 9.7.2 (extended precision).
#include <algorithm>
#include <limits>
#include <type_traits>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

template <class T>
using Wide = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
template <class T>
using Unsigned = std::make_unsigned_t<T>;

// Wrapping arithmetic without signed-overflow UB.
template <class T>
T wrapAdd(T a, T b) {
  return T(Unsigned<T>(a) + Unsigned<T>(b));
}
template <class T>
T wrapSub(T a, T b) {
  return T(Unsigned<T>(a) - Unsigned<T>(b));
}
template <class T>
T wrapMul(T a, T b) {
  return T(Unsigned<T>(Unsigned<T>(a) * Unsigned<T>(b)));
}

template <class T>
T saturate(__int128 v) {
  return T(std::clamp<__int128>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

// The integer C++ type for a PTX type: b/u -> unsigned, s -> signed.
template <template <class> class H>
Handler pickInt(Type t) {
  switch (t) {
    case Type::U16:
    case Type::B16:
      return H<uint16_t>::run;
    case Type::S16:
      return H<int16_t>::run;
    case Type::U32:
    case Type::B32:
      return H<uint32_t>::run;
    case Type::S32:
      return H<int32_t>::run;
    case Type::U64:
    case Type::B64:
      return H<uint64_t>::run;
    case Type::S64:
      return H<int64_t>::run;
    default:
      return nullptr;
  }
}

// add and sub of 16- and 32-bit types in the registers' 64 bits: the low bits of a 64-bit sum
// (difference) are the narrow sum's, and a register holds the narrow type's bits zero-extended
// (bitsOf), so the result is the 64-bit one masked. The vectors then need no narrowing and
// widening around the operation.
template <class T, class F>
void wrapInSlots(Exec& x, const Inst& in, F&& op) {
  static_assert(sizeof(T) < 8);
  constexpr uint64_t kLow = (uint64_t{1} << (8 * sizeof(T))) - 1;
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  forLanesBlended(x.mask, x.reg(in.ops[0]), [&](unsigned l) { return op(a[l], b[l]) & kLow; });
}

template <class T>
struct Add {
  static void run(Exec& x, const Inst& in) {
    if constexpr (sizeof(T) == 8)
      binaryTotal<T>(x, in, [](T a, T b) { return wrapAdd<T>(a, b); });
    else
      wrapInSlots<T>(x, in, [](uint64_t a, uint64_t b) { return a + b; });
  }
};
template <class T>
struct Sub {
  static void run(Exec& x, const Inst& in) {
    if constexpr (sizeof(T) == 8)
      binaryTotal<T>(x, in, [](T a, T b) { return wrapSub<T>(a, b); });
    else
      wrapInSlots<T>(x, in, [](uint64_t a, uint64_t b) { return a - b; });
  }
};
template <class T>
struct AddSat {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) { return saturate<T>(__int128(a) + b); });
  }
};
template <class T>
struct SubSat {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) { return saturate<T>(__int128(a) - b); });
  }
};

// Extended precision: the carry flag lives in kCarrySlot, one bit per lane. subc computes
// a - b - borrow as a + ~b + carry, the hardware's form, so CC.CF after sub.cc is NOT borrow.
template <class T, bool UseCarry, bool SetCarry, bool Subtract>
struct AddCarry {
  static void run(Exec& x, const Inst& in) {
    uint64_t* d = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    const uint64_t* b = x.reg(in.ops[2]);
    uint64_t* cf = x.reg(kCarrySlot);
    using U = Unsigned<T>;
    forLanes(x.mask, [&](unsigned l) {
      const U av = U(a[l]);
      const U bv = Subtract ? U(~U(b[l])) : U(b[l]);
      const U cin = UseCarry ? U(cf[l] & 1) : U(Subtract ? 1 : 0);
      const unsigned __int128 sum = (unsigned __int128)av + bv + cin;
      d[l] = bitsOf<U>(U(sum));
      if (SetCarry) cf[l] = uint64_t(sum >> (8 * sizeof(U))) & 1;
    });
  }
};

template <class T>
struct MulLo {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) { return wrapMul<T>(a, b); });
  }
};
template <class T>
struct MulHi {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in,
              [](T a, T b) { return T(Wide<T>(Wide<T>(a) * Wide<T>(b)) >> (8 * sizeof(T))); });
  }
};
// .wide: the full product in a register twice as wide (16->32, 32->64 bits).
template <class T>
struct MulWide {
  static void run(Exec& x, const Inst& in) {
    using W = std::conditional_t<std::is_signed_v<T>,
                                 std::conditional_t<sizeof(T) == 2, int32_t, int64_t>,
                                 std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;
    binary<W, T, T>(x, in, [](T a, T b) { return W(W(a) * W(b)); });
  }
};
template <class T>
struct MadLo {
  static void run(Exec& x, const Inst& in) {
    ternaryTotal<T>(x, in, [](T a, T b, T c) { return wrapAdd<T>(wrapMul<T>(a, b), c); });
  }
};
template <class T>
struct MadHi {
  static void run(Exec& x, const Inst& in) {
    ternary<T>(x, in, [](T a, T b, T c) {
      return wrapAdd<T>(T(Wide<T>(Wide<T>(a) * Wide<T>(b)) >> (8 * sizeof(T))), c);
    });
  }
};
// mad.hi.sat.s32: the high word plus c, saturated (PTX: only for .s32).
struct MadHiSatS32 {
  static void run(Exec& x, const Inst& in) {
    ternary<int32_t>(x, in, [](int32_t a, int32_t b, int32_t c) {
      return saturate<int32_t>(__int128(int32_t((int64_t(a) * b) >> 32)) + c);
    });
  }
};
template <class T>
struct MadWide {
  static void run(Exec& x, const Inst& in) {
    using W = std::conditional_t<std::is_signed_v<T>,
                                 std::conditional_t<sizeof(T) == 2, int32_t, int64_t>,
                                 std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;
    ternary<W, T, T, W>(x, in, [](T a, T b, W c) {
      return W(std::make_unsigned_t<W>(W(a) * W(b)) + std::make_unsigned_t<W>(c));
    });
  }
};

// mul24/mad24: the operands' low 24 bits (sign-extended for .s32), 48-bit product; .lo its
// low 32 bits, .hi bits 16..47.
template <class T>
int64_t product24(T a, T b) {
  if constexpr (std::is_signed_v<T>)
    return signExtend(uint32_t(a), 24) * signExtend(uint32_t(b), 24);
  else
    return int64_t((uint64_t(a) & 0xFFFFFF) * (uint64_t(b) & 0xFFFFFF));
}
template <class T, bool Hi>
struct Mul24 {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in,
              [](T a, T b) { return T(uint32_t(uint64_t(product24(a, b)) >> (Hi ? 16 : 0))); });
  }
};
template <class T, bool Hi>
struct Mad24 {
  static void run(Exec& x, const Inst& in) {
    ternary<T>(x, in, [](T a, T b, T c) {
      return wrapAdd<T>(T(uint32_t(uint64_t(product24(a, b)) >> (Hi ? 16 : 0))), c);
    });
  }
};

template <class T>
struct Sad {
  static void run(Exec& x, const Inst& in) {
    ternary<T>(x, in, [](T a, T b, T c) {
      return wrapAdd<T>(
          T(a < b ? Unsigned<T>(b) - Unsigned<T>(a) : Unsigned<T>(a) - Unsigned<T>(b)), c);
    });
  }
};

// Division by zero: PTX leaves it unspecified. The H200 (ptxas 13.0's division sequence)
// gives all ones for every quotient, signed or not, whatever the dividend's sign, and all ones
// for every remainder too (measured for .u16/.s16/.u32/.s32/.u64/.s64; the remainder is NOT
// the dividend). MIN / -1 wraps to MIN and MIN % -1 is 0.
template <class T>
struct Div {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) -> T {
      if (b == 0) return T(~Unsigned<T>(0));
      if constexpr (std::is_signed_v<T>)
        if (a == std::numeric_limits<T>::min() && b == -1) return a;
      return T(a / b);
    });
  }
};
template <class T>
struct Rem {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) -> T {
      if (b == 0) return T(~Unsigned<T>(0));
      if constexpr (std::is_signed_v<T>)
        if (a == std::numeric_limits<T>::min() && b == -1) return 0;
      return T(a % b);
    });
  }
};

template <class T>
struct Abs {
  static void run(Exec& x, const Inst& in) {
    unary<T>(x, in, [](T a) { return a < 0 ? wrapSub<T>(0, a) : a; });  // abs(MIN) = MIN
  }
};
template <class T>
struct Neg {
  static void run(Exec& x, const Inst& in) {
    unary<T>(x, in, [](T a) { return wrapSub<T>(0, a); });
  }
};
template <class T>
struct Min {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) { return std::min(a, b); });
  }
};
template <class T>
struct Max {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) { return std::max(a, b); });
  }
};
template <class T>
struct MinRelu {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) { return std::max<T>(0, std::min(a, b)); });
  }
};
template <class T>
struct MaxRelu {
  static void run(Exec& x, const Inst& in) {
    binary<T>(x, in, [](T a, T b) { return std::max<T>(0, std::max(a, b)); });
  }
};

// The .u16x2 / .s16x2 forms: the two half-words of each operand are combined independently
// (PTX ISA 9.7.1: add, min, max), low half to low half.
template <class Half, class F>
inline uint32_t perHalf(uint64_t a, uint64_t b, F f) {
  uint32_t d = 0;
  for (unsigned i = 0; i < 2; ++i) {
    const Half x = Half(uint16_t(a >> (16 * i))), y = Half(uint16_t(b >> (16 * i)));
    d |= uint32_t(uint16_t(f(x, y))) << (16 * i);
  }
  return d;
}

enum class HalfOp { Add, Min, Max, MinRelu, MaxRelu };

template <class Half, HalfOp Op>
struct Packed16 {
  static void run(Exec& x, const Inst& in) {
    uint64_t* d = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    const uint64_t* b = x.reg(in.ops[2]);
    forLanes(x.mask, [&](unsigned l) {
      d[l] = perHalf<Half>(a[l], b[l], [](Half p, Half q) -> Half {
        switch (Op) {
          case HalfOp::Add:
            return Half(uint16_t(p) + uint16_t(q));  // wraps
          case HalfOp::Min:
            return std::min(p, q);
          case HalfOp::Max:
            return std::max(p, q);
          case HalfOp::MinRelu:
            return std::max<Half>(0, std::min(p, q));
          case HalfOp::MaxRelu:
            return std::max<Half>(0, std::max(p, q));
        }
        return 0;
      });
    });
  }
};

template <HalfOp Op>
Handler packedFor(Type t) {
  if (t == Type::U16x2) return Packed16<uint16_t, Op>::run;
  if (t == Type::S16x2) return Packed16<int16_t, Op>::run;
  return nullptr;
}

bool isPacked16(Type t) { return t == Type::U16x2 || t == Type::S16x2; }

// min/max: .relu only for .s32 and .s16x2 (clamps negative results to 0).
std::string bindMinMax(Inst& in, bool isMax) {
  const Type t = in.mods.type();
  const bool relu = in.mods.has("relu");
  if (relu && t != Type::S32 && t != Type::S16x2)
    return std::string(".relu is only defined for .s32 and .s16x2");
  if (isPacked16(t))
    return bindRegs(in,
                    isMax ? (relu ? packedFor<HalfOp::MaxRelu>(t) : packedFor<HalfOp::Max>(t))
                          : (relu ? packedFor<HalfOp::MinRelu>(t) : packedFor<HalfOp::Min>(t)),
                    3);
  if (isMax) return bindRegs(in, relu ? pickInt<MaxRelu>(t) : pickInt<Max>(t), 3);
  return bindRegs(in, relu ? pickInt<MinRelu>(t) : pickInt<Min>(t), 3);
}

std::string bindAddSub(Inst& in, bool sub) {
  const Type t = in.mods.type();
  if (isPacked16(t)) {
    if (sub) return "'" + in.text + "': sub has no .u16x2/.s16x2 form";
    if (in.mods.has("sat") || in.mods.has("cc"))
      return "'" + in.text + "': .sat and .cc apply to .s32 only";
    return bindRegs(in, packedFor<HalfOp::Add>(t), 3);
  }
  const bool cc = in.mods.has("cc");
  if (in.mods.has("sat")) {
    if (t != Type::S32) return ".sat is only defined for .s32";
    if (cc) return ".sat cannot be combined with .cc";
    return bindRegs(in, sub ? SubSat<int32_t>::run : AddSat<int32_t>::run, 3);
  }
  if (cc) {
    if (typeBits(t) == 32)
      return bindRegs(in,
                      sub ? AddCarry<uint32_t, false, true, true>::run
                          : AddCarry<uint32_t, false, true, false>::run,
                      3);
    if (typeBits(t) == 64)
      return bindRegs(in,
                      sub ? AddCarry<uint64_t, false, true, true>::run
                          : AddCarry<uint64_t, false, true, false>::run,
                      3);
    return ".cc is only defined for 32- and 64-bit types";
  }
  return bindRegs(in, sub ? pickInt<Sub>(t) : pickInt<Add>(t), 3);
}

std::string bindCarryIn(Inst& in, bool sub) {
  const Type t = in.mods.type();
  const bool cc = in.mods.has("cc");
  Handler h = nullptr;
  if (typeBits(t) == 32)
    h = sub ? (cc ? AddCarry<uint32_t, true, true, true>::run
                  : AddCarry<uint32_t, true, false, true>::run)
            : (cc ? AddCarry<uint32_t, true, true, false>::run
                  : AddCarry<uint32_t, true, false, false>::run);
  else if (typeBits(t) == 64)
    h = sub ? (cc ? AddCarry<uint64_t, true, true, true>::run
                  : AddCarry<uint64_t, true, false, true>::run)
            : (cc ? AddCarry<uint64_t, true, true, false>::run
                  : AddCarry<uint64_t, true, false, false>::run);
  return bindRegs(in, h, 3);
}

std::string bindMul(Inst& in) {
  const Type t = in.mods.type();
  if (in.mods.has("wide")) {
    if (typeBits(t) == 64) return "mul.wide is defined for 16- and 32-bit types";
    return bindRegs(in, pickInt<MulWide>(t), 3);
  }
  if (in.mods.has("hi")) return bindRegs(in, pickInt<MulHi>(t), 3);
  return bindRegs(in, pickInt<MulLo>(t), 3);
}

// mad.cc / madc: a*b (.lo or .hi half) + c [+ CF], optionally setting CF (32/64-bit only).
template <class T, bool Hi, bool UseCarry, bool SetCarry>
struct MadCarry {
  static void run(Exec& x, const Inst& in) {
    uint64_t* d = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    const uint64_t* b = x.reg(in.ops[2]);
    const uint64_t* c = x.reg(in.ops[3]);
    uint64_t* cf = x.reg(kCarrySlot);
    using U = Unsigned<T>;
    constexpr unsigned kBits = 8 * sizeof(U);
    forLanes(x.mask, [&](unsigned l) {
      const Wide<T> p = Wide<T>(as<T>(a[l])) * Wide<T>(as<T>(b[l]));
      const U half = Hi ? U((unsigned __int128)p >> kBits) : U((unsigned __int128)p);
      const unsigned __int128 sum =
          (unsigned __int128)half + U(c[l]) + (UseCarry ? (cf[l] & 1) : 0);
      d[l] = bitsOf<U>(U(sum));
      if (SetCarry) cf[l] = uint64_t(sum >> kBits) & 1;
    });
  }
};

template <class T, bool UseCarry>
Handler madCarryFor(bool hi, bool cc) {
  if (hi)
    return cc ? MadCarry<T, true, UseCarry, true>::run : MadCarry<T, true, UseCarry, false>::run;
  return cc ? MadCarry<T, false, UseCarry, true>::run : MadCarry<T, false, UseCarry, false>::run;
}

std::string bindMadCarry(Inst& in, bool useCarry) {
  const Type t = in.mods.type();
  const bool hi = in.mods.has("hi"), cc = in.mods.has("cc");
  Handler h = nullptr;
  switch (t) {
    case Type::U32:
    case Type::B32:
      h = useCarry ? madCarryFor<uint32_t, true>(hi, cc) : madCarryFor<uint32_t, false>(hi, cc);
      break;
    case Type::S32:
      h = useCarry ? madCarryFor<int32_t, true>(hi, cc) : madCarryFor<int32_t, false>(hi, cc);
      break;
    case Type::U64:
    case Type::B64:
      h = useCarry ? madCarryFor<uint64_t, true>(hi, cc) : madCarryFor<uint64_t, false>(hi, cc);
      break;
    case Type::S64:
      h = useCarry ? madCarryFor<int64_t, true>(hi, cc) : madCarryFor<int64_t, false>(hi, cc);
      break;
    default:
      return "'" + in.text + "' is defined for 32- and 64-bit types";
  }
  return bindRegs(in, h, 4);
}

std::string bindMad(Inst& in) {
  const Type t = in.mods.type();
  if (in.mods.has("sat") && !in.mods.has("hi")) return ".sat is only defined for mad.hi.s32";
  if (in.mods.has("cc")) {
    if (in.mods.has("wide")) return "mad.wide has no .cc form";
    if (in.mods.has("sat")) return ".sat cannot be combined with .cc";
    return bindMadCarry(in, false);
  }
  if (in.mods.has("wide")) {
    if (typeBits(t) == 64) return "mad.wide is defined for 16- and 32-bit types";
    return bindRegs(in, pickInt<MadWide>(t), 4);
  }
  if (in.mods.has("hi")) {
    if (in.mods.has("sat")) {
      if (t != Type::S32) return ".sat is only defined for mad.hi.s32";
      return bindRegs(in, MadHiSatS32::run, 4);
    }
    return bindRegs(in, pickInt<MadHi>(t), 4);
  }
  return bindRegs(in, pickInt<MadLo>(t), 4);
}

// mad24.hi.sat.s32: bits 16..47 of the 48-bit product plus c, saturated to the s32 range.
struct Mad24HiSatS32 {
  static void run(Exec& x, const Inst& in) {
    ternary<int32_t>(x, in, [](int32_t a, int32_t b, int32_t c) {
      const int64_t hi = int32_t(uint32_t(uint64_t(product24(a, b)) >> 16));
      return saturate<int32_t>(__int128(hi) + c);
    });
  }
};

template <template <class, bool> class H>
std::string bind24(Inst& in, size_t operands) {
  const bool hi = in.mods.has("hi");
  const Type t = in.mods.type();
  if (in.mods.has("sat")) {
    if (operands != 4 || !hi || t != Type::S32) return ".sat is only defined for mad24.hi.s32";
    return bindRegs(in, Mad24HiSatS32::run, operands);
  }
  Handler h = nullptr;
  if (t == Type::S32) h = hi ? H<int32_t, true>::run : H<int32_t, false>::run;
  if (t == Type::U32) h = hi ? H<uint32_t, true>::run : H<uint32_t, false>::run;
  if (!h) return "'" + in.text + "' is defined for .u32 and .s32";
  return bindRegs(in, h, operands);
}

const std::vector<Type> kIntTypes = {Type::U16, Type::U32, Type::U64, Type::S16, Type::S32,
                                     Type::S64, Type::B16, Type::B32, Type::B64};
const std::vector<Type> kSignedOnly = {Type::S16, Type::S32, Type::S64};
const std::vector<Type> kAddTypes = {Type::U16, Type::U32,   Type::U64,  Type::S16,
                                     Type::S32, Type::S64,   Type::B16,  Type::B32,
                                     Type::B64, Type::U16x2, Type::S16x2};
const std::vector<Type> kMinMaxTypes = kAddTypes;

}  // namespace

std::vector<OpcodeSpec> intArithmetic() {
  return {
      {"add",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Add,
       kAddTypes,
       {"sat", "cc"},
       [](Inst& in) { return bindAddSub(in, false); }},
      {"sub",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Subtract,
       kIntTypes,
       {"sat", "cc"},
       [](Inst& in) { return bindAddSub(in, true); }},
      {"addc",
       "int_arith",
       InsnClass::Int,
       Role::ComputeCarryIn,
       Operation::Add,
       kIntTypes,
       {"cc"},
       [](Inst& in) { return bindCarryIn(in, false); }},
      {"subc",
       "int_arith",
       InsnClass::Int,
       Role::ComputeCarryIn,
       Operation::Subtract,
       kIntTypes,
       {"cc"},
       [](Inst& in) { return bindCarryIn(in, true); }},
      {"mul",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Multiply,
       kIntTypes,
       {"lo", "hi", "wide"},
       bindMul},
      {"mad",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::MultiplyAdd,
       kIntTypes,
       {"lo", "hi", "wide", "sat", "cc"},
       bindMad},
      {"madc",
       "int_arith",
       InsnClass::Int,
       Role::ComputeCarryIn,
       Operation::MultiplyAdd,
       kIntTypes,
       {"lo", "hi", "cc"},
       [](Inst& in) { return bindMadCarry(in, true); }},
      {"mul24",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Multiply,
       {Type::U32, Type::S32},
       {"lo", "hi"},
       [](Inst& in) { return bind24<Mul24>(in, 3); }},
      {"mad24",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::MultiplyAdd,
       {Type::U32, Type::S32},
       {"lo", "hi", "sat"},
       [](Inst& in) { return bind24<Mad24>(in, 4); }},
      {"sad",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kIntTypes,
       {},
       [](Inst& in) { return bindRegs(in, pickInt<Sad>(in.mods.type()), 4); }},
      {"div",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Divide,
       kIntTypes,
       {},
       [](Inst& in) { return bindRegs(in, pickInt<Div>(in.mods.type()), 3); }},
      {"rem",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kIntTypes,
       {},
       [](Inst& in) { return bindRegs(in, pickInt<Rem>(in.mods.type()), 3); }},
      {"abs",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Absolute,
       kSignedOnly,
       {},
       [](Inst& in) { return bindRegs(in, pickInt<Abs>(in.mods.type()), 2); }},
      {"neg",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Negate,
       kSignedOnly,
       {},
       [](Inst& in) { return bindRegs(in, pickInt<Neg>(in.mods.type()), 2); }},
      {"min",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Min,
       kMinMaxTypes,
       {"relu"},
       [](Inst& in) { return bindMinMax(in, false); }},
      {"max",
       "int_arith",
       InsnClass::Int,
       Role::Compute,
       Operation::Max,
       kMinMaxTypes,
       {"relu"},
       [](Inst& in) { return bindMinMax(in, true); }},
  };
}

}  // namespace warpsim::isa::insns
