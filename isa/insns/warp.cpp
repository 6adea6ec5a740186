// Warp-level primitives (PTX ISA 9.0 section 9.7.13): shfl.sync (.up .down .bfly .idx),
// vote.sync (.all .any .uni .ballot), match.sync (.any .all), redux.sync (integer and bitwise),
// activemask, elect.sync. The forms are ptxas 13.0's for sm_90: shfl and vote without .sync are
// refused ("not supported on .target sm_70 and higher from PTX ISA version 6.4"), as is
// redux.sync .f32 (sm_100a).
//
// What the H200 does where PTX leaves it open (measured, CUDA 13.0, driver 580; the recorded
// values are in tests/isa/warp_test.cpp):
//  - shfl.sync follows the manual's pseudocode exactly (d and p for every mode, lane, b in
//    0..67 and 20 c values: no difference in 102,400 cases). A source lane that is not executing
//    (inactive, or its guard false) gives 0.
//  - vote, match, redux and elect compute over the lanes that execute the instruction; the member
//    mask only synchronizes. (A lane outside the member mask that executes anyway takes part:
//    e.g. redux.sync.add with member mask 0xffff executed by 32 lanes sums all 32.)
//  - A member-mask lane that does not execute a shfl/vote/match/redux.sync never arrives and the
//    warp hangs (seen with lanes whose guard was false), unless it has exited ("all non-exited
//    threads in membermask"): `if (t >= 20) return;` before __shfl_down_sync(0xffffffff, ...)
//    runs (ptxas makes the return an EXIT) and the exited sources read 0. elect.sync does not
//    wait: with lanes 0-2 absent and member mask 0xffffffff it elected lane 3; its leader is the
//    lowest executing lane.
//  - activemask: predicated-off lanes contribute 0 (the manual says so too), so d = the lanes
//    executing the instruction.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "isa/insns/families.h"
#include "isa/insns/lanes.h"

