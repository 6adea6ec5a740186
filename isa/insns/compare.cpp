// Comparison and selection: setp, set, selp, slct. PTX ISA 9.0, "Comparison and Selection
// Instructions", "Half Precision Comparison Instructions" and 9.3.1 (Comparisons).
//
//   setp.CmpOp{.BoolOp}{.ftz}.type  p[|q], a, b{, {!}c}   p = BoolOp(t, c), q = BoolOp(!t, c)
//   setp...f16x2/bf16x2            p[|q], a, b{, {!}c}   p from the low halves, q the high ones
//   set.CmpOp{.BoolOp}{.ftz}.dtype.stype  d, a, b{, {!}c}
//   selp.type d, a, b, {!}c        slct{.ftz}.dtype.{s32,f32} d, a, b, c
//
// Which comparison goes with which type follows ptxas 13.0 (sm_90): bit-size types take eq/ne
// only, unsigned ones also lt le gt ge lo ls hi hs (all unsigned), signed ones eq ne lt le gt
// ge, floating-point types the ordered and unordered ones plus num and nan. .ftz is legal for
// .f32, .f16 and .f16x2 operands. Every form's results were compared bit for bit against an
// H200 (tests/isa/compare_test.cpp holds the edge cases).
//
// Floats are compared on their raw bits (a sign-magnitude key, so -0 == +0), with NaN tests
// on the bits: no host floating-point state is involved; fp.h only flushes .ftz inputs.
#include <algorithm>
#include <type_traits>

#include "isa/fp.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

LaneMask combine(BoolOp op, LaneMask t, LaneMask c) {
  return op == BoolOp::And ? t & c : op == BoolOp::Or ? t | c : op == BoolOp::Xor ? t ^ c : t;
}

LaneMask boolInput(const Exec& x, const Inst& in) {
  return in.mods.boolOp == BoolOp::None ? 0 : predSource(x, in.ops[3]);
}

// ---- element comparisons on raw register bits ------------------------------------------------
// The relation a comparison tests: lt for .lt, .lo and .ltu, and so on.
template <Cmp C, class T>
bool relation(T a, T b) {
  using enum Cmp;
  if constexpr (C == Eq || C == Equ) return a == b;
  if constexpr (C == Ne || C == Neu) return a != b;
  if constexpr (C == Lt || C == Lo || C == Ltu) return a < b;
  if constexpr (C == Le || C == Ls || C == Leu) return a <= b;
  if constexpr (C == Gt || C == Hi || C == Gtu) return a > b;
  if constexpr (C == Ge || C == Hs || C == Geu) return a >= b;
  return false;
}

template <class T>
struct IntElem {
  static constexpr bool kFloat = false, kUnsigned = std::is_unsigned_v<T>;
  template <Cmp C, bool Ftz>
  static bool cmp(uint64_t a, uint64_t b) {
    using U = std::make_unsigned_t<T>;
    // lo ls hi hs compare unsigned (ptxas allows them on unsigned types only).
    if constexpr (C == Cmp::Lo || C == Cmp::Ls || C == Cmp::Hi || C == Cmp::Hs)
      return relation<C>(as<U>(a), as<U>(b));
    else
      return relation<C>(as<T>(a), as<T>(b));
  }
};

template <const fp::Format& F>
struct FloatElem {
  static constexpr bool kFloat = true, kUnsigned = false;
  static constexpr uint32_t kBits = uint32_t(1 + F.expBits + F.manBits);
  // -x < ... < -0 == +0 < ... < +x: sign-magnitude to two's complement.
  static int64_t key(uint64_t b) {
    const int64_t mag = int64_t(b & ~F.signBit());
    return (b & F.signBit()) ? -mag : mag;
  }
  template <Cmp C, bool Ftz>
  static bool cmp(uint64_t a, uint64_t b) {
    using enum Cmp;
    a &= lowMask(kBits), b &= lowMask(kBits);
    if constexpr (Ftz) a = fp::flushBits(F, a), b = fp::flushBits(F, b);
    const bool nan = fp::isNaNBits(F, a) || fp::isNaNBits(F, b);
    // Ordered comparisons are false on a NaN, unordered ones (…u) true (PTX ISA 9.3.1.2).
    if constexpr (C == Num) return !nan;
    if constexpr (C == Nan) return nan;
    constexpr bool kUnordered =
        C == Equ || C == Neu || C == Ltu || C == Leu || C == Gtu || C == Geu;
    if (nan) return kUnordered;
    return relation<C>(key(a), key(b));
  }
};
using F32Elem = FloatElem<fp::kF32>;
using F64Elem = FloatElem<fp::kF64>;
using F16Elem = FloatElem<fp::kF16>;
using BF16Elem = FloatElem<fp::kBF16>;

