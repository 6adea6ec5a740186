// The mask loop, written once: instruction families write the per-lane body and these
// templates run it over the executing lanes (principle 2 of DESIGN.md).
//
//   unary<T>(x, in, [](T a) { return ...; })          d = f(a)
//   binary<T>(x, in, [](T a, T b) { return ...; })     d = f(a, b)
//   ternary<T>(x, in, [](T a, T b, T c) { ... })       d = f(a, b, c)
// Operands are ops[0] (destination) and ops[1..] (sources); T is the C++ type the register bits
// are read as and the result written from (uint32_t, int64_t, float, ...).
#pragma once

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include <bit>
#include <initializer_list>
#include <string>
#include <string_view>

#include "isa/exec.h"

namespace warpsim::isa::insns {

// The lane loop of the element-wise templates below. Lane l reads only lane l of its sources and
// writes only lane l of its destination, and a destination slot either is one of the sources or
// does not overlap them (slots are whole warps apart): no lane depends on another, so a full
// warp's loop runs as vectors without the run-time overlap test (which -O2 does not vectorize
// with).
template <class F>
inline void forLanesElementwise(LaneMask mask, F&& body) {
  if (mask == ~0u) {
#pragma GCC ivdep
    for (unsigned lane = 0; lane < kWarpSize; ++lane) body(lane);
    return;
  }
  forLanes(mask, body);
}

// Partial warps with at least this many executing lanes run forLanesBlended's whole-warp loop:
// below it, visiting the lanes one by one costs less than 32 lanes as vectors.
inline constexpr int kBlendLanes = 8;

// The lane loop of an element-wise body that is total and cheap: value(l) is defined for any
// register bits and does nothing but return lane l's result (integer add, logic, shifts, selp,
// mov: no division, no call). A partial warp with many executing lanes (a divergent loop's, a
// tree reduction's first levels) then computes every lane as vectors and keeps the executing
// lanes' results: what the other lanes' registers hold is read but never written.
template <class F>
inline void forLanesBlended(LaneMask mask, uint64_t* d, F&& value) {
  if (mask == ~0u) {
#pragma GCC ivdep
    for (unsigned l = 0; l < kWarpSize; ++l) d[l] = value(l);
    return;
  }
  if (std::popcount(mask) < kBlendLanes) {
    forLanes(mask, [&](unsigned l) { d[l] = value(l); });
    return;
  }
#pragma GCC ivdep
  for (unsigned l = 0; l < kWarpSize; ++l) {
    const uint64_t v = value(l);
    d[l] = (mask >> l) & 1u ? v : d[l];
  }
}

// The lane loop of a total, cheap body that writes only the handler's own lane array (a memory
// access's addresses): a full or well-filled warp (forLanesBlended's threshold) runs it for all
// 32 lanes as vectors, so the array also holds values for lanes that do not execute, which
// nothing reads; fewer lanes go one by one. fillsAllLanes says which masks it fills all 32 for.
inline bool fillsAllLanes(LaneMask mask) {
  return mask == ~0u || std::popcount(mask) >= kBlendLanes;
}
template <class F>
inline void forLanesOrAll(LaneMask mask, F&& body) {
  if (!fillsAllLanes(mask)) {
    forLanes(mask, body);
    return;
  }
#pragma GCC ivdep
  for (unsigned l = 0; l < kWarpSize; ++l) body(l);
}

// The lane mask of 32 bytes that are each 0 or 1 (byte l: lane l).
inline LaneMask laneMaskOfBytes(const uint8_t* bytes) {
#if defined(__AVX2__)
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bytes));
  return LaneMask(_mm256_movemask_epi8(_mm256_slli_epi16(v, 7)));
#else
  LaneMask m = 0;
  for (unsigned l = 0; l < kWarpSize; ++l) m |= LaneMask(bytes[l]) << l;
  return m;
#endif
}

// The lanes of `mask` where test(l) holds, for a test that is total and cheap (a comparison):
// as forLanesBlended, a full or well-filled warp tests every lane as vectors.
template <class F>
inline LaneMask lanesWhere(LaneMask mask, F&& test) {
  if (mask != ~0u && std::popcount(mask) < kBlendLanes) {
    LaneMask t = 0;
    forLanes(mask, [&](unsigned l) { t |= LaneMask(test(l)) << l; });
    return t;
  }
  uint8_t r[kWarpSize];
#pragma GCC ivdep
  for (unsigned l = 0; l < kWarpSize; ++l) r[l] = uint8_t(test(l));
  return laneMaskOfBytes(r) & mask;
}

