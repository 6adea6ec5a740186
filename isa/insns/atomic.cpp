// Atomics: atom and red (PTX ISA 9.0 sections 9.7.13.5 and 9.7.13.6) on .global, .shared
// (::cta, ::cluster) and generic addresses, with every operation and type ptxas 13.0 accepts for
// sm_90, the vector forms (.v2/.v4 .f32 add; .v2/.v4/.v8 .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2
// add/min/max, global and generic only), .sem (.relaxed .acquire .release .acq_rel; red: .relaxed
// .release), .scope and .L2::cache_hint (one more operand, a performance hint only).
//
// The forms accepted are exactly ptxas 13.0's for sm_90 (checked form by form):
//   .add  .u32 .s32 .u64 .f32 .f64, .noftz.{f16 f16x2 bf16 bf16x2}   (not .s64, not .b32)
//   .min .max  .u32 .s32 .u64 .s64; .noftz 16-bit floats in vector forms only (no .f32/.f64)
//   .inc .dec  .u32 only                  .and .or .xor  .b32 .b64
//   .exch  .b32 .b64 .b128 (no .b16)      .cas  .b16 .b32 .b64 .b128
// .sem and .scope change nothing functionally: the machine performs each lane's read-modify-write
// atomically, lanes in lane order.
//
// Floating-point results, measured on the H200 (CUDA 13.0, driver 580; the probe kernels are
// described in tests/isa/atomic_test.cpp, which holds the recorded values):
//  - .f32 add rounds to nearest even and returns the canonical NaN 0x7FFFFFFF. On global memory
//    it flushes subnormal inputs and results to sign-preserving zero; on shared memory (and
//    shared::cluster) it keeps them (the manual says so too). A generic address behaves as the
//    space it falls in, so generic atomics ask the machine which space each lane's address is in.
//  - .f64 add keeps subnormals everywhere, but its NaNs depend on the space. Global: a NaN b is
//    returned as it is (even a signaling one), else a NaN old value as it is. Shared: the first
//    NaN of (old, b), quieted. inf + -inf gives 0xFFF8000000000000 in both. isa/fp.h's f64 add
//    returns other NaNs (kCanonicalNaN64), so these are local helpers.
//  - .noftz f16/bf16 (and each half of x2) add: round to nearest even, subnormals kept, every NaN
//    result 0x7FFF; min/max: a NaN operand gives the other one, two NaNs 0x7FFF, -0 < +0. These
//    are isa/fp.h's addF16 / addBF16 / fminF16 / fmaxF16 / fminBF16 / fmaxBF16.
//  - .inc/.dec follow the manual's inc(r, s) = r >= s ? 0 : r + 1 and
//    dec(r, s) = (r == 0 || r > s) ? s : r - 1 (measured: identical for all tested edges).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "isa/insns/addresses.h"
#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// ---- the per-lane read-modify-write functions ---------------------------------------------
// `old` holds the memory's bits (zero-extended), `a` the source operand b, `b` cas's operand c.

template <class U>
uint64_t addFn(uint64_t old, uint64_t a, uint64_t) {
  return bitsOf<U>(U(U(old) + U(a)));  // wraps (unsigned arithmetic: no signed-overflow UB)
}
template <class T>
uint64_t minFn(uint64_t old, uint64_t a, uint64_t) {
  const T o = as<T>(old), v = as<T>(a);
  return bitsOf<T>(v < o ? v : o);
}
template <class T>
uint64_t maxFn(uint64_t old, uint64_t a, uint64_t) {
  const T o = as<T>(old), v = as<T>(a);
  return bitsOf<T>(v > o ? v : o);
}
uint64_t incFn(uint64_t old, uint64_t a, uint64_t) {
  const uint32_t r = uint32_t(old), s = uint32_t(a);
  return r >= s ? 0 : r + 1;
}
uint64_t decFn(uint64_t old, uint64_t a, uint64_t) {
  const uint32_t r = uint32_t(old), s = uint32_t(a);
  return (r == 0 || r > s) ? s : r - 1;
}
template <class U>
uint64_t andFn(uint64_t old, uint64_t a, uint64_t) {
  return U(U(old) & U(a));
}
template <class U>
uint64_t orFn(uint64_t old, uint64_t a, uint64_t) {
  return U(U(old) | U(a));
}
template <class U>
uint64_t xorFn(uint64_t old, uint64_t a, uint64_t) {
  return U(U(old) ^ U(a));
}
template <class U>
uint64_t exchFn(uint64_t, uint64_t a, uint64_t) {
  return U(a);
}
template <class U>
uint64_t casFn(uint64_t old, uint64_t a, uint64_t b) {
  return U(old) == U(a) ? U(b) : U(old);
}

