// Bit-field, counting and packed dot-product instructions: bfe bfi brev bfind clz popc fns
// bmsk szext dp4a dp2a. PTX ISA 9.0, "Integer Arithmetic Instructions" (bfe, bfi, bfind,
// brev, clz, popc, fns, bmsk, szext, dp4a, dp2a). Part of the int_logic family: intLogic()
// (int_logic.cpp) appends these specs.
//
// Legal type/modifier combinations follow ptxas 13.0 for sm_90; the results were compared bit
// for bit against an H200, including the cases PTX leaves undefined (fns with base > 31).
#include <algorithm>
#include <bit>
#include <limits>
#include <type_traits>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

template <template <class> class H>
Handler pickUS3264(Type t) {
  switch (t) {
    case Type::U32:
      return H<uint32_t>::run;
    case Type::S32:
      return H<int32_t>::run;
    case Type::U64:
      return H<uint64_t>::run;
    case Type::S64:
      return H<int64_t>::run;
    default:
      return nullptr;
  }
}

template <template <class> class H>
Handler pickB3264(Type t) {
  switch (t) {
    case Type::B32:
      return H<uint32_t>::run;
    case Type::B64:
      return H<uint64_t>::run;
    default:
      return nullptr;
  }
}

// The field [pos, pos + len) clipped to the register: how many of its bits exist.
constexpr uint32_t fieldBits(uint32_t pos, uint32_t len, uint32_t width) {
  return pos >= width ? 0 : std::min(len, width - pos);
}

// PTX restricts bfe/bfi's position and length to 0..255 (b & 0xff, c & 0xff). The H200 does
// that for the 32-bit types only: the 64-bit forms take the whole 32-bit values, so a position of
// 256 lies past the register rather than at bit 0 (measured on the H200 for positions and lengths
// up to 0xffffffff).
template <class T>
constexpr uint32_t fieldArg(uint32_t v) {
  return sizeof(T) == 4 ? (v & 0xFF) : v;
}

// ---- bfe ------------------------------------------------------------------------------------
// The field's bits that exist are copied, the rest of d is the sign bit
// a[min(pos + len - 1, msb)] for signed types with len != 0, else 0.
template <class T>
struct BfeH {
  static void run(Exec& x, const Inst& in) {
    using U = std::make_unsigned_t<T>;
    constexpr uint32_t kBits = 8 * sizeof(T);
    ternary<T, T, uint32_t, uint32_t>(x, in, [](T av, uint32_t b, uint32_t c) {
      const U a = U(av);
      const uint32_t pos = fieldArg<T>(b), len = fieldArg<T>(c);
      const uint32_t k = fieldBits(pos, len, kBits);
      U d = k == 0 ? U(0) : U((a >> pos) & U(lowMask(k)));
      if (std::is_signed_v<T> && len != 0) {
        const uint32_t signPos = uint32_t(std::min<uint64_t>(uint64_t(pos) + len - 1, kBits - 1));
        if ((a >> signPos) & 1) d |= U(~lowMask(k));
      }
      return T(d);
    });
  }
};

// ---- bfi: f = b with a's low bits inserted at [pos, pos + len), clipped --------------------
template <class T>
struct BfiH {
  static void run(Exec& x, const Inst& in) {
    constexpr uint32_t kBits = 8 * sizeof(T);
    uint64_t* f = x.reg(in.ops[0]);
    const uint64_t* a = x.reg(in.ops[1]);
    const uint64_t* b = x.reg(in.ops[2]);
    const uint64_t* c = x.reg(in.ops[3]);
    const uint64_t* d = x.reg(in.ops[4]);
    forLanes(x.mask, [&](unsigned l) {
      const uint32_t pos = fieldArg<T>(uint32_t(c[l])), len = fieldArg<T>(uint32_t(d[l]));
      const uint32_t k = fieldBits(pos, len, kBits);
      const T bv = as<T>(b[l]);
      if (k == 0) {
        f[l] = bitsOf<T>(bv);
        return;
      }
      const T mask = T(lowMask(k) << pos);
      f[l] = bitsOf<T>(T((bv & ~mask) | (T(as<T>(a[l]) << pos) & mask)));
    });
  }
};