namespace warpsim::isa::insns {
namespace {

// The member mask is warp-uniform: read it from the first executing lane.
LaneMask uniformMask(const Exec& x, const Opnd& o) {
  return uint32_t(x.reg(o)[std::countr_zero(x.mask)]);
}

// "wait until all non-exited threads corresponding to membermask have executed" the
// instruction. A member lane that is active but predicated off will never execute it: a fault
// here. A member lane that is not active may have exited, which only the machine knows: it
// checks the mask as bar.warp.sync's (and faults unless the missing lanes have exited).
void syncMembers(Exec& x, const Inst& in, LaneMask members) {
  const LaneMask missing = members & ~x.mask;
  if (!missing) return;
  if (missing & x.active) x.machine->warpSyncFault(in, members, x.mask);
  x.machine->barrier(in, BarrierKind::Warp, members, 0, 0, 0, kNoSlot);
}

// Writes `result` (a lane mask) into predicate operand `p` for the executing lanes.
void setPred(Exec& x, const Opnd& p, LaneMask result) {
  if (p.kind != OpndKind::Pred) return;  // `_`
  uint32_t& r = x.pred(p);
  r = (r & ~x.mask) | (result & x.mask);
}

// `d` or `d|p` (lowered as a two-element vector).
const Opnd& firstOf(const Opnd& o) { return o.kind == OpndKind::Vec ? o.elems[0] : o; }
const Opnd* secondOf(const Opnd& o) { return o.kind == OpndKind::Vec ? &o.elems[1] : nullptr; }

// ---- shfl.sync ----------------------------------------------------------------------------

enum class Shfl : uint8_t { Up, Down, Bfly, Idx };

// shfl.sync.mode.b32 d[|p], a, b, c, membermask. The manual's pseudocode: lane, b[4:0], the
// clamp c[4:0] and the segment mask c[12:8] give the source lane j and whether it is in range.
template <Shfl M>
void shflH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  syncMembers(x, in, uniformMask(x, in.ops[4]));
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  const uint64_t* c = x.reg(in.ops[3]);
  // Lane l's source lane (itself when out of range) and whether it is in range.
  auto source = [&](unsigned l, bool& p) {
    const int lane = int(l), bval = int(b[l] & 31), cval = int(c[l] & 31);
    const int seg = int((c[l] >> 8) & 31);
    const int maxLane = (lane & seg) | (cval & ~seg), minLane = lane & seg;
    int j = 0;
    switch (M) {
      case Shfl::Up:
        j = lane - bval, p = j >= maxLane;
        break;
      case Shfl::Down:
        j = lane + bval, p = j <= maxLane;
        break;
      case Shfl::Bfly:
        j = lane ^ bval, p = j <= maxLane;
        break;
      case Shfl::Idx:
        j = minLane | (bval & ~seg), p = j <= maxLane;
        break;
    }
    return p ? unsigned(j) : l;
  };
  uint32_t value[kWarpSize];
  uint64_t* d = x.reg(firstOf(in.ops[0]));
  const Opnd* pd = secondOf(in.ops[0]);
  if (x.mask == ~0u) {
    // A full warp, the common case: every source lane executes, so no lane reads 0, and the
    // in-range mask is built only when a predicate destination asks for it. The source lanes
    // are computed first, in a loop of its own that runs as vectors (the gather after it
    // cannot), and the values go through `value` because d may be a, b or c.
    uint32_t from[kWarpSize];
    uint8_t ok[kWarpSize];
#pragma GCC ivdep
    for (unsigned l = 0; l < kWarpSize; ++l) {
      bool p = false;
      from[l] = source(l, p);
      ok[l] = p;
    }
    for (unsigned l = 0; l < kWarpSize; ++l) value[l] = uint32_t(a[from[l]]);
#pragma GCC ivdep
    for (unsigned l = 0; l < kWarpSize; ++l) d[l] = value[l];
    if (pd) {
      LaneMask inRange = 0;
      for (unsigned l = 0; l < kWarpSize; ++l) inRange |= LaneMask(ok[l]) << l;
      setPred(x, *pd, inRange);
    }
    return;
  }
  LaneMask inRange = 0;
  forLanes(x.mask, [&](unsigned l) {
    bool p = false;
    const unsigned j = source(l, p);
    value[l] = (x.mask >> j) & 1 ? uint32_t(a[j]) : 0;  // a non-executing source gives 0 (H200)
    if (p) inRange |= 1u << l;
  });
  forLanes(x.mask, [&](unsigned l) { d[l] = value[l]; });
  if (pd) setPred(x, *pd, inRange);
}

// ---- vote.sync ----------------------------------------------------------------------------

// The source predicate of every executing lane as a mask: a predicate register ({!}a) or an
// immediate (`vote.sync.all.pred p, 1, m` is accepted by ptxas), true when nonzero.
LaneMask sourceBits(const Exec& x, const Opnd& a) {
  LaneMask bits = 0;
  if (a.kind == OpndKind::Pred) {
    bits = x.pred(a);
  } else {
    const uint64_t* r = x.reg(a);
    forLanes(x.mask, [&](unsigned l) { bits |= LaneMask(r[l] != 0) << l; });
  }
  return (a.negated ? ~bits : bits) & x.mask;
}

enum class Vote : uint8_t { All, Any, Uni, Ballot };

template <Vote M>
void voteH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  syncMembers(x, in, uniformMask(x, in.ops[2]));
  const LaneMask v = sourceBits(x, in.ops[1]);
  if constexpr (M == Vote::Ballot) {
    uint64_t* d = x.reg(in.ops[0]);
    forLanes(x.mask, [&](unsigned l) { d[l] = v; });
  } else {
    const bool r = M == Vote::All ? v == x.mask : M == Vote::Any ? v != 0 : (v == 0 || v == x.mask);
    setPred(x, in.ops[0], r ? x.mask : 0);
  }
}

// ---- match.sync ---------------------------------------------------------------------------

// match.any.sync.type d, a, membermask: d = the lanes holding the same value as this lane.
// match.all.sync.type d[|p], a, membermask: d = the lanes if all hold the same value, else 0.
template <class T, bool All>
void matchH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  syncMembers(x, in, uniformMask(x, in.ops[2]));
  const uint64_t* a = x.reg(in.ops[1]);
  const Opnd& dst = firstOf(in.ops[0]);
  uint64_t* d = dst.kind == OpndKind::Reg ? x.reg(dst) : nullptr;
  if constexpr (All) {
    const T first = as<T>(a[std::countr_zero(x.mask)]);
    bool same = true;
    forLanes(x.mask, [&](unsigned l) { same = same && as<T>(a[l]) == first; });
    const LaneMask r = same ? x.mask : 0;
    if (d) forLanes(x.mask, [&](unsigned l) { d[l] = r; });
    if (const Opnd* p = secondOf(in.ops[0])) setPred(x, *p, r);
  } else {
    LaneMask r[kWarpSize] = {};
    forLanes(x.mask, [&](unsigned l) {
      const T v = as<T>(a[l]);
      forLanes(x.mask, [&](unsigned k) { r[l] |= LaneMask(as<T>(a[k]) == v) << k; });
    });
    forLanes(x.mask, [&](unsigned l) { d[l] = r[l]; });
  }
}

