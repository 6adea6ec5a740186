// Private to the floating-point families (float_arith.cpp, float_sfu.cpp, half_arith.cpp,
// convert.cpp, convert_float.cpp): the bind-time modifier checks they share, the handler tables
// that turn modifier flags into template instantiations (so nothing looks at a string while a
// kernel runs), and the binders one file lends another.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "isa/fp.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {

// A NaN result as the canonical NaN's bits, any other as its own (fp.h's canonical32).
inline uint64_t ftzCanonicalBits(float v) { return v != v ? fp::kCanonicalNaN32 : fp::bits(v); }

// fma.rn.ftz.f32 (fma, mad, and float_contract.cpp's fused forms with A or C negated) over the
// executing lanes: fp::fma's fast path for the warp, the lanes at the subnormal border through
// fp::fma itself (forLanesTwoPass).
template <bool NegA = false, bool NegC = false>
void ftzFmaLanes(Exec& x, const Inst& in) {
  const uint64_t *a = x.reg(in.ops[1]), *b = x.reg(in.ops[2]), *c = x.reg(in.ops[3]);
  const auto op = [](const uint64_t* r, unsigned l, bool negate) {
    return fp::f32(uint32_t(r[l]) ^ (negate ? 0x80000000u : 0u));
  };
  forLanesTwoPass(
      x.mask, x.reg(in.ops[0]),
      [&](unsigned l, bool& slow) {
        const float v = fp::ftzFmaFast(op(a, l, NegA), op(b, l, false), op(c, l, NegC));
        slow = !fp::ftzFastHolds(v);
        return ftzCanonicalBits(v);
      },
      [&](unsigned l) -> uint64_t {
        return fp::bits(
            fp::fma(op(a, l, NegA), op(b, l, false), op(c, l, NegC), fp::Round::RN, true));
      });
}

inline bool isRoundingWord(std::string_view w) {
  for (std::string_view r : {"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi"})
    if (w == r) return true;
  return false;
}

// "'add.f32': why" -- every bind error names the instruction as written.
inline std::string bindError(const Inst& in, const std::string& why) {
  return "'" + in.text + "': " + why;
}

// "" when every modifier word of `in` that is neither a type nor a rounding word is in `allowed`,
// at most one rounding word is given, and no such word is repeated (type words may repeat:
// cvt.f32.f32).
inline std::string checkModifiers(const Inst& in, std::initializer_list<std::string_view> allowed) {
  const auto& words = in.mods.words;
  unsigned roundings = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (typeFromName(w)) continue;
    if (std::count(words.begin(), words.end(), w) > 1)
      return bindError(in, "modifier '." + w + "' is repeated");
    if (isRoundingWord(w)) {
      if (++roundings > 1) return bindError(in, "takes at most one rounding modifier");
      continue;
    }
    if (std::find(allowed.begin(), allowed.end(), std::string_view(w)) == allowed.end())
      return bindError(in, "modifier '." + w + "' is not allowed here");
  }
  return "";
}

inline std::string checkOneType(const Inst& in) {
  return in.mods.types.size() == 1 ? "" : bindError(in, "takes exactly one type");
}

// Rounding rules of the IEEE arithmetic (PTX ISA 9.7.3): one of .rn .rz .rm .rp, or none where
// the instruction defaults to .rn.
inline std::string checkFloatRounding(const Inst& in, bool required) {
  const Rounding& r = in.mods.rounding;
  if (!r.present)
    return required ? bindError(in, "requires a rounding modifier (.rn, .rz, .rm or .rp)") : "";
  if (r.integral || r.mode == fp::Round::RNA)
    return bindError(in, "takes a rounding modifier among .rn, .rz, .rm, .rp");
  return "";
}

// Checks that `in` has exactly `n` operands, all registers (immediates live in slots), and
// installs the handler.
inline std::string bindRegs(Inst& in, Handler h, size_t n, InsnClass cls) {
  if (auto e = expectOperands(in, n); !e.empty()) return e;
  for (size_t i = 0; i < n; ++i)
    if (auto e = expectRegs(in, {i}); !e.empty()) return e;
  if (!h) return bindError(in, "unsupported form");
  in.run = h;
  in.cls = cls;
  return "";
}

