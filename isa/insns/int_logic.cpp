// Logic and shift instructions: and or xor not cnot (bit-size types and .pred), lop3 (with
// the .or/.and predicate form), shl shr, shf (funnel shift), prmt (byte permute). PTX ISA 9.0,
// "Logic and Shift Instructions" and (prmt) "Data Movement and Conversion Instructions". The
// bit-field and counting instructions (bfe bfi brev bfind clz popc fns bmsk szext dp4a dp2a) are in
// int_bits.cpp; intLogic() returns both files' specs.
//
// Which type/modifier combinations are legal follows what ptxas 13.0 accepts for sm_90
// (checked form by form); the values every form computes were compared bit for bit against an
// H200 (tests/isa/int_logic_test.cpp holds the edge cases of that run).
#include <algorithm>
#include <type_traits>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {

std::vector<OpcodeSpec> intBitSpecs();  // int_bits.cpp

namespace {

// The C++ type of a bit-size type.
template <template <class> class H>
Handler pickBits(Type t) {
  switch (t) {
    case Type::B16:
      return H<uint16_t>::run;
    case Type::B32:
      return H<uint32_t>::run;
    case Type::B64:
      return H<uint64_t>::run;
    default:
      return nullptr;
  }
}

// ---- and or xor not cnot --------------------------------------------------------------------
enum class Logic { And, Or, Xor };

template <Logic L, class T>
T logic(T a, T b) {
  if constexpr (L == Logic::And)
    return T(a & b);
  else if constexpr (L == Logic::Or)
    return T(a | b);
  else
    return T(a ^ b);
}

template <Logic L>
struct LogicOp {
  template <class T>
  struct H {
    static void run(Exec& x, const Inst& in) {
      binaryTotal<T>(x, in, [](T a, T b) { return logic<L, T>(a, b); });
    }
  };
};

template <class T>
struct NotH {
  static void run(Exec& x, const Inst& in) {
    unary<T>(x, in, [](T a) { return T(~a); });
  }
};
// cnot: C's logical negation, d = (a == 0) ? 1 : 0.
template <class T>
struct CnotH {
  static void run(Exec& x, const Inst& in) {
    unary<T>(x, in, [](T a) { return T(a == 0); });
  }
};

// .pred forms work on whole lane masks.
template <Logic L>
void predLogicH(Exec& x, const Inst& in) {
  predWrite(x, in.ops[0], logic<L>(predSource(x, in.ops[1]), predSource(x, in.ops[2])));
}
void predNotH(Exec& x, const Inst& in) { predWrite(x, in.ops[0], ~predSource(x, in.ops[1])); }

std::string bindPredOperands(Inst& in, Handler h, size_t operands) {
  if (auto e = expectOperands(in, operands); !e.empty()) return e;
  if (in.ops[0].kind != OpndKind::Pred) return msg(in, "writes a predicate");
  for (size_t i = 1; i < operands; ++i)
    if (!isPredSource(in.ops[i])) return msg(in, "reads predicates");
  in.cls = InsnClass::Predicate;
  in.run = h;
  return "";
}

template <Logic L>
std::string bindLogic(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  if (in.mods.type() == Type::Pred) return bindPredOperands(in, predLogicH<L>, 3);
  return bindRegs(in, pickBits<LogicOp<L>::template H>(in.mods.type()), 3);
}

std::string bindNot(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  if (in.mods.type() == Type::Pred) return bindPredOperands(in, predNotH, 2);
  return bindRegs(in, pickBits<NotH>(in.mods.type()), 2);
}

std::string bindCnot(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  return bindRegs(in, pickBits<CnotH>(in.mods.type()), 2);
}

// ---- lop3 -----------------------------------------------------------------------------------
// The look-up table is indexed by (a, b, c) bits: immLut = F(0xF0, 0xCC, 0xAA), so bit i of
// immLut is F for a = i>>2 & 1, b = i>>1 & 1, c = i & 1. ptxas accepts immLut > 255 and
// uses its low 8 bits.
uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
  uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i)
    if ((lut >> i) & 1) r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return r;
}

void lop3H(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  const uint64_t* c = x.reg(in.ops[3]);
  const uint64_t* lut = x.reg(in.ops[4]);
  forLanes(x.mask, [&](unsigned l) {
    d[l] = lop3(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), uint32_t(lut[l]));
  });
}