// ---- redux.sync ---------------------------------------------------------------------------

enum class Redux : uint8_t { Add, Min, Max, And, Or, Xor };

// redux.sync.op.type d, src, membermask: d = op over the executing lanes' src (.add wraps to
// 32 bits: "the result is truncated to 32 bits").
template <class T, Redux Op>
void reduxH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  syncMembers(x, in, uniformMask(x, in.ops[2]));
  const uint64_t* s = x.reg(in.ops[1]);
  T acc = as<T>(s[std::countr_zero(x.mask)]);
  forLanes(x.mask & (x.mask - 1), [&](unsigned l) {
    const T v = as<T>(s[l]);
    switch (Op) {
      case Redux::Add:
        acc = T(uint32_t(acc) + uint32_t(v));
        break;
      case Redux::Min:
        acc = v < acc ? v : acc;
        break;
      case Redux::Max:
        acc = v > acc ? v : acc;
        break;
      case Redux::And:
        acc &= v;
        break;
      case Redux::Or:
        acc |= v;
        break;
      case Redux::Xor:
        acc ^= v;
        break;
    }
  });
  uint64_t* d = x.reg(in.ops[0]);
  forLanes(x.mask, [&](unsigned l) { d[l] = bitsOf<T>(acc); });
}

// ---- activemask, elect.sync ---------------------------------------------------------------

void activemaskH(Exec& x, const Inst& in) {
  uint64_t* d = x.reg(in.ops[0]);
  forLanes(x.mask, [&](unsigned l) { d[l] = x.mask; });
}

// elect.sync d|p, membermask: d = the leader's lane id in every executing lane, p true in the
// leader only. The leader is the lowest executing lane (H200: see the file comment).
void electH(Exec& x, const Inst& in) {
  if (!x.mask) return;
  const unsigned leader = unsigned(std::countr_zero(x.mask));
  const Opnd& dst = in.ops[0].elems[0];
  if (dst.kind == OpndKind::Reg) {
    uint64_t* d = x.reg(dst);
    forLanes(x.mask, [&](unsigned l) { d[l] = leader; });
  }
  setPred(x, in.ops[0].elems[1], 1u << leader);
}

// ---- binding ------------------------------------------------------------------------------

// Exactly one of `words` among the modifiers: its index, or -1 (none or several).
template <size_t N>
int oneOf(const Mods& m, const std::string_view (&words)[N]) {
  int found = -1;
  for (size_t i = 0; i < N; ++i)
    if (m.has(words[i])) {
      if (found >= 0) return -1;
      found = int(i);
    }
  return found;
}

// The modifier words and types a spec lists (the parser refuses others; this guards other
// callers such as the tests' harness).
struct Words {
  std::vector<std::string_view> words;
  std::vector<Type> types;
};
// Function-local statics: no static-initialization order matters.
const Words& shflWords() {
  static const Words w = {{"sync", "up", "down", "bfly", "idx"}, {Type::B32}};
  return w;
}
const Words& voteWords() {
  static const Words w = {{"sync", "all", "any", "uni", "ballot"}, {Type::Pred, Type::B32}};
  return w;
}
const Words& matchWords() {
  static const Words w = {{"sync", "any", "all"}, {Type::B32, Type::B64}};
  return w;
}
const Words& reduxWords() {
  static const Words w = {{"sync", "add", "min", "max", "and", "or", "xor", "abs", "NaN"},
                          {Type::U32, Type::S32, Type::B32, Type::F32}};
  return w;
}
const Words& activemaskWords() {
  static const Words w = {{}, {Type::B32}};
  return w;
}
const Words& electWords() {
  static const Words w = {{"sync"}, {}};
  return w;
}

std::string onlyWords(const Inst& in, const Words& allowed) {
  for (const std::string& w : in.mods.words) {
    if (auto t = typeFromName(w)) {
      if (std::find(allowed.types.begin(), allowed.types.end(), *t) != allowed.types.end())
        continue;
    } else if (std::find(allowed.words.begin(), allowed.words.end(), w) != allowed.words.end()) {
      continue;
    }
    return "'" + in.text + "' does not take ." + w;
  }
  return "";
}

std::string needSync(const Inst& in, const char* op) {
  if (in.mods.has("sync")) return "";
  return std::string("'") + in.text + "': " + op +
         " without .sync is not supported on sm_70 and later (PTX ISA 6.4+); use " + op + ".sync";
}