uint64_t addF32Flush(uint64_t old, uint64_t a, uint64_t) {
  return fp::bits(fp::add(fp::f32(uint32_t(old)), fp::f32(uint32_t(a)), fp::Round::RN, true));
}
uint64_t addF32Keep(uint64_t old, uint64_t a, uint64_t) {
  return fp::bits(fp::add(fp::f32(uint32_t(old)), fp::f32(uint32_t(a)), fp::Round::RN, false));
}

// The NaN the H200's f64 atomic add gives for an invalid sum (inf + -inf), in both spaces.
constexpr uint64_t kAtomF64InvalidNaN = 0xFFF8000000000000ull;

uint64_t addF64Global(uint64_t old, uint64_t a, uint64_t) {
  if (fp::isNaNBits(fp::kF64, a)) return a;
  if (fp::isNaNBits(fp::kF64, old)) return old;
  const double r = fp::add(fp::f64(old), fp::f64(a), fp::Round::RN);
  return fp::isNaN(r) ? kAtomF64InvalidNaN : fp::bits(r);
}
uint64_t addF64Shared(uint64_t old, uint64_t a, uint64_t) {
  if (fp::isNaNBits(fp::kF64, old)) return old | fp::kF64.quietBit();
  if (fp::isNaNBits(fp::kF64, a)) return a | fp::kF64.quietBit();
  const double r = fp::add(fp::f64(old), fp::f64(a), fp::Round::RN);
  return fp::isNaN(r) ? kAtomF64InvalidNaN : fp::bits(r);
}

// 16-bit floats: one operation on a half, applied to one half (.f16) or to both (.f16x2).
using HalfOp = uint16_t (*)(uint16_t, uint16_t);
uint16_t addH(uint16_t a, uint16_t b) { return fp::addF16(a, b, fp::Round::RN, false); }
uint16_t minH(uint16_t a, uint16_t b) { return fp::fminF16(a, b, false); }
uint16_t maxH(uint16_t a, uint16_t b) { return fp::fmaxF16(a, b, false); }
uint16_t addB(uint16_t a, uint16_t b) { return fp::addBF16(a, b, fp::Round::RN); }
uint16_t minB(uint16_t a, uint16_t b) { return fp::fminBF16(a, b, false); }
uint16_t maxB(uint16_t a, uint16_t b) { return fp::fmaxBF16(a, b, false); }

// The arguments are (memory, operand): min/max are symmetric, and add's rounding is too.
template <HalfOp F>
uint64_t half1(uint64_t old, uint64_t a, uint64_t) {
  return F(uint16_t(old), uint16_t(a));
}
template <HalfOp F>
uint64_t half2(uint64_t old, uint64_t a, uint64_t) {
  const uint64_t lo = F(uint16_t(old), uint16_t(a));
  const uint64_t hi = F(uint16_t(old >> 16), uint16_t(a >> 16));
  return lo | hi << 16;
}

// ---- the handler --------------------------------------------------------------------------

bool isShared(Space s) { return s == Space::Shared || s == Space::SharedCluster; }

// The address of every executing lane, as memory.cpp computes it: base register (a 32-bit base
// is zero-extended) + offset.
void addresses(const Exec& x, const Opnd& a, uint64_t* out) {
  if (a.baseSlot == kNoSlot) {
    forLanes(x.mask, [&](unsigned l) { out[l] = uint64_t(a.offset); });
    return;
  }
  const uint64_t* base = x.reg(a.baseSlot);
  if (typeBits(a.baseType) == 32)
    forLanes(x.mask, [&](unsigned l) { out[l] = uint32_t(base[l] + uint64_t(a.offset)); });
  else
    forLanes(x.mask, [&](unsigned l) { out[l] = base[l] + uint64_t(a.offset); });
}