// The lanes where `a CmpOp b` holds; `shift` selects the high half of packed operands. Inlined
// into its handlers: on warps of few lanes its call was a fifth of a setp's cost.
template <class E, Cmp C, bool Ftz>
[[gnu::always_inline]] inline LaneMask compareLanes(const Exec& x, const Inst& in, unsigned shift) {
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  return lanesWhere(
      x.mask, [&](unsigned l) { return E::template cmp<C, Ftz>(a[l] >> shift, b[l] >> shift); });
}

// ---- setp -----------------------------------------------------------------------------------
template <class E, Cmp C, bool Ftz>
struct SetpH {
  static void run(Exec& x, const Inst& in) {
    const LaneMask t = compareLanes<E, C, Ftz>(x, in, 0);
    const Opnd& d = in.ops[0];
    if (in.mods.boolOp == BoolOp::None && d.kind == OpndKind::Pred) {  // setp p, a, b: the usual
      uint32_t& p = x.pred(d);
      p = (p & ~x.mask) | (t & x.mask);
      return;
    }
    const LaneMask c = boolInput(x, in);
    if (d.kind == OpndKind::Vec) {
      predWrite(x, d.elems[0], combine(in.mods.boolOp, t, c));
      predWrite(x, d.elems[1], combine(in.mods.boolOp, ~t, c));
    } else {
      predWrite(x, d, combine(in.mods.boolOp, t, c));
    }
  }
};

// f16x2/bf16x2: p = BoolOp(t[0], c), q = BoolOp(t[1], c). With a single destination p gets
// the low halves' result (ptxas accepts that form; what the H200 does, measured).
template <class E, Cmp C, bool Ftz>
struct SetpX2H {
  static void run(Exec& x, const Inst& in) {
    const LaneMask t0 = compareLanes<E, C, Ftz>(x, in, 0);
    const LaneMask t1 = compareLanes<E, C, Ftz>(x, in, 16);
    const LaneMask c = boolInput(x, in);
    const Opnd& d = in.ops[0];
    if (d.kind == OpndKind::Vec) {
      predWrite(x, d.elems[0], combine(in.mods.boolOp, t0, c));
      predWrite(x, d.elems[1], combine(in.mods.boolOp, t1, c));
    } else {
      predWrite(x, d, combine(in.mods.boolOp, t0, c));
    }
  }
};

// ---- set ------------------------------------------------------------------------------------
// The value written for true: 0xffffffff / 0xffff for integer destinations, 1.0 for floating
// ones (PTX ISA: set, and set for half types); false is 0.
uint64_t trueValue(Type dtype) {
  if (dtype == Type::F32) return 0x3F800000;
  if (dtype == Type::F16) return 0x3C00;
  if (dtype == Type::BF16) return 0x3F80;
  return (dtype == Type::U16 || dtype == Type::S16) ? 0xFFFF : 0xFFFFFFFF;
}

template <class E, Cmp C, bool Ftz>
struct SetH {
  static void run(Exec& x, const Inst& in) {
    const LaneMask r = combine(in.mods.boolOp, compareLanes<E, C, Ftz>(x, in, 0), boolInput(x, in));
    const uint64_t one = trueValue(in.mods.type(0));
    uint64_t* d = x.reg(in.ops[0]);
    forLanes(x.mask, [&](unsigned l) { d[l] = ((r >> l) & 1) ? one : 0; });
  }
};

// Packed sources: each half of d is 1.0 (dtype .f16x2/.bf16x2) or 0xffff (.u32/.s32) or 0.
template <class E, Cmp C, bool Ftz>
struct SetX2H {
  static void run(Exec& x, const Inst& in) {
    const LaneMask c = boolInput(x, in);
    const LaneMask r0 = combine(in.mods.boolOp, compareLanes<E, C, Ftz>(x, in, 0), c);
    const LaneMask r1 = combine(in.mods.boolOp, compareLanes<E, C, Ftz>(x, in, 16), c);
    const Type dt = in.mods.type(0);
    const uint64_t one = dt == Type::F16x2 ? 0x3C00 : dt == Type::BF16x2 ? 0x3F80 : 0xFFFF;
    uint64_t* d = x.reg(in.ops[0]);
    forLanes(x.mask, [&](unsigned l) {
      d[l] = (((r0 >> l) & 1) ? one : 0) | (((r1 >> l) & 1) ? one << 16 : 0);
    });
  }
};