// lop3.BoolOp.b32 d|p, a, b, c, immLut, q: p = (d != 0) BoolOp q (PTX ISA: lop3).
template <bool Or>
void lop3PredH(Exec& x, const Inst& in) {
  const Opnd& dst = in.ops[0].elems[0];
  uint64_t* d = dst.kind == OpndKind::Reg ? x.reg(dst) : nullptr;
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  const uint64_t* c = x.reg(in.ops[3]);
  const uint64_t* lut = x.reg(in.ops[4]);
  const LaneMask q = predSource(x, in.ops[5]);
  LaneMask nonzero = 0;
  forLanes(x.mask, [&](unsigned l) {
    const uint32_t v = lop3(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]), uint32_t(lut[l]));
    if (d) d[l] = v;
    if (v != 0) nonzero |= 1u << l;
  });
  predWrite(x, in.ops[0].elems[1], Or ? (nonzero | q) : (nonzero & q));
}

std::string bindLop3(Inst& in) {
  if (auto e = checkWords(in, {"or", "and"}); !e.empty()) return e;
  if (in.mods.type() != Type::B32) return msg(in, "is defined for .b32 only");
  const BoolOp op = in.mods.boolOp;
  if (op == BoolOp::None) {
    if (auto e = expectOperands(in, 5); !e.empty()) return e;
    if (auto e = expectRegs(in, {0, 1, 2, 3, 4}); !e.empty()) return e;
    in.run = lop3H;
    return "";
  }
  if (op != BoolOp::Or && op != BoolOp::And) return msg(in, "takes .or or .and");
  if (auto e = expectOperands(in, 6); !e.empty()) return e;
  const Opnd& dp = in.ops[0];
  if (dp.kind != OpndKind::Vec || dp.elems.size() != 2 ||
      (dp.elems[0].kind != OpndKind::Reg && dp.elems[0].kind != OpndKind::Sink) ||
      dp.elems[1].kind != OpndKind::Pred)
    return msg(in, "writes d|p (a register or _, and a predicate)");
  if (auto e = expectRegs(in, {1, 2, 3, 4}); !e.empty()) return e;
  if (!isPredSource(in.ops[5])) return msg(in, "reads a predicate as its last operand");
  in.run = op == BoolOp::Or ? lop3PredH<true> : lop3PredH<false>;
  return "";
}

// ---- shl shr --------------------------------------------------------------------------------
// The amount is an unsigned 32-bit value; amounts past the width are clamped to the width
// (PTX ISA: shl, shr): shl and unsigned shr give 0, signed shr fills with the sign.
template <class T>
struct ShlH {
  static void run(Exec& x, const Inst& in) {
    binaryTotal<T, T, uint32_t>(
        x, in, [](T a, uint32_t n) { return n >= 8 * sizeof(T) ? T(0) : T(a << n); });
  }
};
template <class T>
struct ShrH {
  static void run(Exec& x, const Inst& in) {
    binaryTotal<T, T, uint32_t>(x, in, [](T a, uint32_t n) {
      constexpr uint32_t kBits = 8 * sizeof(T);
      if constexpr (std::is_signed_v<T>)
        return T(a >> std::min(n, kBits - 1));
      else
        return n >= kBits ? T(0) : T(a >> n);
    });
  }
};

template <template <class> class H>
Handler pickShift(Type t) {
  switch (t) {
    case Type::B16:
    case Type::U16:
      return H<uint16_t>::run;
    case Type::S16:
      return H<int16_t>::run;
    case Type::B32:
    case Type::U32:
      return H<uint32_t>::run;
    case Type::S32:
      return H<int32_t>::run;
    case Type::B64:
    case Type::U64:
      return H<uint64_t>::run;
    case Type::S64:
      return H<int64_t>::run;
    default:
      return nullptr;
  }
}

std::string bindShl(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  if (!isBits(in.mods.type())) return msg(in, "is defined for .b16, .b32 and .b64");
  return bindRegs(in, pickShift<ShlH>(in.mods.type()), 3);
}

std::string bindShr(Inst& in) {
  if (auto e = checkWords(in, {}); !e.empty()) return e;
  return bindRegs(in, pickShift<ShrH>(in.mods.type()), 3);
}

// ---- shf ------------------------------------------------------------------------------------
// Funnel shift of the 64-bit {b, a}; n = min(c, 32) (.clamp) or c & 31 (.wrap). shf.l keeps
// the high 32 bits of the shifted value, shf.r the low 32 (PTX ISA: shf).
template <bool Left, bool Clamp>
void shfH(Exec& x, const Inst& in) {
  ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t n = Clamp ? std::min<uint32_t>(c, 32) : (c & 31);
    const uint64_t v = (uint64_t(b) << 32) | a;
    return Left ? uint32_t((v << n) >> 32) : uint32_t(v >> n);
  });
}

std::string bindShf(Inst& in) {
  if (auto e = checkWords(in, {"l", "r", "clamp", "wrap"}); !e.empty()) return e;
  if (in.mods.type() != Type::B32) return msg(in, "is defined for .b32 only");
  const bool l = in.mods.has("l"), r = in.mods.has("r");
  const bool clamp = in.mods.has("clamp"), wrap = in.mods.has("wrap");
  if (l == r) return msg(in, "needs exactly one of .l and .r");
  if (clamp == wrap) return msg(in, "needs exactly one of .clamp and .wrap");
  Handler h = l ? (clamp ? shfH<true, true> : shfH<true, false>)
                : (clamp ? shfH<false, true> : shfH<false, false>);
  return bindRegs(in, h, 4);
}