// One element's read-modify-write for every executing lane. G is the function for global
// memory and S the one for shared memory; they differ only where the H200's two atomic units
// round differently (f32 and f64 add). A generic address is split by the space it falls in.
template <AtomFn G, AtomFn S, unsigned Bytes>
void perform(Exec& x, const Inst& in, Space space, const uint64_t* addr, const uint64_t* a,
             const uint64_t* b, uint64_t* old) {
  if constexpr (G == S) {
    x.machine->atomic(in, space, x.mask, addr, Bytes, G, a, b, old);
  } else {
    if (space != Space::Generic) {
      x.machine->atomic(in, space, x.mask, addr, Bytes, isShared(space) ? S : G, a, b, old);
      return;
    }
    LaneMask shared = 0;
    forLanes(x.mask, [&](unsigned l) {
      if (isShared(x.machine->spaceOf(addr[l], l))) shared |= 1u << l;
    });
    if (const LaneMask global = x.mask & ~shared)
      x.machine->atomic(in, space, global, addr, Bytes, G, a, b, old);
    if (shared) x.machine->atomic(in, space, shared, addr, Bytes, S, a, b, old);
  }
}

// atom: d, [a], b [, c] [, cache-policy]; red: [a], b [, cache-policy]. A vector form performs
// one atomic per element ("the atomicity is guaranteed separately for each of the individual
// scalar elements"), element i at a + i * Bytes. atom's d receives the old value as ld would
// load it: .s32 sign-extended, the other types zero-extended.
template <AtomFn G, AtomFn S, unsigned Bytes, bool SignExtend, bool Dest, bool Cas>
void atomH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  constexpr size_t ai = Dest ? 1 : 0;
  uint64_t addr[kWarpSize];
  zeroLanes(addr);  // not `= {}`: see zeroLanes
  addresses(x, in.ops[ai], addr);
  const Opnd& src = in.ops[ai + 1];
  const uint64_t* c = Cas ? x.reg(in.ops[ai + 2]) : nullptr;
  const Space space = addressedSpace(in);
  const unsigned vec = in.mods.vec;
  for (unsigned i = 0; i < vec; ++i) {
    if (i) forLanes(x.mask, [&](unsigned l) { addr[l] += Bytes; });
    uint64_t old[kWarpSize];
    zeroLanes(old);
    perform<G, S, Bytes>(x, in, space, addr, x.reg(vec == 1 ? src : src.elems[i]), c, old);
    if constexpr (Dest) {
      const Opnd& d = vec == 1 ? in.ops[0] : in.ops[0].elems[i];
      if (d.kind != OpndKind::Reg) continue;  // `_`
      uint64_t* r = x.reg(d);
      forLanes(x.mask, [&](unsigned l) {
        r[l] = SignExtend ? uint64_t(signExtend(old[l], 8 * Bytes)) : old[l];
      });
    }
  }
}

// 16-byte atomics: Machine::atomic moves at most 8 bytes per lane (AtomFn works on uint64_t),
// and two 8-byte halves would not be one atomic access. Accepted, reported when executed.
void atom128H(Exec& x, const Inst& in) {
  if (!x.mask) return;
  x.machine->unsupported(in, in.text.c_str());
}

// One (operation, type) pair's element: G for global memory, S for shared memory, its size, and
// whether atom's destination sign-extends the old value. A tag: forElement hands it to a visitor.
template <AtomFn G, AtomFn S, unsigned Bytes, bool SignExtend = false>
struct Elem {};
template <AtomFn F, unsigned Bytes, bool SignExtend = false>
using Same = Elem<F, F, Bytes, SignExtend>;