// ---- brev clz popc bfind ----------------------------------------------------------------------
template <class T>
T reverseBits(T v) {
  T r = 0;
  for (unsigned i = 0; i < 8 * sizeof(T); ++i) r |= T((v >> i) & 1) << (8 * sizeof(T) - 1 - i);
  return r;
}

template <class T>
struct BrevH {
  static void run(Exec& x, const Inst& in) {
    unary<T>(x, in, [](T a) { return reverseBits<T>(a); });
  }
};
// clz and popc write a .u32 whatever the source width.
template <class T>
struct ClzH {
  static void run(Exec& x, const Inst& in) {
    unary<uint32_t, T>(x, in, [](T a) { return uint32_t(std::countl_zero(a)); });
  }
};
template <class T>
struct PopcH {
  static void run(Exec& x, const Inst& in) {
    unary<uint32_t, T>(x, in, [](T a) { return uint32_t(std::popcount(a)); });
  }
};

// bfind: the position of the most significant non-sign bit (signed: of the most significant
// 0 of a negative value), 0xffffffff when there is none; .shiftamt gives msb - position.
template <class T, bool ShiftAmt>
struct BfindImpl {
  static void run(Exec& x, const Inst& in) {
    using U = std::make_unsigned_t<T>;
    constexpr uint32_t kMsb = 8 * sizeof(T) - 1;
    unary<uint32_t, T>(x, in, [](T av) {
      U a = U(av);
      if (std::is_signed_v<T> && (a >> kMsb)) a = U(~a);
      if (a == 0) return 0xFFFFFFFFu;
      const uint32_t pos = kMsb - uint32_t(std::countl_zero(a));
      return ShiftAmt ? kMsb - pos : pos;
    });
  }
};
template <class T>
using BfindH = BfindImpl<T, false>;
template <class T>
using BfindShiftH = BfindImpl<T, true>;

// ---- fns: find the n-th set bit -------------------------------------------------------------
// From `base`, walk up (offset > 0) or down (offset < 0) and return the position of the
// |offset|-th set bit of mask; offset 0 asks whether bit `base` itself is set. PTX leaves
// base > 31 undefined; base is read as an unsigned value here (the walk starts off the end, so
// the result is 0xffffffff), which is what the H200 returned for every base > 31 tried.
// One more measured quirk: an offset of INT32_MIN gives 0 whatever the mask and base.
uint32_t findNthSet(uint32_t mask, uint32_t base, int32_t offset) {
  if (offset == std::numeric_limits<int32_t>::min()) return 0;
  if (base > 31) return 0xFFFFFFFFu;
  if (offset == 0) return ((mask >> base) & 1) ? base : 0xFFFFFFFFu;
  int64_t count = offset > 0 ? int64_t(offset) - 1 : -int64_t(offset) - 1;
  const int inc = offset > 0 ? 1 : -1;
  for (int pos = int(base); pos >= 0 && pos < 32; pos += inc) {
    if ((mask >> pos) & 1) {
      if (count == 0) return uint32_t(pos);
      --count;
    }
  }
  return 0xFFFFFFFFu;
}

void fnsH(Exec& x, const Inst& in) {
  ternary<uint32_t, uint32_t, uint32_t, int32_t>(x, in, findNthSet);
}

// ---- bmsk: a mask of b bits from bit a (PTX ISA: bmsk, semantics transcribed) -------------
template <bool Clamp>
uint32_t bitMask(uint32_t a, uint32_t b) {
  const uint32_t a1 = a & 0x1F, b1 = b & 0x1F, sum = a1 + b1;
  uint32_t mask0 = ~0u << a1;
  uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
  bool overflow = sum >= 32;
  if (Clamp) {
    if (a >= 32) overflow = true, mask0 = 0;
    if (b >= 32) overflow = true;
  }
  if (overflow)
    mask1 = 0;
  else if (b1 == 0)
    mask1 = ~0u;
  return mask0 & ~mask1;
}