// An element-wise lane loop in two passes, for a lane operation whose fast path a few inputs
// leave (isa/fp.h's .rn .ftz results at the subnormal border): fast(l, slow) returns lane l's
// result bits, setting `slow` where the lane needs exact(l) instead. A full warp's first pass
// calls nothing, so it vectorizes; a slow lane keeps its register there, so its sources are
// still intact (the destination may be one of them) when the second pass runs exact on those
// lanes alone. A partial warp runs exact on each executing lane.
template <class Fast, class Exact>
inline void forLanesTwoPass(LaneMask mask, uint64_t* d, Fast&& fast, Exact&& exact) {
  if (mask != ~0u) {
    forLanes(mask, [&](unsigned l) { d[l] = exact(l); });
    return;
  }
  uint8_t slow[kWarpSize], any = 0;
#pragma GCC ivdep
  for (unsigned l = 0; l < kWarpSize; ++l) {
    bool s = false;
    const uint64_t v = fast(l, s);
    slow[l] = s;
    any |= uint8_t(s);
    d[l] = s ? d[l] : v;
  }
  if (!any) return;
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (slow[l]) d[l] = exact(l);
}

template <class D, class A, class F>
inline void unary(Exec& x, const Inst& in, F&& f) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  forLanesElementwise(x.mask, [&](unsigned l) { d[l] = bitsOf<D>(f(as<A>(a[l]))); });
}

template <class T, class F>
inline void unary(Exec& x, const Inst& in, F&& f) {
  unary<T, T>(x, in, std::forward<F>(f));
}

template <class D, class A, class B, class F>
inline void binary(Exec& x, const Inst& in, F&& f) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  forLanesElementwise(x.mask, [&](unsigned l) { d[l] = bitsOf<D>(f(as<A>(a[l]), as<B>(b[l]))); });
}

template <class T, class F>
inline void binary(Exec& x, const Inst& in, F&& f) {
  binary<T, T, T>(x, in, std::forward<F>(f));
}

template <class D, class A, class B, class C, class F>
inline void ternary(Exec& x, const Inst& in, F&& f) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  const uint64_t* c = x.reg(in.ops[3]);
  forLanesElementwise(
      x.mask, [&](unsigned l) { d[l] = bitsOf<D>(f(as<A>(a[l]), as<B>(b[l]), as<C>(c[l]))); });
}

template <class T, class F>
inline void ternary(Exec& x, const Inst& in, F&& f) {
  ternary<T, T, T, T>(x, in, std::forward<F>(f));
}

// unary, binary and ternary for total, cheap bodies (forLanesBlended).
template <class D, class A, class F>
inline void unaryTotal(Exec& x, const Inst& in, F&& f) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  forLanesBlended(x.mask, d, [&](unsigned l) { return bitsOf<D>(f(as<A>(a[l]))); });
}

template <class D, class A, class B, class F>
inline void binaryTotal(Exec& x, const Inst& in, F&& f) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  forLanesBlended(x.mask, d, [&](unsigned l) { return bitsOf<D>(f(as<A>(a[l]), as<B>(b[l]))); });
}

template <class T, class F>
inline void binaryTotal(Exec& x, const Inst& in, F&& f) {
  binaryTotal<T, T, T>(x, in, std::forward<F>(f));
}

template <class T, class F>
inline void ternaryTotal(Exec& x, const Inst& in, F&& f) {
  uint64_t* d = x.reg(in.ops[0]);
  const uint64_t* a = x.reg(in.ops[1]);
  const uint64_t* b = x.reg(in.ops[2]);
  const uint64_t* c = x.reg(in.ops[3]);
  forLanesBlended(x.mask, d,
                  [&](unsigned l) { return bitsOf<T>(f(as<T>(a[l]), as<T>(b[l]), as<T>(c[l]))); });
}

// ---- predicate operands ---------------------------------------------------------------------
// A predicate source: a predicate register, or an immediate (ptxas accepts `or.pred p, q, 1`)
// whose slot holds 0 or 1; `!p` negates it.
inline LaneMask predSource(const Exec& x, const Opnd& o) {
  LaneMask v = 0;
  if (o.kind == OpndKind::Pred) {
    v = x.preds[o.slot];
  } else {
    const uint64_t* r = x.reg(o);
    forLanes(x.mask, [&](unsigned l) { v |= r[l] != 0 ? 1u << l : 0u; });
  }
  return o.negated ? ~v : v;
}

// Writes a predicate destination: only the executing lanes' bits change; `_` writes nothing.
inline void predWrite(Exec& x, const Opnd& d, LaneMask v) {
  if (d.kind != OpndKind::Pred) return;
  uint32_t& p = x.pred(d);
  p = (p & ~x.mask) | (v & x.mask);
}

inline bool isPredSource(const Opnd& o) {
  return o.kind == OpndKind::Pred || o.kind == OpndKind::Reg;
}

// ---- bind-time checks: "" when fine, else the message lowering reports ------------------------
std::string expectOperands(const Inst& in, size_t n);
// Operand i must be a register (or an immediate, which lives in a register slot).
std::string expectRegs(const Inst& in, std::initializer_list<size_t> indices);
// "'add.s32' <what>"
std::string msg(const Inst& in, const std::string& what);
// Exactly `types` type words, and every other word among `allowed`.
std::string checkWords(const Inst& in, std::initializer_list<std::string_view> allowed,
                       size_t types = 1);
// `operands` register operands, and a handler for the type (nullptr: unsupported type).
std::string bindRegs(Inst& in, Handler h, size_t operands);

}  // namespace warpsim::isa::insns