// A handler for each combination of N modifier flags: H<Flags>::run for Flags in [0, 2^N).
// Built at compile time; the binder indexes it with the flags it decoded.
template <template <unsigned> class H, size_t... I>
constexpr std::array<Handler, sizeof...(I)> makeFlagTable(std::index_sequence<I...>) {
  return {{&H<unsigned(I)>::run...}};
}
template <template <unsigned> class H, unsigned N>
Handler pickFlags(unsigned flags) {
  static constexpr auto table = makeFlagTable<H>(std::make_index_sequence<(size_t{1} << N)>());
  return table[flags];
}

// The 16-bit halves of a register, for the packed .f16x2 / .bf16x2 forms: PTX places element 0
// in bits 0..15 and element 1 in bits 16..31 ("fA[0] = a[0:15]; fA[1] = a[16:31]").
inline uint16_t lowHalf(uint64_t v) { return uint16_t(v); }
inline uint16_t highHalf(uint64_t v) { return uint16_t(v >> 16); }
inline uint32_t packHalves(uint16_t lo, uint16_t hi) { return uint32_t(lo) | (uint32_t(hi) << 16); }

// Calls f(T{}) with the C++ integer type of a PTX integer type (u8..u64 unsigned, s8..s64
// signed; cvt has no .b types), and returns what it returns; a value-initialized result (a null
// Handler) for other types.
template <class F>
auto withIntType(Type t, F&& f) -> decltype(f(uint8_t{})) {
  switch (t) {
    case Type::U8:
      return f(uint8_t{});
    case Type::U16:
      return f(uint16_t{});
    case Type::U32:
      return f(uint32_t{});
    case Type::U64:
      return f(uint64_t{});
    case Type::S8:
      return f(int8_t{});
    case Type::S16:
      return f(int16_t{});
    case Type::S32:
      return f(int32_t{});
    case Type::S64:
      return f(int64_t{});
    default:
      return {};
  }
}
inline bool isCvtIntType(Type t) { return isSigned(t) || isUnsignedInt(t); }

// ---- binders lent across files ----------------------------------------------------------
// float_sfu.cpp: the approximate forms of div (.approx, .full), rcp (.approx) and sqrt
// (.approx); float_arith.cpp's div/rcp/sqrt specs hand those instructions over.
std::string bindDivApprox(Inst& in);
std::string bindRcpApprox(Inst& in);
std::string bindSqrtApprox(Inst& in);

// convert_float.cpp: cvt whose destination or source is a floating-point type; convert.cpp
// binds the integer-to-integer conversions and cvt.pack itself.
std::string bindCvtFloat(Inst& in);
// convert_fp8.cpp: the .e4m3x2 / .e5m2x2 forms, handed over by bindCvtFloat.
std::string bindCvtF8(Inst& in);
// Writes an integer conversion result into a destination slot: PTX ISA 9.7.9.21 "The result of
// conversion is sign-extended to the destination register width for signed integers, and is
// zero-extended ... for unsigned, bit-size, and floating-point types". `regBits` is the
// destination register's width (the instruction type's width when the register's is unknown).
inline uint64_t extendToRegister(uint64_t value, uint32_t width, bool isSignedType,
                                 uint32_t regBits) {
  const uint64_t v = isSignedType ? uint64_t(signExtend(value, width)) : (value & lowMask(width));
  return v & lowMask(std::max(width, regBits));
}
inline uint32_t destinationRegisterBits(const Inst& in, uint32_t width) {
  const Type rt = in.ops.empty() ? Type::None : in.ops[0].regType;
  if (!isFloat(rt) && !isInteger(rt)) return width;
  return std::max(width, typeBits(rt));
}

// min/max with the same register as both operands: ptxas folds min(x, x) into a move, so the
// H200 returns x bit for bit, a signaling or payload-carrying NaN included (measured: 18 f64,
// 3 f32 and 6 f16 first divergences in 10,000 ISA programs before this rule).
inline bool sameSourceRegister(const Inst& in) {
  return in.ops.size() == 3 && in.ops[1].kind == OpndKind::Reg && in.ops[2].kind == OpndKind::Reg &&
         in.ops[1].slot == in.ops[2].slot;
}
template <class T>
void copyFirstSource(Exec& x, const Inst& in) {
  unary<T>(x, in, [](T a) { return a; });
}

}  // namespace warpsim::isa::insns