template <bool Clamp>
void bmskH(Exec& x, const Inst& in) {
  binary<uint32_t>(x, in, [](uint32_t a, uint32_t b) { return bitMask<Clamp>(a, b); });
}

// ---- szext: sign- or zero-extend the low N = b bits of a -----------------------------------
template <bool Clamp, bool Signed>
uint32_t extendField(uint32_t a, uint32_t b) {
  const uint32_t b1 = b & 0x1F;
  const bool tooLarge = Clamp && b >= 32;
  const uint32_t mask = tooLarge ? 0 : ~0u << b1;
  const bool sign = Signed && b1 != 0 && !tooLarge && ((a >> ((b1 - 1) & 0x1F)) & 1);
  return (a & ~mask) | (sign ? mask : 0);
}

template <bool Clamp, bool Signed>
void szextH(Exec& x, const Inst& in) {
  binary<uint32_t>(x, in, extendField<Clamp, Signed>);
}

// ---- dp4a / dp2a ----------------------------------------------------------------------------
// Bytes (dp2a: a's halves) sign- or zero-extended per .atype/.btype, products summed into c
// with 32-bit wrap-around.
template <bool Signed>
int64_t lane8(uint32_t v, unsigned i) {
  const uint32_t b = (v >> (8 * i)) & 0xFF;
  return Signed ? int64_t(int8_t(b)) : int64_t(b);
}
template <bool Signed>
int64_t lane16(uint32_t v, unsigned i) {
  const uint32_t h = (v >> (16 * i)) & 0xFFFF;
  return Signed ? int64_t(int16_t(h)) : int64_t(h);
}

template <bool SA, bool SB>
void dp4aH(Exec& x, const Inst& in) {
  ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
    int64_t sum = c;
    for (unsigned i = 0; i < 4; ++i) sum += lane8<SA>(a, i) * lane8<SB>(b, i);
    return uint32_t(sum);
  });
}

template <bool SA, bool SB, bool Hi>
void dp2aH(Exec& x, const Inst& in) {
  ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
    int64_t sum = c;
    for (unsigned i = 0; i < 2; ++i) sum += lane16<SA>(a, i) * lane8<SB>(b, (Hi ? 2 : 0) + i);
    return uint32_t(sum);
  });
}

// ---- binding --------------------------------------------------------------------------------
std::string bindBfe(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  return bindRegs(in, pickUS3264<BfeH>(in.mods.type()), 4);
}
std::string bindBfi(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  return bindRegs(in, pickB3264<BfiH>(in.mods.type()), 5);
}
std::string bindBrev(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  return bindRegs(in, pickB3264<BrevH>(in.mods.type()), 2);
}
std::string bindClz(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  return bindRegs(in, pickB3264<ClzH>(in.mods.type()), 2);
}
std::string bindPopc(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  return bindRegs(in, pickB3264<PopcH>(in.mods.type()), 2);
}
std::string bindBfind(Inst& in) {
  if (auto e = checkWords(in, {"shiftamt"}); !e.empty()) return e;
  const Type t = in.mods.type();
  return bindRegs(in, in.mods.has("shiftamt") ? pickUS3264<BfindShiftH>(t) : pickUS3264<BfindH>(t),
                  2);
}
std::string bindFns(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  if (in.mods.type() != Type::B32) return msg(in, "is defined for .b32 only");
  return bindRegs(in, fnsH, 4);
}

// .clamp or .wrap, exactly one (ptxas: "Clamp modifier required").
std::string clampMode(const Inst& in, bool& clamp) {
  clamp = in.mods.has("clamp");
  if (clamp == in.mods.has("wrap")) return msg(in, "needs exactly one of .clamp and .wrap");
  return "";
}

std::string bindBmsk(Inst& in) {
  if (auto e = checkWords(in, {"clamp", "wrap"}); !e.empty()) return e;
  if (in.mods.type() != Type::B32) return msg(in, "is defined for .b32 only");
  bool clamp;
  if (auto e = clampMode(in, clamp); !e.empty()) return e;
  return bindRegs(in, clamp ? bmskH<true> : bmskH<false>, 3);
}