// ---- prmt -----------------------------------------------------------------------------------
// Bytes of {b, a} are numbered 0..7 (a's low byte is 0). The generic form takes four 4-bit
// selectors from c (bit 3: replicate the byte's sign bit); the modes use c's low two bits to
// pick a row of a fixed table (PTX ISA: prmt, the table of modes): entry [mode][c & 3]
// lists the source byte of d's bytes 0, 1, 2, 3.
enum class PrmtMode { F4e, B4e, Rc8, Ecl, Ecr, Rc16 };
constexpr uint8_t kPrmtTable[6][4][4] = {
    {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // .f4e: forward 4 extract
    {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // .b4e: backward 4 extract
    {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // .rc8: replicate 8
    {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // .ecl: edge clamp left
    {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // .ecr: edge clamp right
    {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // .rc16: replicate 16
};

void prmtH(Exec& x, const Inst& in) {
  ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
    const uint64_t src = (uint64_t(b) << 32) | a;
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; ++i) {
      const uint32_t sel = (c >> (4 * i)) & 0xF;
      uint32_t byte = uint32_t(src >> (8 * (sel & 7))) & 0xFF;
      if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
      d |= byte << (8 * i);
    }
    return d;
  });
}

template <PrmtMode M>
void prmtModeH(Exec& x, const Inst& in) {
  ternary<uint32_t>(x, in, [](uint32_t a, uint32_t b, uint32_t c) {
    const uint64_t src = (uint64_t(b) << 32) | a;
    const uint8_t* row = kPrmtTable[int(M)][c & 3];
    uint32_t d = 0;
    for (unsigned i = 0; i < 4; ++i) d |= (uint32_t(src >> (8 * row[i])) & 0xFF) << (8 * i);
    return d;
  });
}

std::string bindPrmt(Inst& in) {
  static constexpr std::pair<std::string_view, Handler> kModes[] = {
      {"f4e", prmtModeH<PrmtMode::F4e>}, {"b4e", prmtModeH<PrmtMode::B4e>},
      {"rc8", prmtModeH<PrmtMode::Rc8>}, {"ecl", prmtModeH<PrmtMode::Ecl>},
      {"ecr", prmtModeH<PrmtMode::Ecr>}, {"rc16", prmtModeH<PrmtMode::Rc16>},
  };
  if (auto e = checkWords(in, {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}); !e.empty()) return e;
  if (in.mods.type() != Type::B32) return msg(in, "is defined for .b32 only");
  Handler h = prmtH;
  int modes = 0;
  for (const auto& [word, handler] : kModes)
    if (in.mods.has(word)) h = handler, ++modes;
  if (modes > 1) return msg(in, "takes at most one mode");
  return bindRegs(in, h, 4);
}

const std::vector<std::string_view> kPrmtModes = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
const std::vector<Type> kBitTypes = {Type::B16, Type::B32, Type::B64};
const std::vector<Type> kPredBitTypes = {Type::Pred, Type::B16, Type::B32, Type::B64};
const std::vector<Type> kShiftTypes = {Type::B16, Type::B32, Type::B64, Type::U16, Type::U32,
                                       Type::U64, Type::S16, Type::S32, Type::S64};

}  // namespace

std::vector<OpcodeSpec> intLogic() {
  std::vector<OpcodeSpec> specs = {
      {"and",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::And,
       kPredBitTypes,
       {},
       bindLogic<Logic::And>},
      {"or",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Or,
       kPredBitTypes,
       {},
       bindLogic<Logic::Or>},
      {"xor",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Xor,
       kPredBitTypes,
       {},
       bindLogic<Logic::Xor>},
      {"not",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kPredBitTypes,
       {},
       bindNot},
      {"cnot",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kBitTypes,
       {},
       bindCnot},
      {"lop3",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::B32},
       {"or", "and"},
       bindLop3},
      {"shl",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::ShiftLeft,
       kBitTypes,
       {},
       bindShl},
      {"shr",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       kShiftTypes,
       {},
       bindShr},
      {"shf",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::B32},
       {"l", "r", "clamp", "wrap"},
       bindShf},
      {"prmt",
       "int_logic",
       InsnClass::Int,
       Role::Compute,
       Operation::Other,
       {Type::B32},
       kPrmtModes,
       bindPrmt},
  };
  for (OpcodeSpec& s : intBitSpecs()) specs.push_back(s);
  return specs;
}

}  // namespace warpsim::isa::insns