std::string needType(const Inst& in, Type t) {
  if (in.mods.types.size() == 1 && in.mods.type() == t) return "";
  return "'" + in.text + "' needs the type ." + typeName(t);
}

// `d` alone, or `d|p` when `pairOk`; the sink `_` is accepted where ptxas accepts it.
std::string checkDest(const Inst& in, bool pairOk, bool sinkD, bool sinkP) {
  const Opnd& o = in.ops[0];
  const std::string name = "'" + in.text + "'";
  if (o.kind == OpndKind::Reg) return "";
  if (o.kind != OpndKind::Vec) return "the destination of " + name + " must be a register";
  if (!pairOk) return name + " has no predicate destination";
  if (o.elems.size() != 2) return "the destination of " + name + " is d or d|p";
  const Opnd& d = o.elems[0];
  const Opnd& p = o.elems[1];
  if (!(d.kind == OpndKind::Reg || (sinkD && d.kind == OpndKind::Sink)))
    return "the destination of " + name + " must be a register";
  if (!(p.kind == OpndKind::Pred || (sinkP && p.kind == OpndKind::Sink)))
    return "the second destination of " + name + " must be a predicate";
  return "";
}

// `role`: what the instruction does among the lanes of its member mask (its last operand), for
// the checkers (activemask has no mask: None).
std::string finish(Inst& in, Handler h, SyncRole role = SyncRole::WarpCollective) {
  in.cls = InsnClass::Warp;
  in.run = h;
  in.sync = role;
  return "";
}

constexpr std::string_view kShflModes[] = {"up", "down", "bfly", "idx"};

std::string bindShfl(Inst& in) {
  if (auto e = onlyWords(in, shflWords()); !e.empty()) return e;
  if (auto e = needSync(in, "shfl"); !e.empty()) return e;
  if (auto e = needType(in, Type::B32); !e.empty()) return e;
  const int mode = oneOf(in.mods, kShflModes);
  if (mode < 0) return "'" + in.text + "' needs one mode: .up, .down, .bfly or .idx";
  if (auto e = expectOperands(in, 5); !e.empty()) return e;
  if (auto e = checkDest(in, true, false, true); !e.empty()) return e;
  if (auto e = expectRegs(in, {1, 2, 3, 4}); !e.empty()) return e;
  constexpr Handler hs[] = {shflH<Shfl::Up>, shflH<Shfl::Down>, shflH<Shfl::Bfly>,
                            shflH<Shfl::Idx>};
  return finish(in, hs[mode], SyncRole::WarpExchange);
}

constexpr std::string_view kVoteModes[] = {"all", "any", "uni", "ballot"};

std::string bindVote(Inst& in) {
  if (auto e = onlyWords(in, voteWords()); !e.empty()) return e;
  if (auto e = needSync(in, "vote"); !e.empty()) return e;
  const int mode = oneOf(in.mods, kVoteModes);
  if (mode < 0) return "'" + in.text + "' needs one mode: .all, .any, .uni or .ballot";
  const bool ballot = mode == 3;
  if (auto e = needType(in, ballot ? Type::B32 : Type::Pred); !e.empty()) return e;
  if (auto e = expectOperands(in, 3); !e.empty()) return e;
  if (in.ops[0].kind != (ballot ? OpndKind::Reg : OpndKind::Pred))
    return "the destination of '" + in.text + "' must be a " + (ballot ? "register" : "predicate");
  if (in.ops[1].kind != OpndKind::Pred && in.ops[1].kind != OpndKind::Reg)
    return "the source of '" + in.text + "' must be a predicate";
  if (auto e = expectRegs(in, {2}); !e.empty()) return e;
  constexpr Handler hs[] = {voteH<Vote::All>, voteH<Vote::Any>, voteH<Vote::Uni>,
                            voteH<Vote::Ballot>};
  return finish(in, hs[mode]);
}

constexpr std::string_view kMatchModes[] = {"any", "all"};

std::string bindMatch(Inst& in) {
  if (auto e = onlyWords(in, matchWords()); !e.empty()) return e;
  if (auto e = needSync(in, "match"); !e.empty()) return e;
  const int mode = oneOf(in.mods, kMatchModes);
  if (mode < 0) return "'" + in.text + "' needs one mode: .any or .all";
  const bool all = mode == 1;
  const Type t = in.mods.type();
  if (in.mods.types.size() != 1 || (t != Type::B32 && t != Type::B64))
    return "'" + in.text + "' needs the type .b32 or .b64";
  if (auto e = expectOperands(in, 3); !e.empty()) return e;
  if (auto e = checkDest(in, all, true, true); !e.empty()) return e;
  if (auto e = expectRegs(in, {1, 2}); !e.empty()) return e;
  const bool wide = t == Type::B64;
  if (all) return finish(in, wide ? matchH<uint64_t, true> : matchH<uint32_t, true>);
  return finish(in, wide ? matchH<uint64_t, false> : matchH<uint32_t, false>);
}