std::string bindSzext(Inst& in) {
  if (auto e = checkWords(in, {"clamp", "wrap"}); !e.empty()) return e;
  const Type t = in.mods.type();
  if (t != Type::S32 && t != Type::U32) return msg(in, "is defined for .s32 and .u32");
  bool clamp;
  if (auto e = clampMode(in, clamp); !e.empty()) return e;
  const bool s = t == Type::S32;
  Handler h = clamp ? (s ? szextH<true, true> : szextH<true, false>)
                    : (s ? szextH<false, true> : szextH<false, false>);
  return bindRegs(in, h, 3);
}

// dp4a.atype.btype / dp2a.mode.atype.btype: both types .u32 or .s32.
std::string dpTypes(const Inst& in, bool& sa, bool& sb) {
  const Type a = in.mods.type(0), b = in.mods.type(1);
  auto ok = [](Type t) { return t == Type::U32 || t == Type::S32; };
  if (!ok(a) || !ok(b)) return msg(in, "takes .u32 or .s32 for each of .atype and .btype");
  sa = a == Type::S32, sb = b == Type::S32;
  return "";
}

std::string bindDp4a(Inst& in) {
  if (auto e = checkWords(in, {}, 2); !e.empty()) return e;
  bool sa, sb;
  if (auto e = dpTypes(in, sa, sb); !e.empty()) return e;
  Handler h = sa ? (sb ? dp4aH<true, true> : dp4aH<true, false>)
                 : (sb ? dp4aH<false, true> : dp4aH<false, false>);
  return bindRegs(in, h, 4);
}

template <bool Hi>
Handler dp2aFor(bool sa, bool sb) {
  return sa ? (sb ? dp2aH<true, true, Hi> : dp2aH<true, false, Hi>)
            : (sb ? dp2aH<false, true, Hi> : dp2aH<false, false, Hi>);
}

std::string bindDp2a(Inst& in) {
  if (auto e = checkWords(in, {"lo", "hi"}, 2); !e.empty()) return e;
  bool sa, sb;
  if (auto e = dpTypes(in, sa, sb); !e.empty()) return e;
  const bool lo = in.mods.has("lo"), hi = in.mods.has("hi");
  if (lo == hi) return msg(in, "needs exactly one of .lo and .hi");
  return bindRegs(in, hi ? dp2aFor<true>(sa, sb) : dp2aFor<false>(sa, sb), 4);
}

const std::vector<Type> kUS3264 = {Type::U32, Type::S32, Type::U64, Type::S64};
const std::vector<Type> kB3264 = {Type::B32, Type::B64};

}  // namespace

std::vector<OpcodeSpec> intBitSpecs() {
  return {
      {"bfe", "int_logic", InsnClass::Int, Role::Compute, Operation::Other, kUS3264, {}, bindBfe},
      {"bfi", "int_logic", InsnClass::Int, Role::Compute, Operation::Other, kB3264, {}, bindBfi},
      {"brev", "int_logic", InsnClass::Int, Role::Compute, Operation::Other, kB3264, {}, bindBrev},
      {"bfind",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kUS3264,
       {"shiftamt"},
       bindBfind},
      {"clz", "int_logic", InsnClass::Int, Role::Compute, Operation::Other, kB3264, {}, bindClz},
      {"popc", "int_logic", InsnClass::Int, Role::Compute, Operation::Other, kB3264, {}, bindPopc},
      {"fns",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::B32},
       {},
       bindFns},
      {"bmsk",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::B32},
       {"clamp", "wrap"},
       bindBmsk},
      {"szext",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::S32, Type::U32},
       {"clamp", "wrap"},
       bindSzext},
      {"dp4a",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::U32, Type::S32},
       {},
       bindDp4a},
      {"dp2a",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::U32, Type::S32},
       {"lo", "hi"},
       bindDp2a},
  };
}

}  // namespace warpsim::isa::insns