// ---- handler selection ------------------------------------------------------------------------
// Instantiates H for each comparison in Cs and returns the one that is `c` (nullptr if none).
template <template <class, Cmp, bool> class H, class E, bool Ftz, Cmp... Cs>
Handler pickFrom(Cmp c) {
  Handler h = nullptr;
  (void)((c == Cs ? (h = H<E, Cs, Ftz>::run, true) : false) || ...);
  return h;
}

template <template <class, Cmp, bool> class H, class E, bool Ftz>
Handler pickCmp(Cmp c) {
  using enum Cmp;
  if constexpr (E::kFloat)
    return pickFrom<H, E, Ftz, Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan>(c);
  else if constexpr (E::kUnsigned)
    return pickFrom<H, E, Ftz, Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs>(c);
  else
    return pickFrom<H, E, Ftz, Eq, Ne, Lt, Le, Gt, Ge>(c);
}

// The handler comparing operands of (scalar or per-half) type `t`; nullptr when `c` is not a
// comparison of that type (bit-size types: eq and ne only).
template <template <class, Cmp, bool> class H>
Handler pickCompare(Type t, Cmp c, bool ftz) {
  if (isBits(t) && c != Cmp::Eq && c != Cmp::Ne) return nullptr;
  switch (t) {
    case Type::B16:
    case Type::U16:
      return pickCmp<H, IntElem<uint16_t>, false>(c);
    case Type::B32:
    case Type::U32:
      return pickCmp<H, IntElem<uint32_t>, false>(c);
    case Type::B64:
    case Type::U64:
      return pickCmp<H, IntElem<uint64_t>, false>(c);
    case Type::S16:
      return pickCmp<H, IntElem<int16_t>, false>(c);
    case Type::S32:
      return pickCmp<H, IntElem<int32_t>, false>(c);
    case Type::S64:
      return pickCmp<H, IntElem<int64_t>, false>(c);
    case Type::F32:
      return ftz ? pickCmp<H, F32Elem, true>(c) : pickCmp<H, F32Elem, false>(c);
    case Type::F64:
      return pickCmp<H, F64Elem, false>(c);
    case Type::F16:
    case Type::F16x2:
      return ftz ? pickCmp<H, F16Elem, true>(c) : pickCmp<H, F16Elem, false>(c);
    case Type::BF16:
    case Type::BF16x2:
      return pickCmp<H, BF16Elem, false>(c);
    default:
      return nullptr;
  }
}

