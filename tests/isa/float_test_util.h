// Shared by the floating-point instruction tests (float_arith, float_sfu, half_arith, convert):
// run one instruction on lane 0 (or on all 32 lanes) of the exec harness, bit views, and
// RapidCheck generators that weight the special values of each format.
#pragma once

#include <rapidcheck.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/fp.h"
#include "isa/insn_table.h"
#include "tests/support/exec_harness.h"

namespace warpsim::test {

inline isa::Opnd R(uint32_t r) { return ExecHarness::reg(r); }

// Binds `op` with destination r1 and sources r2, r3, ... and runs it on lane 0 with the given
// source values; returns the destination slot.
inline uint64_t exec(const std::string& op, std::vector<uint64_t> srcs) {
  std::vector<isa::Opnd> ops = {R(1)};
  for (size_t i = 0; i < srcs.size(); ++i) ops.push_back(R(uint32_t(2 + i)));
  ExecHarness h(op, ops);
  for (size_t i = 0; i < srcs.size(); ++i) h.set(uint32_t(2 + i), 0, srcs[i]);
  h.set(1, 0, 0xDEADBEEFDEADBEEFull);  // the write must replace every bit of the slot
  h.run(1);
  return h.get(1, 0);
}
inline uint64_t exec1(const std::string& op, uint64_t a) { return exec(op, {a}); }
inline uint64_t exec2(const std::string& op, uint64_t a, uint64_t b) { return exec(op, {a, b}); }
inline uint64_t exec3(const std::string& op, uint64_t a, uint64_t b, uint64_t c) {
  return exec(op, {a, b, c});
}

// "" when `op` binds with `n` register operands, else the binder's message.
inline std::string bindMessage(const std::string& op, size_t n) {
  std::vector<isa::Opnd> ops;
  for (size_t i = 0; i < n; ++i) ops.push_back(R(uint32_t(1 + i)));
  ExecHarness h("mov.b32", {R(1), R(2)});
  return h.tryBind(op, ops);
}
inline bool binds(const std::string& op, size_t n) { return bindMessage(op, n).empty(); }

inline uint32_t fb(float f) { return fp::bits(f); }
inline uint64_t db(double d) { return fp::bits(d); }
inline float bf(uint32_t b) { return fp::f32(b); }
inline double bd(uint64_t b) { return fp::f64(b); }

// ---- generators ----------------------------------------------------------------------------
inline rc::Gen<uint32_t> genF32() {
  static const std::vector<uint32_t> specials = {
      0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
      0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF,
      0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F000000, 0x40000000, 0x4B800000, 0x33800000};
  return rc::gen::weightedOneOf<uint32_t>({
      {2, rc::gen::elementOf(specials)},
      {3, rc::gen::arbitrary<uint32_t>()},
      // moderate magnitudes, where sums and products stay finite and round interestingly
      {3, rc::gen::map(rc::gen::arbitrary<uint32_t>(),
                       [](uint32_t u) -> uint32_t {
                         return (u & 0x807FFFFFu) | ((0x70u + (u >> 24) % 32) << 23);
                       })},
  });
}
inline rc::Gen<uint64_t> genF64() {
  static const std::vector<uint64_t> specials = {0x0ull,
                                                 0x8000000000000000ull,
                                                 0x7FF0000000000000ull,
                                                 0xFFF0000000000000ull,
                                                 0x7FF8000000000000ull,
                                                 0xFFF8000000000123ull,
                                                 0x7FF0000000000001ull,
                                                 0x1ull,
                                                 0x8000000000000001ull,
                                                 0x000FFFFFFFFFFFFFull,
                                                 0x0010000000000000ull,
                                                 0x7FEFFFFFFFFFFFFFull,
                                                 0x3FF0000000000000ull,
                                                 0xBFF0000000000000ull,
                                                 0x3FE0000000000000ull};
  return rc::gen::weightedOneOf<uint64_t>({
      {2, rc::gen::elementOf(specials)},
      {3, rc::gen::arbitrary<uint64_t>()},
      {3, rc::gen::map(rc::gen::arbitrary<uint64_t>(),
                       [](uint64_t u) -> uint64_t {
                         return (u & 0x800FFFFFFFFFFFFFull) | ((0x3C0ull + (u >> 52) % 128) << 52);
                       })},
  });
}
// 16-bit encodings: every pattern is equally interesting, but weight the specials of both
// f16 and bf16.
inline rc::Gen<uint16_t> genH16() {
  static const std::vector<uint16_t> specials = {
      0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF,
      0x3C00, 0xBC00, 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x007F, 0x0080, 0x7F7F, 0x3F80, 0x7FFF};
  return rc::gen::weightedOneOf<uint16_t>({
      {1, rc::gen::elementOf(specials)},
      {3, rc::gen::arbitrary<uint16_t>()},
  });
}

// ---- an independent reference for directed rounding ------------------------------------------
// Given `rn`, the round-to-nearest f32 result of an exact value v, and cmp(x) = the sign of
// x - v for a float x (exactly), the result of rounding v in `mode`.
template <class T, class Cmp>
T roundDirected(T rn, fp::Round mode, Cmp cmp) {
  if (std::isnan(rn) || mode == fp::Round::RN) return rn;
  const int c = cmp(rn);
  if (c == 0) return rn;
  switch (mode) {
    case fp::Round::RZ:  // |rn| > |v|: one step toward zero
      return (c > 0 && rn > 0) || (c < 0 && rn < 0) ? std::nextafter(rn, T(0)) : rn;
    case fp::Round::RM:
      return c > 0 ? std::nextafter(rn, -T(INFINITY)) : rn;
    case fp::Round::RP:
      return c < 0 ? std::nextafter(rn, T(INFINITY)) : rn;
    default:
      return rn;
  }
}

// .ftz on the H200 flushes a result that is tiny after rounding (IEEE 754-2019 7.5): rounded
// to 24 bits as though the exponent were unbounded, its magnitude is below 2^-126 (see
// isa/fp_round.cpp). cmpMag(t) = the sign of |v| - t for the exact result v, which is negative
// iff v is tiny in mode r.
template <class CmpMag>
bool tinyAfterRoundingF32(bool negative, fp::Round r, CmpMag cmpMag) {
  const double minNormal = std::ldexp(1.0, -126);
  const bool upMag = (r == fp::Round::RP && !negative) || (r == fp::Round::RM && negative);
  if (r == fp::Round::RN) return cmpMag(minNormal - std::ldexp(1.0, -151)) < 0;  // tie: up
  if (upMag) return cmpMag(minNormal - std::ldexp(1.0, -150)) <= 0;
  return cmpMag(minNormal) < 0;
}

template <class T>
int sgn(T d) {
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

constexpr fp::Round kModes[] = {fp::Round::RN, fp::Round::RZ, fp::Round::RM, fp::Round::RP};
inline const char* modeName(fp::Round r) {
  switch (r) {
    case fp::Round::RN:
      return "rn";
    case fp::Round::RZ:
      return "rz";
    case fp::Round::RM:
      return "rm";
    case fp::Round::RP:
      return "rp";
    case fp::Round::RNA:
      return "rna";
  }
  return "";
}

// For every spec of `family`: each primary type with no modifier, each single modifier word
// and each pair of them, with 1 to 5 register operands (and a predicate destination): binding
// either succeeds -- and then the handler runs on arbitrary registers without crashing -- or
// returns a non-empty message. Returns how many forms bound.
inline size_t sweepFamily(std::string_view family) {
  size_t bound = 0;
  for (const isa::OpcodeSpec& s : isa::instructionTable()) {
    if (s.family != family) continue;
    std::vector<std::string> mods = {""};
    for (std::string_view m : s.mods) mods.push_back("." + std::string(m));
    for (isa::Type t : s.types) {
      const std::string type = std::string(".") + isa::typeName(t);
      for (size_t i = 0; i < mods.size(); ++i)
        for (size_t j = i; j < mods.size(); ++j) {
          if (i == j && i != 0) continue;
          const std::string op = std::string(s.opcode) + mods[i] + mods[j] + type;
          for (size_t n = 1; n <= 5; ++n)
            for (bool pred : {false, true}) {
              std::vector<isa::Opnd> ops;
              ops.push_back(pred ? ExecHarness::pred(1) : R(1));
              for (size_t k = 1; k < n; ++k) ops.push_back(R(uint32_t(1 + k)));
              ExecHarness h("mov.b32", {R(1), R(2)});
              for (uint32_t r = 1; r < 8; ++r)
                for (unsigned l = 0; l < 32; ++l)
                  h.set(r, l, (uint64_t(r) * 0x9E3779B97F4A7C15ull) ^ (l * 0x1234567ull));
              const std::string msg = h.tryBind(op, ops);
              if (msg.empty()) {
                h.run();
                ++bound;
              }
            }
        }
    }
  }
  return bound;
}

}  // namespace warpsim::test