// The one table of atom/red's element operations: calls make(Elem<...>{}) for the pair, and
// returns its result (a value-initialized one where ptxas rejects the pair). atom/red's handlers
// and cp.reduce.async.bulk's element functions (atomElement) are both made from it.
template <class Make>
auto forElement(AtomOp op, Type t, Make&& make) -> decltype(make(Same<addFn<uint32_t>, 4>{})) {
  switch (op) {
    case AtomOp::Add:
      switch (t) {
        case Type::U32:
          return make(Same<addFn<uint32_t>, 4>{});
        case Type::S32:
          return make(Same<addFn<uint32_t>, 4, true>{});
        case Type::U64:
          return make(Same<addFn<uint64_t>, 8>{});
        case Type::F32:
          return make(Elem<addF32Flush, addF32Keep, 4>{});
        case Type::F64:
          return make(Elem<addF64Global, addF64Shared, 8>{});
        case Type::F16:
          return make(Same<half1<addH>, 2>{});
        case Type::F16x2:
          return make(Same<half2<addH>, 4>{});
        case Type::BF16:
          return make(Same<half1<addB>, 2>{});
        case Type::BF16x2:
          return make(Same<half2<addB>, 4>{});
        default:
          return {};
      }
    case AtomOp::Min:
    case AtomOp::Max: {
      const bool mn = op == AtomOp::Min;
      switch (t) {
        case Type::U32:
          return mn ? make(Same<minFn<uint32_t>, 4>{}) : make(Same<maxFn<uint32_t>, 4>{});
        case Type::S32:
          return mn ? make(Same<minFn<int32_t>, 4, true>{}) : make(Same<maxFn<int32_t>, 4, true>{});
        case Type::U64:
          return mn ? make(Same<minFn<uint64_t>, 8>{}) : make(Same<maxFn<uint64_t>, 8>{});
        case Type::S64:
          return mn ? make(Same<minFn<int64_t>, 8>{}) : make(Same<maxFn<int64_t>, 8>{});
        case Type::F16:
          return mn ? make(Same<half1<minH>, 2>{}) : make(Same<half1<maxH>, 2>{});
        case Type::F16x2:
          return mn ? make(Same<half2<minH>, 4>{}) : make(Same<half2<maxH>, 4>{});
        case Type::BF16:
          return mn ? make(Same<half1<minB>, 2>{}) : make(Same<half1<maxB>, 2>{});
        case Type::BF16x2:
          return mn ? make(Same<half2<minB>, 4>{}) : make(Same<half2<maxB>, 4>{});
        default:
          return {};
      }
    }
    case AtomOp::Inc:
      if (t == Type::U32) return make(Same<incFn, 4>{});
      return {};
    case AtomOp::Dec:
      if (t == Type::U32) return make(Same<decFn, 4>{});
      return {};
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor: {
      const bool w = t == Type::B64;
      if (t != Type::B32 && !w) return {};
      if (op == AtomOp::And)
        return w ? make(Same<andFn<uint64_t>, 8>{}) : make(Same<andFn<uint32_t>, 4>{});
      if (op == AtomOp::Or)
        return w ? make(Same<orFn<uint64_t>, 8>{}) : make(Same<orFn<uint32_t>, 4>{});
      return w ? make(Same<xorFn<uint64_t>, 8>{}) : make(Same<xorFn<uint32_t>, 4>{});
    }
    case AtomOp::Exch:
      if (t == Type::B32) return make(Same<exchFn<uint32_t>, 4>{});
      if (t == Type::B64) return make(Same<exchFn<uint64_t>, 8>{});
      return {};
    case AtomOp::Cas:
      if (t == Type::B16) return make(Same<casFn<uint16_t>, 2>{});
      if (t == Type::B32) return make(Same<casFn<uint32_t>, 4>{});
      if (t == Type::B64) return make(Same<casFn<uint64_t>, 8>{});
      return {};
  }
  return {};
}

// The handler for an operation and type, nullptr where ptxas rejects the pair.
Handler handlerFor(AtomOp op, Type t, bool red) {
  const bool cas = op == AtomOp::Cas;
  if (t == Type::B128 && (op == AtomOp::Exch || cas)) return atom128H;
  return forElement(op, t, [&]<AtomFn G, AtomFn S, unsigned B, bool SE>(Elem<G, S, B, SE>) {
    if (red) return Handler(atomH<G, S, B, SE, false, false>);
    return cas ? Handler(atomH<G, S, B, SE, true, true>) : Handler(atomH<G, S, B, SE, true, false>);
  });
}