// ---- binding --------------------------------------------------------------------------------
constexpr std::string_view kCmpWords[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                          "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                          "ltu", "leu", "gtu", "geu", "num", "nan"};
constexpr std::string_view kBoolWords[] = {"and", "or", "xor"};

bool contains(const auto& list, const auto& w) {
  return std::find(std::begin(list), std::end(list), w) != std::end(list);
}

// Every non-type word must be in `extra`, a comparison or a boolean operator; exactly one
// comparison, at most one boolean operator.
std::string checkCompareWords(const Inst& in, size_t types,
                              std::initializer_list<std::string_view> extra, bool comparison) {
  if (in.mods.types.size() != types)
    return msg(in, types == 1 ? "takes exactly one type" : "takes two types");
  int cmps = 0, bools = 0;
  for (const std::string& w : in.mods.words) {
    if (typeFromName(w)) continue;
    if (comparison && contains(kCmpWords, w))
      ++cmps;
    else if (comparison && contains(kBoolWords, w))
      ++bools;
    else if (!contains(extra, w))
      return msg(in, "does not take ." + w);
  }
  if (comparison && cmps != 1) return msg(in, "needs exactly one comparison operator");
  if (bools > 1) return msg(in, "takes at most one boolean operator");
  return "";
}

bool isPacked(Type t) { return t == Type::F16x2 || t == Type::BF16x2; }
bool ftzAllowed(Type t) { return t == Type::F32 || t == Type::F16 || t == Type::F16x2; }

InsnClass classOf(Type t) {
  if (t == Type::F32) return InsnClass::Fp32;
  if (t == Type::F64) return InsnClass::Fp64;
  if (isFloat(t)) return InsnClass::Half;
  return InsnClass::Int;
}

// Operands a, b (registers) and, with a boolean operator, the predicate c.
std::string checkSources(const Inst& in) {
  const size_t n = in.mods.boolOp == BoolOp::None ? 3 : 4;
  if (in.ops.size() != n)
    return msg(in, in.mods.boolOp == BoolOp::None
                       ? "takes 3 operands (a boolean operator adds a predicate operand)"
                       : "takes 4 operands: d, a, b and the predicate c");
  if (auto e = expectRegs(in, {1, 2}); !e.empty()) return e;
  if (n == 4 && in.ops[3].kind != OpndKind::Pred && in.ops[3].kind != OpndKind::Reg)
    return msg(in, "reads a predicate as its last operand");
  return "";
}

std::string bindSetp(Inst& in) {
  if (auto e = checkCompareWords(in, 1, {"ftz"}, true); !e.empty()) return e;
  const Type t = in.mods.type();
  const bool ftz = in.mods.has("ftz");
  if (ftz && !ftzAllowed(t)) return msg(in, ".ftz is only defined for .f32, .f16 and .f16x2");
  if (auto e = checkSources(in); !e.empty()) return e;
  const Opnd& d = in.ops[0];
  auto predOrSink = [](const Opnd& o) {
    return o.kind == OpndKind::Pred || o.kind == OpndKind::Sink;
  };
  if (d.kind == OpndKind::Vec) {
    if (d.elems.size() != 2 || !predOrSink(d.elems[0]) || !predOrSink(d.elems[1]))
      return msg(in, "writes p|q: two predicates (one may be _)");
    if (t == Type::F16 || t == Type::BF16) return msg(in, "writes a single predicate");
  } else if (!predOrSink(d)) {
    return msg(in, "writes a predicate");
  }
  Handler h = isPacked(t) ? pickCompare<SetpX2H>(t, in.mods.cmp, ftz)
                          : pickCompare<SetpH>(t, in.mods.cmp, ftz);
  if (!h) return msg(in, "does not compare " + std::string(typeName(t)) + " operands that way");
  in.cls = classOf(t);
  in.run = h;
  return "";
}

// set's destination/source type pairs, as ptxas 13.0 accepts them.
bool setTypesOk(Type d, Type s) {
  const bool intS = isInteger(s) && typeBits(s) >= 16 && typeBits(s) <= 64;
  const bool f3264 = s == Type::F32 || s == Type::F64;
  switch (d) {
    case Type::U32:
    case Type::S32:
      return intS || f3264 || isFloat(s);
    case Type::F32:
      return intS || f3264;
    case Type::U16:
    case Type::S16:
      return s == Type::F16 || s == Type::BF16;
    case Type::F16:
      return intS || f3264 || s == Type::F16;
    case Type::BF16:
      return intS || f3264 || s == Type::F16 || s == Type::BF16;
    case Type::F16x2:
      return s == Type::F16x2;
    case Type::BF16x2:
      return s == Type::BF16x2;
    default:
      return false;
  }
}

std::string bindSet(Inst& in) {
  if (auto e = checkCompareWords(in, 2, {"ftz"}, true); !e.empty()) return e;
  const Type dt = in.mods.type(0), st = in.mods.type(1);
  if (!setTypesOk(dt, st) || st == Type::TF32)
    return msg(in, "cannot write ." + std::string(typeName(dt)) + " from ." + typeName(st));
  const bool ftz = in.mods.has("ftz");
  if (ftz && !ftzAllowed(st)) return msg(in, ".ftz is only defined for .f32, .f16 and .f16x2");
  if (auto e = checkSources(in); !e.empty()) return e;
  if (in.ops[0].kind != OpndKind::Reg) return msg(in, "writes a register");
  Handler h = isPacked(st) ? pickCompare<SetX2H>(st, in.mods.cmp, ftz)
                           : pickCompare<SetH>(st, in.mods.cmp, ftz);
  if (!h) return msg(in, "does not compare " + std::string(typeName(st)) + " operands that way");
  in.cls = classOf(st);
  in.run = h;
  return "";
}

// ---- selp / slct ------------------------------------------------------------------------------
template <class T>
void selpH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  const LaneMask c = predSource(x, in.ops[3]);
  forLanesBlended(x.mask, d,
                  [&](unsigned l) { return bitsOf<T>(as<T>(((c >> l) & 1) ? a[l] : b[l])); });
}

// slct: d = (c >= 0) ? a : b, c an .s32 or an .f32. For .f32, -0 >= 0 and a NaN selects b;
// .ftz flushes a subnormal c to a zero of its sign first (so a negative subnormal selects a).
template <class T, bool FloatC, bool Ftz>
void slctH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  const uint64_t* c = x.reg(in.ops[3]);
  forLanes(x.mask, [&](unsigned l) {
    uint32_t cb = uint32_t(c[l]);
    bool geZero;
    if constexpr (FloatC) {
      if constexpr (Ftz) cb = uint32_t(fp::flushBits(fp::kF32, cb));
      geZero = !fp::isNaNBits(fp::kF32, cb) && (!(cb >> 31) || (cb & 0x7FFFFFFF) == 0);
    } else {
      geZero = int32_t(cb) >= 0;
    }
    d[l] = bitsOf<T>(as<T>(geZero ? a[l] : b[l]));
  });
}