constexpr std::string_view kReduxOps[] = {"add", "min", "max", "and", "or", "xor"};

template <class T>
Handler reduxFor(int op) {
  constexpr Handler hs[] = {reduxH<T, Redux::Add>, reduxH<T, Redux::Min>, reduxH<T, Redux::Max>,
                            reduxH<T, Redux::And>, reduxH<T, Redux::Or>,  reduxH<T, Redux::Xor>};
  return hs[op];
}

std::string bindRedux(Inst& in) {
  if (auto e = onlyWords(in, reduxWords()); !e.empty()) return e;
  if (auto e = needSync(in, "redux"); !e.empty()) return e;
  const int op = oneOf(in.mods, kReduxOps);
  if (op < 0) return "'" + in.text + "' needs one operation: .add .min .max .and .or .xor";
  const Type t = in.mods.type();
  if (in.mods.types.size() != 1) return "'" + in.text + "' needs exactly one type";
  if (t == Type::F32)
    return "'" + in.text + "': redux.sync .f32 (.min/.max, .abs, .NaN) requires sm_100a";
  if (in.mods.has("abs") || in.mods.has("NaN"))
    return "'" + in.text + "': .abs and .NaN are only defined for .f32";
  const bool bitwise = op >= 3;
  if (bitwise && t != Type::B32)
    return "'" + in.text + "': ." + std::string(kReduxOps[op]) + " needs the type .b32";
  if (!bitwise && t != Type::U32 && t != Type::S32)
    return "'" + in.text + "': ." + std::string(kReduxOps[op]) + " needs the type .u32 or .s32";
  if (auto e = expectOperands(in, 3); !e.empty()) return e;
  if (auto e = expectRegs(in, {0, 1, 2}); !e.empty()) return e;
  return finish(in, t == Type::S32 ? reduxFor<int32_t>(op) : reduxFor<uint32_t>(op));
}

std::string bindActivemask(Inst& in) {
  if (auto e = onlyWords(in, activemaskWords()); !e.empty()) return e;
  if (auto e = needType(in, Type::B32); !e.empty()) return e;
  if (auto e = expectOperands(in, 1); !e.empty()) return e;
  if (auto e = expectRegs(in, {0}); !e.empty()) return e;
  return finish(in, activemaskH, SyncRole::None);
}

std::string bindElect(Inst& in) {
  if (auto e = onlyWords(in, electWords()); !e.empty()) return e;
  if (auto e = needSync(in, "elect"); !e.empty()) return e;
  if (!in.mods.types.empty()) return "'" + in.text + "' takes no type";
  if (auto e = expectOperands(in, 2); !e.empty()) return e;
  const Opnd& o = in.ops[0];
  if (o.kind != OpndKind::Vec || o.elems.size() != 2 || o.elems[1].kind != OpndKind::Pred ||
      (o.elems[0].kind != OpndKind::Reg && o.elems[0].kind != OpndKind::Sink))
    return "the destination of '" + in.text + "' is d|p (d may be _)";
  if (auto e = expectRegs(in, {1}); !e.empty()) return e;
  return finish(in, electH);
}

}  // namespace

std::vector<OpcodeSpec> warpLevel() {
  return {
      {"shfl", "warp", InsnClass::Warp, Role::Compute, Operation::Other, shflWords().types,
       shflWords().words, bindShfl},
      {"vote", "warp", InsnClass::Warp, Role::Compute, Operation::Other, voteWords().types,
       voteWords().words, bindVote},
      {"match", "warp", InsnClass::Warp, Role::Compute, Operation::Other, matchWords().types,
       matchWords().words, bindMatch},
      {"redux", "warp", InsnClass::Warp, Role::Compute, Operation::Other, reduxWords().types,
       reduxWords().words, bindRedux},
      {"activemask", "warp", InsnClass::Warp, Role::Compute, Operation::Other,
       activemaskWords().types, activemaskWords().words, bindActivemask},
      {"elect", "warp", InsnClass::Warp, Role::Compute, Operation::Other, electWords().types,
       electWords().words, bindElect},
  };
}

}  // namespace warpsim::isa::insns