// ---- binding ------------------------------------------------------------------------------

constexpr std::pair<std::string_view, AtomOp> kOps[] = {
    {"add", AtomOp::Add},   {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
    {"dec", AtomOp::Dec},   {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
    {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas},
};

bool isHalfFloat(Type t) {
  return t == Type::F16 || t == Type::F16x2 || t == Type::BF16 || t == Type::BF16x2;
}

// Which vector widths a type and operation take (PTX ISA 9.7.13.5, "atom with vector type"):
// 0 when none.
unsigned maxVector(AtomOp op, Type t) {
  if (t == Type::F32) return op == AtomOp::Add ? 4 : 0;
  if (op != AtomOp::Add && op != AtomOp::Min && op != AtomOp::Max) return 0;
  if (t == Type::F16 || t == Type::BF16) return 8;
  if (t == Type::F16x2 || t == Type::BF16x2) return 4;
  return 0;
}

// A destination (atom's d) or source (b) operand: a register, or for a vector form a brace
// vector of `vec` registers; destinations may be (or hold) the sink `_`.
std::string checkData(const Inst& in, const Opnd& o, unsigned vec, bool dest, const char* what) {
  auto fits = [&](const Opnd& e) {
    return e.kind == OpndKind::Reg || (dest && e.kind == OpndKind::Sink);
  };
  if (vec == 1) {
    if (!fits(o)) return std::string("the ") + what + " of '" + in.text + "' must be a register";
    return "";
  }
  if (o.kind != OpndKind::Vec || o.elems.size() != vec)
    return std::string("the ") + what + " of '" + in.text + "' must be a vector of " +
           std::to_string(vec) + " registers";
  for (const Opnd& e : o.elems)
    if (!fits(e)) return std::string("the ") + what + " of '" + in.text + "' must hold registers";
  return "";
}

// Function-local so that no static-initialization order matters (the table is built on first
// use, possibly from another translation unit's initializer).
const std::vector<Type>& atomTypes() {
  static const std::vector<Type> types = {
      Type::B16, Type::B32, Type::B64,   Type::B128, Type::U32,    Type::U64, Type::S32,
      Type::S64, Type::F16, Type::F16x2, Type::BF16, Type::BF16x2, Type::F32, Type::F64};
  return types;
}
const std::vector<std::string_view>& atomWords() {
  static const std::vector<std::string_view> words = {"global",
                                                      "shared",
                                                      "shared::cta",
                                                      "shared::cluster",
                                                      "relaxed",
                                                      "acquire",
                                                      "release",
                                                      "acq_rel",
                                                      "cta",
                                                      "cluster",
                                                      "gpu",
                                                      "sys",
                                                      "add",
                                                      "min",
                                                      "max",
                                                      "inc",
                                                      "dec",
                                                      "and",
                                                      "or",
                                                      "xor",
                                                      "exch",
                                                      "cas",
                                                      "noftz",
                                                      "v2",
                                                      "v4",
                                                      "v8",
                                                      "L2::cache_hint"};
  return words;
}

// A word no form of atom/red takes (the parser refuses it too; this guards other callers).
std::string unknownWord(const Inst& in) {
  for (const std::string& w : in.mods.words) {
    if (auto t = typeFromName(w)) {
      if (std::find(atomTypes().begin(), atomTypes().end(), *t) != atomTypes().end()) continue;
    } else if (std::find(atomWords().begin(), atomWords().end(), w) != atomWords().end()) {
      continue;
    }
    return "'" + in.text + "' does not take ." + w;
  }
  return "";
}

std::string bindAtomic(Inst& in, bool red) {
  const Mods& m = in.mods;
  const std::string name = "'" + in.text + "'";
  if (auto e = unknownWord(in); !e.empty()) return e;
  if (m.types.size() != 1) return name + " needs exactly one type";
  const Type t = m.type();

  int nOps = 0;
  AtomOp op = AtomOp::Add;
  for (const auto& [word, o] : kOps)
    if (m.has(word)) ++nOps, op = o;
  if (nOps != 1)
    return name + " needs exactly one operation (.add .min .max .inc .dec .and .or .xor" +
           (red ? ")" : " .exch .cas)");
  if (red && (op == AtomOp::Exch || op == AtomOp::Cas))
    return "red has no ." + std::string(op == AtomOp::Exch ? "exch" : "cas") + " (use atom)";

  const Space space = addressedSpace(in);
  if (space != Space::Generic && space != Space::Global && !isShared(space))
    return name + ": atomics are defined for .global, .shared and generic addresses";
  switch (m.order) {
    case MemOrder::None:
    case MemOrder::Relaxed:
    case MemOrder::Release:
      break;
    case MemOrder::Acquire:
    case MemOrder::AcqRel:
      if (red) return "red takes .relaxed or .release only";
      break;
    default:
      return name + ": atomics take .relaxed, .acquire, .release or .acq_rel";
  }

  Handler h = handlerFor(op, t, red);
  if (!h)
    return name + ": ." + std::string(kOps[size_t(op)].first) + " is not defined for ." +
           typeName(t);
  if (isHalfFloat(t) != m.has("noftz"))
    return isHalfFloat(t) ? name + " requires .noftz for 16-bit floating-point types"
                          : name + ": .noftz is only defined for .f16, .f16x2, .bf16, .bf16x2";

  const unsigned vec = m.vec;
  if (vec > 1) {
    if (isShared(space))
      return name + ": vector atomics are defined for .global and generic addresses only";
    if (vec > maxVector(op, t))
      return name + ": ." + std::string(kOps[size_t(op)].first) + "." + typeName(t) + " has no .v" +
             std::to_string(vec) + " form";
  } else if (isHalfFloat(t) && op != AtomOp::Add) {
    return name + ": .min/.max on 16-bit floating-point types need a vector qualifier";
  }

  const bool hint = m.has("L2::cache_hint");
  if (hint && isShared(space)) return name + ": .L2::cache_hint is not allowed on .shared";
  if (hint && op == AtomOp::Cas) return name + ": .cas takes no .L2::cache_hint";

  const size_t need = (red ? 2 : 3) + (op == AtomOp::Cas ? 1 : 0) + (hint ? 1 : 0);
  if (auto e = expectOperands(in, need); !e.empty()) return e;
  const size_t ai = red ? 0 : 1;
  if (!red)
    if (auto e = checkData(in, in.ops[0], vec, true, "destination"); !e.empty()) return e;
  if (in.ops[ai].kind != OpndKind::Addr)
    return "operand " + std::to_string(ai + 1) + " of " + name + " must be an address";
  if (auto e = checkData(in, in.ops[ai + 1], vec, false, "source"); !e.empty()) return e;
  for (size_t i = ai + 2; i < need; ++i)
    if (in.ops[i].kind != OpndKind::Reg)
      return "operand " + std::to_string(i + 1) + " of " + name + " must be a register";

  in.cls = isShared(space) ? InsnClass::AtomicShared : InsnClass::AtomicGlobal;
  in.run = h;
  return "";
}

}  // namespace

std::vector<OpcodeSpec> atomics() {
  return {
      {"atom", "atomic", InsnClass::AtomicGlobal, Role::Compute, Operation::Other, atomTypes(),
       atomWords(), [](Inst& in) { return bindAtomic(in, false); }},
      {"red", "atomic", InsnClass::AtomicGlobal, Role::Effect, Operation::Other, atomTypes(),
       atomWords(), [](Inst& in) { return bindAtomic(in, true); }},
  };
}

bool isAtom128Stub(Handler h) { return h == atom128H; }

AtomElement atomElement(AtomOp op, Type t) {
  return forElement(op, t, []<AtomFn G, AtomFn S, unsigned B, bool SE>(Elem<G, S, B, SE>) {
    return AtomElement{G, S, B};
  });
}

}  // namespace warpsim::isa::insns