template <class T>
Handler slctFor(bool floatC, bool ftz) {
  if (!floatC) return slctH<T, false, false>;
  return ftz ? slctH<T, true, true> : slctH<T, true, false>;
}

Handler byWidth(Type t, Handler h16, Handler h32, Handler h64) {
  switch (typeBits(t)) {
    case 16:
      return h16;
    case 32:
      return h32;
    case 64:
      return h64;
    default:
      return nullptr;
  }
}

const std::vector<Type> kSelectTypes = {Type::B16, Type::B32, Type::B64, Type::U16,
                                        Type::U32, Type::U64, Type::S16, Type::S32,
                                        Type::S64, Type::F32, Type::F64};

bool isSelectType(Type t) { return contains(kSelectTypes, t); }

std::string bindSelp(Inst& in) {
  if (auto e = checkCompareWords(in, 1, {}, false); !e.empty()) return e;
  const Type t = in.mods.type();
  if (!isSelectType(t)) return msg(in, "has an unsupported type");
  if (auto e = expectOperands(in, 4); !e.empty()) return e;
  if (auto e = expectRegs(in, {0, 1, 2}); !e.empty()) return e;
  if (in.ops[3].kind != OpndKind::Pred && in.ops[3].kind != OpndKind::Reg)
    return msg(in, "selects on a predicate");
  in.run = byWidth(t, selpH<uint16_t>, selpH<uint32_t>, selpH<uint64_t>);
  return "";
}

std::string bindSlct(Inst& in) {
  if (auto e = checkCompareWords(in, 2, {"ftz"}, false); !e.empty()) return e;
  const Type dt = in.mods.type(0), ct = in.mods.type(1);
  if (!isSelectType(dt)) return msg(in, "has an unsupported destination type");
  if (ct != Type::S32 && ct != Type::F32) return msg(in, "compares an .s32 or an .f32");
  const bool ftz = in.mods.has("ftz");
  if (ftz && ct != Type::F32) return msg(in, ".ftz is only defined for an .f32 comparand");
  if (auto e = expectOperands(in, 4); !e.empty()) return e;
  if (auto e = expectRegs(in, {0, 1, 2, 3}); !e.empty()) return e;
  const bool f = ct == Type::F32;
  in.run =
      byWidth(dt, slctFor<uint16_t>(f, ftz), slctFor<uint32_t>(f, ftz), slctFor<uint64_t>(f, ftz));
  return "";
}

std::vector<std::string_view> compareWords(std::initializer_list<std::string_view> extra) {
  std::vector<std::string_view> w(std::begin(kCmpWords), std::end(kCmpWords));
  w.insert(w.end(), std::begin(kBoolWords), std::end(kBoolWords));
  w.insert(w.end(), extra.begin(), extra.end());
  return w;
}

}  // namespace

std::vector<OpcodeSpec> compare() {
  const std::vector<Type> setpTypes = {Type::B16, Type::B32, Type::B64,   Type::U16,  Type::U32,
                                       Type::U64, Type::S16, Type::S32,   Type::S64,  Type::F32,
                                       Type::F64, Type::F16, Type::F16x2, Type::BF16, Type::BF16x2};
  // set is found by its destination type; the source types that are not also destination
  // types are listed as modifier words so that the validator accepts them.
  const std::vector<Type> setDtypes = {Type::U32, Type::S32,  Type::F32,   Type::U16,   Type::S16,
                                       Type::F16, Type::BF16, Type::F16x2, Type::BF16x2};
  return {
      {"setp", "compare", InsnClass::Int, Role::Compute, Operation::Compare, setpTypes,
       compareWords({"ftz"}), bindSetp},
      {"set", "compare", InsnClass::Int, Role::Compute, Operation::Other, setDtypes,
       compareWords({"ftz", "b16", "b32", "b64", "u64", "s64", "f64"}), bindSet},
      {"selp",
       "compare",
       InsnClass::Int,
       Role::Compute,
       Operation::Select,
       kSelectTypes,
       {},
       bindSelp},
      {"slct",
       "compare",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kSelectTypes,
       {"ftz"},
       bindSlct,
       2},
  };
}

}  // namespace warpsim::isa::insns
