// mov: registers, immediates, special registers and symbol addresses (all slots after
// lowering), predicates, and the vector forms that pack and unpack a wide register:
//   mov.b64 %rd, {%r1, %r2}   (pack: element 0 in the low bits)
//   mov.b64 {%r1, %r2}, %rd   (unpack)
#include <algorithm>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// A register's (or an immediate's) low `Bits` bits; the width is chosen when the mov is bound.
template <unsigned Bits>
void movH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  constexpr uint64_t m = lowMask(Bits);
  forLanesBlended(x.mask, d, [&](unsigned l) { return a[l] & m; });
}

// Any other width (as the type says when the mov runs).
void movTypedH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t m = lowMask(typeBits(in.mods.type()));
  forLanesElementwise(x.mask, [&](unsigned l) { d[l] = a[l] & m; });
}

Handler movOfWidth(unsigned bits) {
  switch (bits) {
    case 8:
      return movH<8>;
    case 16:
      return movH<16>;
    case 32:
      return movH<32>;
    case 64:
      return movH<64>;
    default:
      return movTypedH;
  }
}

void movPredH(Exec& x, const Inst& in) {
  uint32_t& d = x.pred(in.ops[0]);
  const Opnd& s = in.ops[1];
  uint32_t v;
  if (s.kind == OpndKind::Pred) {
    v = x.pred(s);
  } else {  // an immediate 0/1
    const uint64_t* a = x.reg(s);
    v = 0;
    forLanes(x.mask, [&](unsigned l) { v |= (a[l] & 1) ? 1u << l : 0; });
  }
  if (s.negated) v = ~v;
  d = (d & ~x.mask) | (v & x.mask);
}

// Pack and unpack go element by element over whole warps (loops that run as vectors), through a
// copy of the warp's values: a lane's result is then written under the mask, and a destination
// that is also a source reads the value from before the instruction.
void packH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  const auto& e = in.ops[1].elems;
  const unsigned w = typeBits(in.mods.type()) / unsigned(e.size());
  const uint64_t m = lowMask(w);
  uint64_t v[kWarpSize];
  zeroLanes(v);  // not `= {}`: see zeroLanes
  for (size_t i = 0; i < e.size(); ++i) {
    const uint64_t* s = x.reg(e[i]);
    const unsigned shift = unsigned(w * i);
#pragma GCC ivdep
    for (unsigned l = 0; l < kWarpSize; ++l) v[l] |= (s[l] & m) << shift;
  }
  forLanesElementwise(x.mask, [&](unsigned l) { d[l] = v[l]; });
}

void unpackH(Exec& x, const Inst& in) {
  const auto& e = in.ops[0].elems;
  const unsigned w = typeBits(in.mods.type()) / unsigned(e.size());
  const uint64_t m = lowMask(w);
  uint64_t a[kWarpSize];
  std::copy_n(x.reg(in.ops[1]), kWarpSize, a);
  for (size_t i = 0; i < e.size(); ++i) {
    if (e[i].kind != OpndKind::Reg) continue;  // `_`
    uint64_t* d = x.reg(e[i]);
    const unsigned shift = unsigned(w * i);
    forLanesElementwise(x.mask, [&](unsigned l) { d[l] = (a[l] >> shift) & m; });
  }
}

std::string bindMov(Inst& in) {
  if (auto e = expectOperands(in, 2); !e.empty()) return e;
  const Opnd& d = in.ops[0];
  const Opnd& s = in.ops[1];
  if (in.mods.type() == Type::Pred) {
    if (d.kind != OpndKind::Pred) return "'mov.pred' writes a predicate";
    if (s.kind != OpndKind::Pred && s.kind != OpndKind::Reg)
      return "the source of 'mov.pred' must be a predicate or an immediate";
    in.cls = InsnClass::Predicate;
    in.run = movPredH;
    return "";
  }
  // Registers are 64-bit slots: a .b128 register (and its {a, b} pack) does not fit one.
  if (in.mods.type() == Type::B128)
    return "'" + in.text + "' needs 128-bit registers, which are not supported yet";
  in.cls = InsnClass::Move;
  if (d.kind == OpndKind::Reg && s.kind == OpndKind::Reg) {
    in.run = movOfWidth(typeBits(in.mods.type()));
    return "";
  }
  // The vector forms split the type into 2 or 4 elements of at least 8 bits (PTX ISA, "mov":
  // .b16 = {.b8, .b8}, .b32 = {.b16 x2 | .b8 x4}, .b64 = {.b32 x2 | .b16 x4}).
  const unsigned bits = typeBits(in.mods.type());
  if (d.kind == OpndKind::Reg && s.kind == OpndKind::Vec) {
    if (s.elems.size() != 2 && s.elems.size() != 4) return "'mov' packs 2 or 4 elements";
    for (const Opnd& e : s.elems)
      if (e.kind != OpndKind::Reg) return "'mov' packs registers or immediates";
    if (bits / s.elems.size() < 8)
      return "'" + in.text + "' cannot pack " + std::to_string(s.elems.size()) + " elements";
    in.run = packH;
    return "";
  }
  if (d.kind == OpndKind::Vec && s.kind == OpndKind::Reg) {
    if (d.elems.size() != 2 && d.elems.size() != 4) return "'mov' unpacks into 2 or 4 elements";
    for (const Opnd& e : d.elems)
      if (e.kind != OpndKind::Reg && e.kind != OpndKind::Sink)
        return "'mov' unpacks into registers or '_'";
    if (bits / d.elems.size() < 8)
      return "'" + in.text + "' cannot unpack into " + std::to_string(d.elems.size()) + " elements";
    in.run = unpackH;
    return "";
  }
  return "unsupported operand forms for '" + in.text + "'";
}

}  // namespace

std::vector<OpcodeSpec> movement() {
  return {
      {"mov",
       "move",
       InsnClass::Move,
       Role::Compute,
       Operation::Move,
       {Type::Pred, Type::B16, Type::B32, Type::B64, Type::B128, Type::U16, Type::U32, Type::U64,
        Type::S16, Type::S32, Type::S64, Type::F16, Type::BF16, Type::F32, Type::F64, Type::B8,
        Type::U8, Type::S8},
       {},
       bindMov},
  };
}

}  // namespace warpsim::isa::insns
