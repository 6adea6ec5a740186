// Tests of the int_arith family (isa/insns/int_arith.cpp): add sub (.sat, .cc), addc subc,
// mul (.lo .hi .wide), mad (.lo .hi .wide, .hi.sat, .cc), madc, mul24 mad24 (.lo .hi), sad,
// div rem, abs neg, min max (.relu), for 16-, 32- and 64-bit types.
//
// Hand-worked edge cases (wrap-around, saturation, MIN / -1, division by zero, abs/neg of MIN),
// carry chains building 64-, 96- and 128-bit additions and subtractions, chains mixing add.cc
// with subc as the H200 runs them, a replay of results recorded on the H200, RapidCheck
// properties against __int128 references, and the binding rules.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "isa/insn_table.h"
#include "tests/support/exec_harness.h"
#include "tests/support/recorded_insn.h"

namespace warpsim::test {
namespace {

using H = ExecHarness;
using u128 = unsigned __int128;

// Runs `op` on lane 0: destination r1, register sources r2, r3, ... = srcs.
uint64_t eval(const std::string& op, std::vector<uint64_t> srcs) {
  std::vector<isa::Opnd> ops{H::reg(1)};
  for (size_t i = 0; i < srcs.size(); ++i) ops.push_back(H::reg(uint32_t(2 + i)));
  H h(op, ops);
  for (size_t i = 0; i < srcs.size(); ++i) h.set(uint32_t(2 + i), 0, srcs[i]);
  h.run(1);
  return h.get(1, 0);
}

// A chain of instructions on one register file (the carry flag, slot 0, carries over):
// each step is an opcode and its operand registers (destination first).
struct Step {
  const char* op;
  std::vector<uint32_t> regs;
};
void chain(H& h, const std::vector<Step>& steps, uint32_t mask = 1) {
  for (const Step& s : steps) {
    std::vector<isa::Opnd> ops;
    for (uint32_t r : s.regs) ops.push_back(H::reg(r));
    h.bind(s.op, ops);
    h.run(mask);
  }
}

constexpr uint32_t kMin32 = 0x80000000, kMax32 = 0x7FFFFFFF;
constexpr uint64_t kMin64 = 1ull << 63;

// ---- add / sub -------------------------------------------------------------------------------

TEST(IntArith, AddSubWrapAtEveryWidth) {
  EXPECT_EQ(eval("add.s32", {kMax32, 1}), kMin32);
  EXPECT_EQ(eval("add.u16", {0xFFFF, 1}), 0u);  // zero-extended in the slot
  EXPECT_EQ(eval("add.s16", {0x7FFF, 1}), 0x8000u);
  EXPECT_EQ(eval("add.u64", {~0ull, 2}), 1u);
  EXPECT_EQ(eval("sub.u32", {0, 1}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("sub.s64", {kMin64, 1}), kMin64 - 1);
  EXPECT_EQ(eval("sub.s16", {0, 1}), 0xFFFFu);
  EXPECT_EQ(eval("add.u32", {0xFFFFFFFF00000001ull, 1}), 2u);  // sources read at 32 bits
}

TEST(IntArith, SaturatingAddSub) {
  EXPECT_EQ(eval("add.sat.s32", {kMax32, 1}), kMax32);
  EXPECT_EQ(eval("add.sat.s32", {kMin32, 0xFFFFFFFF}), kMin32);
  EXPECT_EQ(eval("add.sat.s32", {kMax32, kMin32}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("sub.sat.s32", {kMin32, 1}), kMin32);
  EXPECT_EQ(eval("sub.sat.s32", {kMax32, 0xFFFFFFFF}), kMax32);
  EXPECT_EQ(eval("sub.sat.s32", {0, kMin32}), kMax32);
  EXPECT_EQ(eval("sub.sat.s32", {5, 7}), 0xFFFFFFFEu);
}

TEST(IntArith, CarryChainsBuildWideAdds) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  // 64-bit add from 32-bit halves: 0x00000001_FFFFFFFF + 0x00000000_00000001.
  h.set(10, 0, 0xFFFFFFFF), h.set(11, 0, 1), h.set(12, 0, 1), h.set(13, 0, 0);
  chain(h, {{"add.cc.u32", {1, 10, 12}}, {"addc.u32", {2, 11, 13}}});
  EXPECT_EQ(h.get(1, 0), 0u);
  EXPECT_EQ(h.get(2, 0), 2u);
  // 96 bits: add.cc, addc.cc, addc; all-ones + 1 ripples through.
  h.set(10, 0, ~0u), h.set(11, 0, ~0u), h.set(12, 0, 7), h.set(13, 0, 1), h.set(14, 0, 0);
  chain(h, {{"add.cc.u32", {1, 10, 13}}, {"addc.cc.u32", {2, 11, 14}}, {"addc.u32", {3, 12, 14}}});
  EXPECT_EQ(h.get(1, 0), 0u);
  EXPECT_EQ(h.get(2, 0), 0u);
  EXPECT_EQ(h.get(3, 0), 8u);
  // 128 bits from 64-bit halves.
  h.set(10, 0, ~0ull), h.set(11, 0, 5), h.set(12, 0, 1), h.set(13, 0, ~0ull);
  chain(h, {{"add.cc.u64", {1, 10, 12}}, {"addc.u64", {2, 11, 13}}});
  EXPECT_EQ(h.get(1, 0), 0u);
  EXPECT_EQ(h.get(2, 0), 5u);  // 5 + ~0 + 1
  // addc without .cc leaves the flag alone.
  h.set(10, 0, ~0u), h.set(11, 0, 1);
  chain(h, {{"add.cc.u32", {1, 10, 11}}, {"addc.u32", {2, 20, 20}}, {"addc.u32", {3, 20, 20}}});
  EXPECT_EQ(h.get(2, 0), 1u);
  EXPECT_EQ(h.get(3, 0), 1u);
}

TEST(IntArith, BorrowChainsBuildWideSubtractions) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  // 0x00000001_00000000 - 1 = 0x00000000_FFFFFFFF.
  h.set(10, 0, 0), h.set(11, 0, 1), h.set(12, 0, 1), h.set(13, 0, 0);
  chain(h, {{"sub.cc.u32", {1, 10, 12}}, {"subc.u32", {2, 11, 13}}});
  EXPECT_EQ(h.get(1, 0), 0xFFFFFFFFu);
  EXPECT_EQ(h.get(2, 0), 0u);
  // 128-bit: 0 - 1 = all ones.
  h.set(10, 0, 0), h.set(11, 0, 0), h.set(12, 0, 1), h.set(13, 0, 0);
  chain(h, {{"sub.cc.u64", {1, 10, 12}}, {"subc.cc.u64", {2, 11, 13}}});
  EXPECT_EQ(h.get(1, 0), ~0ull);
  EXPECT_EQ(h.get(2, 0), ~0ull);
  // H200: 0 - 1 then (0x7FFFFFFFFFFFFFFF - 0x8000000000000000 - borrow).
  h.set(10, 0, 0), h.set(11, 0, 0x7FFFFFFFFFFFFFFFull), h.set(12, 0, 1),
      h.set(13, 0, 0x8000000000000000ull);
  chain(h, {{"sub.cc.u64", {1, 10, 12}}, {"subc.u64", {2, 11, 13}}});
  EXPECT_EQ(h.get(2, 0), 0xFFFFFFFFFFFFFFFEull);
}

// The carry flag holds a carry, never a borrow: sub.cc leaves NOT borrow in it and subc
// computes a + ~b + CF (the hardware's IADD3.X). Mixed chains therefore differ from a literal
// reading of the manual's "a - (b + CC.CF)"; the values below are the H200's.
TEST(IntArith, MixedCarryChainsAsTheH200RunsThem) {
  struct Case {
    const char* first;
    const char* second;
    uint64_t a, b, c, d, want;
  };
  const Case cases[] = {
      {"add.cc.u32", "subc.u32", 0, 1, 0, 0x7FFFFFFF, 0x80000000},                    // CF = 0
      {"add.cc.u32", "subc.u32", 0xFFFFFFFF, 1, 0x80000000, 0xFFFFFFFF, 0x80000001},  // CF = 1
      {"sub.cc.u32", "addc.u32", 0, 1, 0, 0x7FFFFFFF, 0x7FFFFFFF},                    // borrow
      {"sub.cc.u32", "addc.u32", 1, 0, 0, 0x7FFFFFFF, 0x80000000},                    // none
      {"sub.cc.u32", "addc.u32", 5, 5, 1, 0x80000000, 0x80000002},
      {"sub.cc.u32", "subc.u32", 0, 1, 1, 0x7FFFFFFF, 0x80000001},
      {"sub.cc.u32", "subc.u32", 1, 0, 1, 0x7FFFFFFF, 0x80000002},
      {"add.cc.u64", "subc.u64", ~0ull, 1, 0, 0x8000000000000000ull, 0x8000000000000000ull},
  };
  for (const Case& c : cases) {
    H h("mov.b32", {H::reg(1), H::reg(2)});
    h.set(10, 0, c.a), h.set(11, 0, c.b), h.set(12, 0, c.c), h.set(13, 0, c.d);
    chain(h, {{c.first, {20, 10, 11}}, {c.second, {1, 12, 13}}});
    EXPECT_EQ(h.get(1, 0), c.want) << c.first << " " << c.second << " " << std::hex << c.a;
  }
  // mad.lo.cc carries out of the low product plus c (H200: 0xFFFFFFFF * 1 + 7 carries).
  H h("mov.b32", {H::reg(1), H::reg(2)});
  h.set(10, 0, 0xFFFFFFFF), h.set(11, 0, 1), h.set(12, 0, 7), h.set(13, 0, 0),
      h.set(14, 0, 0x7FFFFFFF);
  h.bind("mad.lo.cc.u32", {H::reg(20), H::reg(10), H::reg(11), H::reg(12)});
  h.run(1);
  chain(h, {{"addc.u32", {1, 13, 14}}});
  EXPECT_EQ(h.get(1, 0), 0x80000000u);
}

TEST(IntArith, CarryFlagIsPerLane) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  for (unsigned l = 0; l < 32; ++l) h.set(10, l, (l & 1) ? ~0u : 0), h.set(11, l, 1);
  h.setAll(12, 0);
  chain(h, {{"add.cc.u32", {1, 10, 11}}, {"addc.u32", {2, 12, 12}}}, ~0u);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(2, l), l & 1) << l;
  // Lanes outside the mask keep their carry.
  h.setAll(10, 0);
  chain(h, {{"add.cc.u32", {1, 10, 11}}}, 0x0000FFFF);
  chain(h, {{"addc.u32", {2, 12, 12}}}, ~0u);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(h.get(2, l), l >= 16 ? (l & 1) : 0u) << l;
}

// ---- mul / mad ---------------------------------------------------------------------------------

TEST(IntArith, MulLoHiWide) {
  EXPECT_EQ(eval("mul.lo.s32", {0x10000, 0x10000}), 0u);
  EXPECT_EQ(eval("mul.lo.u16", {0x100, 0x100}), 0u);
  EXPECT_EQ(eval("mul.lo.s64", {kMin64, 3}), kMin64);
  EXPECT_EQ(eval("mul.hi.s32", {0xFFFFFFFF, 0xFFFFFFFF}), 0u);  // (-1)(-1) = 1
  EXPECT_EQ(eval("mul.hi.u32", {0xFFFFFFFF, 0xFFFFFFFF}), 0xFFFFFFFEu);
  EXPECT_EQ(eval("mul.hi.s32", {kMin32, 2}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("mul.hi.s16", {0x8000, 0x8000}), 0x4000u);
  EXPECT_EQ(eval("mul.hi.u16", {0xFFFF, 0xFFFF}), 0xFFFEu);
  EXPECT_EQ(eval("mul.hi.u64", {~0ull, ~0ull}), ~1ull);
  EXPECT_EQ(eval("mul.hi.s64", {kMin64, kMin64}), 1ull << 62);
  EXPECT_EQ(eval("mul.hi.s64", {~0ull, 5}), ~0ull);  // -5: high word all ones
  EXPECT_EQ(eval("mul.wide.s16", {0xFFFF, 0x7FFF}), 0xFFFF8001u);
  EXPECT_EQ(eval("mul.wide.u16", {0xFFFF, 0xFFFF}), 0xFFFE0001u);
  EXPECT_EQ(eval("mul.wide.s32", {kMin32, kMin32}), 1ull << 62);
  EXPECT_EQ(eval("mul.wide.s32", {0xFFFFFFFF, 7}), uint64_t(-7));
  EXPECT_EQ(eval("mul.wide.u32", {0xFFFFFFFF, 0xFFFFFFFF}), 0xFFFFFFFE00000001ull);
}

TEST(IntArith, MadForms) {
  EXPECT_EQ(eval("mad.lo.s32", {kMax32, 2, 3}), 1u);
  EXPECT_EQ(eval("mad.hi.u32", {0xFFFFFFFF, 0xFFFFFFFF, 2}), 0u);  // 0xFFFFFFFE + 2 wraps
  EXPECT_EQ(eval("mad.hi.s64", {kMin64, kMin64, 1}), (1ull << 62) + 1);
  EXPECT_EQ(eval("mad.wide.u32", {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}), 0xFFFFFFFF00000000ull);
  EXPECT_EQ(eval("mad.wide.u32", {0xFFFFFFFF, 0xFFFFFFFF, 0x1FFFFFFFFull}), 0u);  // wraps
  EXPECT_EQ(eval("mad.wide.s16", {0x8000, 0x8000, 0xFFFFFFFF}), 0x3FFFFFFFu);
  EXPECT_EQ(eval("mad.wide.u16", {0xFFFF, 0xFFFF, 0x1FFFF}), 0u);  // wraps at 32 bits
  // mad.hi.sat.s32: the high word plus c, saturated (H200 values).
  EXPECT_EQ(eval("mad.hi.sat.s32", {kMax32, kMax32, kMax32}), kMax32);
  EXPECT_EQ(eval("mad.hi.sat.s32", {kMax32, kMax32, 1}), 0x40000000u);
  EXPECT_EQ(eval("mad.hi.sat.s32", {kMin32, kMax32, kMin32}), kMin32);
  EXPECT_EQ(eval("mad.hi.sat.s32", {kMin32, kMin32, kMin32}), 0xC0000000u);
  EXPECT_EQ(eval("mad.hi.sat.s32", {kMin32, kMax32, 0xFFFFFFFF}), 0xBFFFFFFFu);
}

TEST(IntArith, MadCarryForms) {
  // A 64x32 -> 96-bit product accumulation: {hi, lo} = a * b + {c1, c0} with mad.lo.cc / madc.hi.
  H h("mov.b32", {H::reg(1), H::reg(2)});
  h.set(10, 0, 0xFFFFFFFF), h.set(11, 0, 0xFFFFFFFF), h.set(12, 0, 0xFFFFFFFF),
      h.set(13, 0, 0xFFFFFFFF);
  chain(h, {{"mad.lo.cc.u32", {1, 10, 11, 12}}, {"madc.hi.u32", {2, 10, 11, 13}}});
  // {hi, lo} = a * b + {c1, c0} modulo 2^64.
  const u128 want = u128(0xFFFFFFFFull) * 0xFFFFFFFFull + 0xFFFFFFFFFFFFFFFFull;
  EXPECT_EQ(h.get(1, 0), uint64_t(want) & 0xFFFFFFFF);
  EXPECT_EQ(h.get(2, 0), uint64_t(want >> 32) & 0xFFFFFFFF);
  // madc.lo.cc sets the flag too; mad.hi.cc on 64-bit operands.
  h.set(10, 0, ~0ull), h.set(11, 0, ~0ull), h.set(12, 0, 2), h.set(13, 0, 0);
  chain(h, {{"mad.hi.cc.u64", {1, 10, 11, 12}},
            {"madc.lo.cc.u64", {2, 13, 13, 13}},
            {"addc.u64", {3, 13, 13}}});
  EXPECT_EQ(h.get(1, 0), 0u);  // 0xFFFFFFFFFFFFFFFE + 2 carries out
  EXPECT_EQ(h.get(2, 0), 1u);
  EXPECT_EQ(h.get(3, 0), 0u);
  // Signed madc.hi: the signed high word.
  h.set(10, 0, 0xFFFFFFFF), h.set(11, 0, 2), h.set(12, 0, 0);
  chain(h, {{"add.cc.u32", {20, 12, 12}}, {"madc.hi.s32", {1, 10, 11, 12}}});
  EXPECT_EQ(h.get(1, 0), 0xFFFFFFFFu);
}

TEST(IntArith, Mul24AndMad24) {
  EXPECT_EQ(eval("mul24.lo.u32", {0x00FFFFFF, 0x00FFFFFF}), 0xFE000001u);
  EXPECT_EQ(eval("mul24.hi.u32", {0x00FFFFFF, 0x00FFFFFF}), 0xFFFFFE00u);
  EXPECT_EQ(eval("mul24.lo.u32", {0xFF000002, 3}), 6u);           // the high byte is ignored
  EXPECT_EQ(eval("mul24.lo.s32", {0x00800000, 2}), 0xFF000000u);  // -2^23 * 2
  EXPECT_EQ(eval("mul24.hi.s32", {0x00800000, 2}), 0xFFFFFF00u);
  EXPECT_EQ(eval("mul24.lo.s32", {0x00FFFFFF, 0x00FFFFFF}), 1u);  // (-1)(-1)
  EXPECT_EQ(eval("mad24.lo.u32", {0x00FFFFFF, 0x00FFFFFF, 0xFFFFFFFF}), 0xFE000000u);
  EXPECT_EQ(eval("mad24.hi.u32", {0x00FFFFFF, 0x00FFFFFF, 0x200}), 0u);
  EXPECT_EQ(eval("mad24.hi.s32", {0, 1, 0xFFFFFFFF}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("mad24.lo.s32", {0x00800000, 2, 0x01000000}), 0u);
}

// ---- sad div rem abs neg min max --------------------------------------------------------------

TEST(IntArith, Sad) {
  EXPECT_EQ(eval("sad.s32", {0xFFFFFFFF, 1, 10}), 12u);
  EXPECT_EQ(eval("sad.u32", {0xFFFFFFFF, 1, 0}), 0xFFFFFFFEu);
  EXPECT_EQ(eval("sad.s16", {0x8000, 0x7FFF, 0}), 0xFFFFu);
  EXPECT_EQ(eval("sad.u64", {1, ~0ull, 1}), ~0ull);
  EXPECT_EQ(eval("sad.s64", {kMin64, kMin64 - 1, 5}), 4u);  // |MIN - MAX| = 2^64 - 1 wraps
}

TEST(IntArith, DivRemTruncateAndEdgeCases) {
  EXPECT_EQ(eval("div.s32", {uint32_t(-7), 2}), uint32_t(-3));
  EXPECT_EQ(eval("rem.s32", {uint32_t(-7), 2}), uint32_t(-1));
  EXPECT_EQ(eval("rem.s32", {7, uint32_t(-2)}), 1u);
  EXPECT_EQ(eval("div.u32", {0xFFFFFFFF, 2}), 0x7FFFFFFFu);
  EXPECT_EQ(eval("div.s16", {0x8000, 0xFFFF}), 0x8000u);  // MIN / -1 wraps to MIN
  EXPECT_EQ(eval("rem.s16", {0x8000, 0xFFFF}), 0u);
  EXPECT_EQ(eval("div.s32", {kMin32, 0xFFFFFFFF}), kMin32);
  EXPECT_EQ(eval("rem.s32", {kMin32, 0xFFFFFFFF}), 0u);
  EXPECT_EQ(eval("div.s64", {kMin64, ~0ull}), kMin64);
  EXPECT_EQ(eval("rem.s64", {kMin64, ~0ull}), 0u);
  EXPECT_EQ(eval("div.u64", {~0ull, 0x100000000ull}), 0xFFFFFFFFu);
  // Division by zero (undefined in PTX): all ones for every quotient and remainder on the H200.
  for (const char* t : {"u16", "s16", "u32", "s32", "u64", "s64"}) {
    const std::string ts = t;
    const uint64_t ones = ts.find("16") != std::string::npos   ? 0xFFFF
                          : ts.find("32") != std::string::npos ? 0xFFFFFFFF
                                                               : ~0ull;
    for (uint64_t a : {uint64_t(0), uint64_t(1), uint64_t(0x8000), uint64_t(0x80000000), kMin64,
                       ~uint64_t(0), uint64_t(12345)}) {
      EXPECT_EQ(eval("div." + ts, {a & ones, 0}), ones) << ts << " " << a;
      EXPECT_EQ(eval("rem." + ts, {a & ones, 0}), ones) << ts << " " << a;
    }
  }
}

TEST(IntArith, AbsNegMinMax) {
  EXPECT_EQ(eval("abs.s32", {kMin32}), kMin32);  // abs(MIN) = MIN
  EXPECT_EQ(eval("abs.s16", {0x8000}), 0x8000u);
  EXPECT_EQ(eval("abs.s64", {kMin64}), kMin64);
  EXPECT_EQ(eval("abs.s32", {uint32_t(-5)}), 5u);
  EXPECT_EQ(eval("neg.s32", {kMin32}), kMin32);
  EXPECT_EQ(eval("neg.s16", {1}), 0xFFFFu);
  EXPECT_EQ(eval("neg.s64", {kMin64}), kMin64);
  EXPECT_EQ(eval("min.s32", {uint32_t(-1), 1}), uint32_t(-1));
  EXPECT_EQ(eval("min.u32", {uint32_t(-1), 1}), 1u);
  EXPECT_EQ(eval("max.s16", {0x8000, 0x7FFF}), 0x7FFFu);
  EXPECT_EQ(eval("max.u16", {0x8000, 0x7FFF}), 0x8000u);
  EXPECT_EQ(eval("max.s64", {kMin64, 0}), 0u);
  EXPECT_EQ(eval("min.u64", {kMin64, 0}), 0u);
  EXPECT_EQ(eval("min.relu.s32", {uint32_t(-5), uint32_t(-3)}), 0u);
  EXPECT_EQ(eval("min.relu.s32", {5, 3}), 3u);
  EXPECT_EQ(eval("max.relu.s32", {uint32_t(-5), uint32_t(-3)}), 0u);
  EXPECT_EQ(eval("max.relu.s32", {uint32_t(-5), 3}), 3u);
}

// ---- replay of results recorded on the H200 ---------------------------------------------------

const Recorded kRecorded[] = {
    {"div.u16", "d16 a16 a16", {0x2, 0x7fff, 0x0, 0x0}, 0x0},
    {"div.u16", "d16 a16 a16", {0x8e7a, 0x7f, 0x0, 0x0}, 0x11f},
    {"div.u16", "d16 a16 a16", {0x7fff, 0x1e8f, 0x0, 0x0}, 0x4},
    {"rem.u16", "d16 a16 a16", {0xff, 0x7f, 0x0, 0x0}, 0x1},
    {"rem.u16", "d16 a16 a16", {0x2, 0x1234, 0x0, 0x0}, 0x2},
    {"rem.u16", "d16 a16 a16", {0x2650, 0x0, 0x0, 0x0}, 0xffff},
    {"mul.hi.u16", "d16 a16 a16", {0x8000, 0x1234, 0x0, 0x0}, 0x91a},
    {"mul.hi.u16", "d16 a16 a16", {0x7fff, 0xff, 0x0, 0x0}, 0x7f},
    {"mul.hi.u16", "d16 a16 a16", {0x2, 0x2, 0x0, 0x0}, 0x0},
    {"mul.lo.u16", "d16 a16 a16", {0x8001, 0x147d, 0x0, 0x0}, 0x947d},
    {"mul.lo.u16", "d16 a16 a16", {0x80, 0x2, 0x0, 0x0}, 0x100},
    {"mul.lo.u16", "d16 a16 a16", {0x2650, 0xffff, 0x0, 0x0}, 0xd9b0},
    {"mad.hi.u16", "d16 a16 a16 a16", {0x2, 0x2, 0x2, 0x0}, 0x2},
    {"mad.hi.u16", "d16 a16 a16 a16", {0x0, 0x7f, 0x0, 0x0}, 0x0},
    {"mad.hi.u16", "d16 a16 a16 a16", {0xff, 0x8001, 0x1, 0x0}, 0x80},
    {"sad.u16", "d16 a16 a16 a16", {0x0, 0x2, 0x1, 0x0}, 0x3},
    {"sad.u16", "d16 a16 a16 a16", {0xfffe, 0x7fff, 0x0, 0x0}, 0x7fff},
    {"sad.u16", "d16 a16 a16 a16", {0xff, 0xff, 0x2, 0x0}, 0x2},
    {"min.u16", "d16 a16 a16", {0xffff, 0xfffe, 0x0, 0x0}, 0xfffe},
    {"min.u16", "d16 a16 a16", {0x8e7a, 0xfffe, 0x0, 0x0}, 0x8e7a},
    {"min.u16", "d16 a16 a16", {0x8e7a, 0x1234, 0x0, 0x0}, 0x1234},
    {"max.u16", "d16 a16 a16", {0x2650, 0x8e7a, 0x0, 0x0}, 0x8e7a},
    {"max.u16", "d16 a16 a16", {0x1234, 0x2, 0x0, 0x0}, 0x1234},
    {"max.u16", "d16 a16 a16", {0xfffe, 0xff, 0x0, 0x0}, 0xfffe},
    {"mul.wide.u16", "d32 a16 a16", {0x7fff, 0x8001, 0x0, 0x0}, 0x3fffffff},
    {"mul.wide.u16", "d32 a16 a16", {0xff, 0x147d, 0x0, 0x0}, 0x146883},
    {"mul.wide.u16", "d32 a16 a16", {0x8001, 0x8000, 0x0, 0x0}, 0x40008000},
    {"mad.wide.u16", "d32 a16 a16 a32", {0x80, 0x0, 0x0, 0x0}, 0x0},
    {"mad.wide.u16", "d32 a16 a16 a32", {0x7f, 0x8001, 0x0, 0x0}, 0x3f807f},
    {"mad.wide.u16", "d32 a16 a16 a32", {0xfffe, 0x7fff, 0xffffffff, 0x0}, 0x7ffe0001},
    {"div.s16", "d16 a16 a16", {0x2, 0x1e8f, 0x0, 0x0}, 0x0},
    {"div.s16", "d16 a16 a16", {0x7fff, 0x8001, 0x0, 0x0}, 0xffff},
    {"div.s16", "d16 a16 a16", {0x1234, 0x1, 0x0, 0x0}, 0x1234},
    {"rem.s16", "d16 a16 a16", {0x7f, 0x2650, 0x0, 0x0}, 0x7f},
    {"rem.s16", "d16 a16 a16", {0xffff, 0x1234, 0x0, 0x0}, 0xffff},
    {"rem.s16", "d16 a16 a16", {0xabcd, 0x2650, 0x0, 0x0}, 0xf86d},
    {"mul.hi.s16", "d16 a16 a16", {0xabcd, 0x80, 0x0, 0x0}, 0xffd5},
    {"mul.hi.s16", "d16 a16 a16", {0xabcd, 0x1e8f, 0x0, 0x0}, 0xf5f2},
    {"mul.hi.s16", "d16 a16 a16", {0x7f, 0xffff, 0x0, 0x0}, 0xffff},
    {"mul.lo.s16", "d16 a16 a16", {0x2650, 0x8000, 0x0, 0x0}, 0x0},
    {"mul.lo.s16", "d16 a16 a16", {0x80, 0x7fff, 0x0, 0x0}, 0xff80},
    {"mul.lo.s16", "d16 a16 a16", {0x1e8f, 0x147d, 0x0, 0x0}, 0x17d3},
    {"mad.hi.s16", "d16 a16 a16 a16", {0x1, 0x2, 0x0, 0x0}, 0x0},
    {"mad.hi.s16", "d16 a16 a16 a16", {0x8000, 0x2, 0x7f, 0x0}, 0x7e},
    {"mad.hi.s16", "d16 a16 a16 a16", {0x0, 0x0, 0x1, 0x0}, 0x1},
    {"sad.s16", "d16 a16 a16 a16", {0x7f, 0xfffe, 0x1, 0x0}, 0x82},
    {"sad.s16", "d16 a16 a16 a16", {0x0, 0x8000, 0x1, 0x0}, 0x8001},
    {"sad.s16", "d16 a16 a16 a16", {0xff, 0xff, 0x1, 0x0}, 0x1},
    {"min.s16", "d16 a16 a16", {0xff, 0xabcd, 0x0, 0x0}, 0xabcd},
    {"min.s16", "d16 a16 a16", {0x80, 0x8e7a, 0x0, 0x0}, 0x8e7a},
    {"min.s16", "d16 a16 a16", {0xff, 0x80, 0x0, 0x0}, 0x80},
    {"max.s16", "d16 a16 a16", {0x0, 0x2, 0x0, 0x0}, 0x2},
    {"max.s16", "d16 a16 a16", {0x80, 0x1, 0x0, 0x0}, 0x80},
    {"max.s16", "d16 a16 a16", {0x7fff, 0x0, 0x0, 0x0}, 0x7fff},
    {"mul.wide.s16", "d32 a16 a16", {0xff, 0x80, 0x0, 0x0}, 0x7f80},
    {"mul.wide.s16", "d32 a16 a16", {0x8000, 0xffff, 0x0, 0x0}, 0x8000},
    {"mul.wide.s16", "d32 a16 a16", {0x1, 0x147d, 0x0, 0x0}, 0x147d},
    {"mad.wide.s16", "d32 a16 a16 a32", {0x7f, 0x2, 0x0, 0x0}, 0xfe},
    {"mad.wide.s16", "d32 a16 a16 a32", {0x7fff, 0x80, 0xffffffff, 0x0}, 0x3fff7f},
    {"mad.wide.s16", "d32 a16 a16 a32", {0x2, 0x7f, 0x1, 0x0}, 0xff},
    {"abs.s16", "d16 a16", {0x8000, 0x0, 0x0, 0x0}, 0x8000},
    {"abs.s16", "d16 a16", {0x8001, 0x0, 0x0, 0x0}, 0x7fff},
    {"abs.s16", "d16 a16", {0x1e8f, 0x0, 0x0, 0x0}, 0x1e8f},
    {"neg.s16", "d16 a16", {0x1234, 0x0, 0x0, 0x0}, 0xedcc},
    {"neg.s16", "d16 a16", {0xffff, 0x0, 0x0, 0x0}, 0x1},
    {"neg.s16", "d16 a16", {0x8e7a, 0x0, 0x0, 0x0}, 0x7186},
    {"div.u32", "d32 a32 a32", {0x80000001, 0xffff, 0x0, 0x0}, 0x8000},
    {"div.u32", "d32 a32 a32", {0x10000, 0x0, 0x0, 0x0}, 0xffffffff},
    {"div.u32", "d32 a32 a32", {0x2, 0x7eb14f84, 0x0, 0x0}, 0x0},
    {"rem.u32", "d32 a32 a32", {0x100, 0x10000, 0x0, 0x0}, 0x100},
    {"rem.u32", "d32 a32 a32", {0xffffffff, 0x7f, 0x0, 0x0}, 0xf},
    {"rem.u32", "d32 a32 a32", {0x80, 0xfffffffe, 0x0, 0x0}, 0x80},
    {"mul.hi.u32", "d32 a32 a32", {0xff, 0x0, 0x0, 0x0}, 0x0},
    {"mul.hi.u32", "d32 a32 a32", {0x7eb14f84, 0xfffffffe, 0x0, 0x0}, 0x7eb14f83},
    {"mul.hi.u32", "d32 a32 a32", {0xf79fcaa0, 0x2, 0x0, 0x0}, 0x1},
    {"mul.lo.u32", "d32 a32 a32", {0xe47b342b, 0x7eb14f84, 0x0, 0x0}, 0x105b2b2c},
    {"mul.lo.u32", "d32 a32 a32", {0xdeadbeef, 0xdeadbeef, 0x0, 0x0}, 0x216da321},
    {"mul.lo.u32", "d32 a32 a32", {0xfffffffe, 0x1, 0x0, 0x0}, 0xfffffffe},
    {"mad.hi.u32", "d32 a32 a32 a32", {0x80, 0x1, 0x1, 0x0}, 0x1},
    {"mad.hi.u32", "d32 a32 a32 a32", {0xffff, 0xffff, 0x3, 0x0}, 0x3},
    {"mad.hi.u32", "d32 a32 a32 a32", {0xff, 0xff, 0x0, 0x0}, 0x0},
    {"sad.u32", "d32 a32 a32 a32", {0x80, 0x3, 0x1, 0x0}, 0x7e},
    {"sad.u32", "d32 a32 a32 a32", {0x1, 0x7f, 0x1, 0x0}, 0x7f},
    {"sad.u32", "d32 a32 a32 a32", {0x3, 0xff, 0x0, 0x0}, 0xfc},
    {"min.u32", "d32 a32 a32", {0x2a3a4667, 0x2, 0x0, 0x0}, 0x2},
    {"min.u32", "d32 a32 a32", {0x100, 0x10000, 0x0, 0x0}, 0x100},
    {"min.u32", "d32 a32 a32", {0xe47b342b, 0x10000, 0x0, 0x0}, 0x10000},
    {"max.u32", "d32 a32 a32", {0xdeadbeef, 0xff, 0x0, 0x0}, 0xdeadbeef},
    {"max.u32", "d32 a32 a32", {0x7f, 0x3, 0x0, 0x0}, 0x7f},
    {"max.u32", "d32 a32 a32", {0xfffffffe, 0x7eb14f84, 0x0, 0x0}, 0xfffffffe},
    {"mul.wide.u32", "d64 a32 a32", {0xf79fcaa0, 0x0, 0x0, 0x0}, 0x0},
    {"mul.wide.u32", "d64 a32 a32", {0xff, 0x10000, 0x0, 0x0}, 0xff0000},
    {"mul.wide.u32", "d64 a32 a32", {0x3, 0x80, 0x0, 0x0}, 0x180},
    {"mad.wide.u32", "d64 a32 a32 a64", {0x3, 0x3, 0xffffffffffffffff, 0x0}, 0x8},
    {"mad.wide.u32", "d64 a32 a32 a64", {0x10000, 0xffff, 0xffffffffffffffff, 0x0}, 0xfffeffff},
    {"mad.wide.u32", "d64 a32 a32 a64", {0x2, 0x3, 0x1, 0x0}, 0x7},
    {"div.s32", "d32 a32 a32", {0xfffffffe, 0x7f, 0x0, 0x0}, 0x0},
    {"div.s32", "d32 a32 a32", {0x7fffffff, 0xf79fcaa0, 0x0, 0x0}, 0xfffffff1},
    {"div.s32", "d32 a32 a32", {0xf79fcaa0, 0x10000, 0x0, 0x0}, 0xfffff7a0},
    {"rem.s32", "d32 a32 a32", {0x80000001, 0x80000001, 0x0, 0x0}, 0x0},
    {"rem.s32", "d32 a32 a32", {0xf79fcaa0, 0x3, 0x0, 0x0}, 0xffffffff},
    {"rem.s32", "d32 a32 a32", {0xdeadbeef, 0x7eb14f84, 0x0, 0x0}, 0xdeadbeef},
    {"mul.hi.s32", "d32 a32 a32", {0x1, 0x2, 0x0, 0x0}, 0x0},
    {"mul.hi.s32", "d32 a32 a32", {0xe47b342b, 0x7fffffff, 0x0, 0x0}, 0xf23d9a15},
    {"mul.hi.s32", "d32 a32 a32", {0xffff, 0x7eb14f84, 0x0, 0x0}, 0x7eb0},
    {"mul.lo.s32", "d32 a32 a32", {0x12345678, 0x2a3a4667, 0x0, 0x0}, 0xe9e39a48},
    {"mul.lo.s32", "d32 a32 a32", {0x80000001, 0x10000, 0x0, 0x0}, 0x10000},
    {"mul.lo.s32", "d32 a32 a32", {0x100, 0x12345678, 0x0, 0x0}, 0x34567800},
    {"mad.hi.s32", "d32 a32 a32 a32", {0x1, 0xffff, 0x1, 0x0}, 0x1},
    {"mad.hi.s32", "d32 a32 a32 a32", {0x100, 0x80, 0x2, 0x0}, 0x2},
    {"mad.hi.s32", "d32 a32 a32 a32", {0x7f, 0xffff, 0x3, 0x0}, 0x3},
    {"sad.s32", "d32 a32 a32 a32", {0x0, 0x100, 0x3, 0x0}, 0x103},
    {"sad.s32", "d32 a32 a32 a32", {0xff, 0x3, 0x3, 0x0}, 0xff},
    {"sad.s32", "d32 a32 a32 a32", {0x3, 0xff, 0x2, 0x0}, 0xfe},
    {"min.s32", "d32 a32 a32", {0x80000000, 0xff, 0x0, 0x0}, 0x80000000},
    {"min.s32", "d32 a32 a32", {0x12345678, 0xe47b342b, 0x0, 0x0}, 0xe47b342b},
    {"min.s32", "d32 a32 a32", {0xffff, 0x2, 0x0, 0x0}, 0x2},
    {"max.s32", "d32 a32 a32", {0x80000001, 0x0, 0x0, 0x0}, 0x0},
    {"max.s32", "d32 a32 a32", {0x80000001, 0xff, 0x0, 0x0}, 0xff},
    {"max.s32", "d32 a32 a32", {0xffffffff, 0x2a3a4667, 0x0, 0x0}, 0x2a3a4667},
    {"mul.wide.s32", "d64 a32 a32", {0x0, 0x100, 0x0, 0x0}, 0x0},
    {"mul.wide.s32", "d64 a32 a32", {0xe47b342b, 0x2, 0x0, 0x0}, 0xffffffffc8f66856},
    {"mul.wide.s32", "d64 a32 a32", {0x2a3a4667, 0x100, 0x0, 0x0}, 0x2a3a466700},
    {"mad.wide.s32", "d64 a32 a32 a64", {0x7f, 0x10000, 0xffffffffffffffff, 0x0}, 0x7effff},
    {"mad.wide.s32", "d64 a32 a32 a64", {0x1, 0x1, 0x0, 0x0}, 0x1},
    {"mad.wide.s32", "d64 a32 a32 a64", {0xffff, 0x80, 0xffffffffffffffff, 0x0}, 0x7fff7f},
    {"abs.s32", "d32 a32", {0xf79fcaa0, 0x0, 0x0, 0x0}, 0x8603560},
    {"abs.s32", "d32 a32", {0xe47b342b, 0x0, 0x0, 0x0}, 0x1b84cbd5},
    {"abs.s32", "d32 a32", {0x2, 0x0, 0x0, 0x0}, 0x2},
    {"neg.s32", "d32 a32", {0x100, 0x0, 0x0, 0x0}, 0xffffff00},
    {"neg.s32", "d32 a32", {0x2, 0x0, 0x0, 0x0}, 0xfffffffe},
    {"neg.s32", "d32 a32", {0x2a3a4667, 0x0, 0x0, 0x0}, 0xd5c5b999},
    {"div.u64", "d64 a64 a64", {0x29ddf4c734085693, 0xffffffff, 0x0, 0x0}, 0x29ddf4c7},
    {"div.u64", "d64 a64 a64", {0x8000000000000000, 0x8000000000000000, 0x0, 0x0}, 0x1},
    {"div.u64", "d64 a64 a64", {0xfffffffffffffffe, 0x123456789abcdef0, 0x0, 0x0}, 0xe},
    {"rem.u64",
     "d64 a64 a64",
     {0x8980bb2c266fdf5c, 0x3b0b639855e6fa5a, 0x0, 0x0},
     0x1369f3fb7aa1eaa8},
    {"rem.u64",
     "d64 a64 a64",
     {0x49cdbec729aa57a5, 0xffffffffffffffff, 0x0, 0x0},
     0x49cdbec729aa57a5},
    {"rem.u64", "d64 a64 a64", {0x29ddf4c734085693, 0xff, 0x0, 0x0}, 0xe9},
    {"mul.hi.u64", "d64 a64 a64", {0xffffffff, 0x7fffffffffffffff, 0x0, 0x0}, 0x7fffffff},
    {"mul.hi.u64", "d64 a64 a64", {0x100000000, 0x123456789abcdef0, 0x0, 0x0}, 0x12345678},
    {"mul.hi.u64",
     "d64 a64 a64",
     {0xfffffffffffffffe, 0xdeadbeefcafebabe, 0x0, 0x0},
     0xdeadbeefcafebabc},
    {"mul.lo.u64", "d64 a64 a64", {0xfffffffffffffffe, 0x7fffffffffffffff, 0x0, 0x0}, 0x2},
    {"mul.lo.u64",
     "d64 a64 a64",
     {0xdeadbeefcafebabe, 0x29ddf4c734085693, 0x0, 0x0},
     0x22a9897990f10f1a},
    {"mul.lo.u64",
     "d64 a64 a64",
     {0x123456789abcdef0, 0x123456789abcdef0, 0x0, 0x0},
     0xa5e20890f2a52100},
    {"mad.hi.u64",
     "d64 a64 a64 a64",
     {0x7fffffffffffffff, 0x8000000000000001, 0xff, 0x0},
     0x40000000000000fe},
    {"mad.hi.u64", "d64 a64 a64 a64", {0xffffffff, 0x7fffffffffffffff, 0x2, 0x0}, 0x80000001},
    {"mad.hi.u64", "d64 a64 a64 a64", {0x0, 0x8000000000000000, 0x2, 0x0}, 0x2},
    {"sad.u64", "d64 a64 a64 a64", {0x8000000000000000, 0x0, 0xff, 0x0}, 0x80000000000000ff},
    {"sad.u64", "d64 a64 a64 a64", {0x0, 0x0, 0x0, 0x0}, 0x0},
    {"sad.u64", "d64 a64 a64 a64", {0x100000000, 0x2, 0x2, 0x0}, 0x100000000},
    {"min.u64", "d64 a64 a64", {0x2, 0x1, 0x0, 0x0}, 0x1},
    {"min.u64", "d64 a64 a64", {0xffffffff, 0x100000000, 0x0, 0x0}, 0xffffffff},
    {"min.u64",
     "d64 a64 a64",
     {0x29ddf4c734085693, 0x3b0b639855e6fa5a, 0x0, 0x0},
     0x29ddf4c734085693},
    {"max.u64", "d64 a64 a64", {0x100000000, 0xffffffff, 0x0, 0x0}, 0x100000000},
    {"max.u64", "d64 a64 a64", {0x8000000000000000, 0x1, 0x0, 0x0}, 0x8000000000000000},
    {"max.u64", "d64 a64 a64", {0x0, 0x29ddf4c734085693, 0x0, 0x0}, 0x29ddf4c734085693},
    {"div.s64", "d64 a64 a64", {0x3b0b639855e6fa5a, 0x100000000, 0x0, 0x0}, 0x3b0b6398},
    {"div.s64", "d64 a64 a64", {0x8000000000000000, 0x2, 0x0, 0x0}, 0xc000000000000000},
    {"div.s64", "d64 a64 a64", {0x1, 0xffffffff, 0x0, 0x0}, 0x0},
    {"rem.s64", "d64 a64 a64", {0xdeadbeefcafebabe, 0xffffffffffffffff, 0x0, 0x0}, 0x0},
    {"rem.s64",
     "d64 a64 a64",
     {0x8000000000000000, 0x8000000000000001, 0x0, 0x0},
     0xffffffffffffffff},
    {"rem.s64",
     "d64 a64 a64",
     {0x49cdbec729aa57a5, 0x123456789abcdef0, 0x0, 0x0},
     0xfc64e4beb6dbe5},
    {"mul.hi.s64", "d64 a64 a64", {0x100000000, 0x49cdbec729aa57a5, 0x0, 0x0}, 0x49cdbec7},
    {"mul.hi.s64",
     "d64 a64 a64",
     {0x123456789abcdef0, 0x49cdbec729aa57a5, 0x0, 0x0},
     0x53f8e22a486fe3f},
    {"mul.hi.s64", "d64 a64 a64", {0x8000000000000000, 0x1, 0x0, 0x0}, 0xffffffffffffffff},
    {"mul.lo.s64", "d64 a64 a64", {0x8000000000000001, 0x2, 0x0, 0x0}, 0x2},
    {"mul.lo.s64",
     "d64 a64 a64",
     {0xfffffffffffffffe, 0x123456789abcdef0, 0x0, 0x0},
     0xdb97530eca864220},
    {"mul.lo.s64", "d64 a64 a64", {0xffffffff, 0x1, 0x0, 0x0}, 0xffffffff},
    {"mad.hi.s64",
     "d64 a64 a64 a64",
     {0xffffffff, 0xfffffffffffffffe, 0x0, 0x0},
     0xffffffffffffffff},
    {"mad.hi.s64", "d64 a64 a64 a64", {0x8000000000000000, 0x1, 0xff, 0x0}, 0xfe},
    {"mad.hi.s64", "d64 a64 a64 a64", {0x2, 0x2, 0x1, 0x0}, 0x1},
    {"sad.s64", "d64 a64 a64 a64", {0x0, 0xff, 0x1, 0x0}, 0x100},
    {"sad.s64", "d64 a64 a64 a64", {0x8000000000000001, 0x100000000, 0x0, 0x0}, 0x80000000ffffffff},
    {"sad.s64", "d64 a64 a64 a64", {0xff, 0x100000000, 0x1, 0x0}, 0xffffff02},
    {"min.s64", "d64 a64 a64", {0xffffffff, 0x8000000000000001, 0x0, 0x0}, 0x8000000000000001},
    {"min.s64", "d64 a64 a64", {0x7fffffffffffffff, 0x2, 0x0, 0x0}, 0x2},
    {"min.s64", "d64 a64 a64", {0x0, 0x100000000, 0x0, 0x0}, 0x0},
    {"max.s64", "d64 a64 a64", {0x100000000, 0x0, 0x0, 0x0}, 0x100000000},
    {"max.s64",
     "d64 a64 a64",
     {0x49cdbec729aa57a5, 0xffffffffffffffff, 0x0, 0x0},
     0x49cdbec729aa57a5},
    {"max.s64", "d64 a64 a64", {0x8000000000000001, 0x1, 0x0, 0x0}, 0x1},
    {"abs.s64", "d64 a64", {0x7fffffffffffffff, 0x0, 0x0, 0x0}, 0x7fffffffffffffff},
    {"abs.s64", "d64 a64", {0x0, 0x0, 0x0, 0x0}, 0x0},
    {"abs.s64", "d64 a64", {0xff, 0x0, 0x0, 0x0}, 0xff},
    {"neg.s64", "d64 a64", {0x49cdbec729aa57a5, 0x0, 0x0, 0x0}, 0xb6324138d655a85b},
    {"neg.s64", "d64 a64", {0x2, 0x0, 0x0, 0x0}, 0xfffffffffffffffe},
    {"neg.s64", "d64 a64", {0xfffffffffffffffe, 0x0, 0x0, 0x0}, 0x2},
    {"min.relu.s32", "d32 a32 a32", {0x80000000, 0xdeadbeef, 0x0, 0x0}, 0x0},
    {"min.relu.s32", "d32 a32 a32", {0x1, 0x3, 0x0, 0x0}, 0x1},
    {"min.relu.s32", "d32 a32 a32", {0xff, 0xff, 0x0, 0x0}, 0xff},
    {"max.relu.s32", "d32 a32 a32", {0x7fffffff, 0x80000000, 0x0, 0x0}, 0x7fffffff},
    {"max.relu.s32", "d32 a32 a32", {0x10000, 0x2, 0x0, 0x0}, 0x10000},
    {"max.relu.s32", "d32 a32 a32", {0xdeadbeef, 0x7f, 0x0, 0x0}, 0x7f},
    {"add.sat.s32", "d32 a32 a32", {0x80000000, 0x2, 0x0, 0x0}, 0x80000002},
    {"add.sat.s32", "d32 a32 a32", {0xffffffff, 0x7f, 0x0, 0x0}, 0x7e},
    {"add.sat.s32", "d32 a32 a32", {0x80000000, 0xffffffff, 0x0, 0x0}, 0x80000000},
    {"sub.sat.s32", "d32 a32 a32", {0x2, 0x7fffffff, 0x0, 0x0}, 0x80000003},
    {"sub.sat.s32", "d32 a32 a32", {0x0, 0x100, 0x0, 0x0}, 0xffffff00},
    {"sub.sat.s32", "d32 a32 a32", {0x3, 0xffff, 0x0, 0x0}, 0xffff0004},
    {"mad.hi.sat.s32", "d32 a32 a32 a32", {0x100, 0xffff, 0xffffffff, 0x0}, 0xffffffff},
    {"mad.hi.sat.s32", "d32 a32 a32 a32", {0x0, 0x3, 0x1, 0x0}, 0x1},
    {"mad.hi.sat.s32", "d32 a32 a32 a32", {0x7fffffff, 0x7f, 0x0, 0x0}, 0x3f},
    {"mul24.lo.u32", "d32 a32 a32", {0x80, 0x12345678, 0x0, 0x0}, 0x1a2b3c00},
    {"mul24.lo.u32", "d32 a32 a32", {0xffff, 0xffff, 0x0, 0x0}, 0xfffe0001},
    {"mul24.lo.u32", "d32 a32 a32", {0xff800000, 0x80000000, 0x0, 0x0}, 0x0},
    {"mad24.lo.u32", "d32 a32 a32 a32", {0x7f, 0x10000, 0x0, 0x0}, 0x7f0000},
    {"mad24.lo.u32", "d32 a32 a32 a32", {0xffff, 0x80, 0x0, 0x0}, 0x7fff80},
    {"mad24.lo.u32", "d32 a32 a32 a32", {0x10000, 0x3, 0xffffffff, 0x0}, 0x2ffff},
    {"mul24.hi.u32", "d32 a32 a32", {0x800000, 0xffff, 0x0, 0x0}, 0x7fff80},
    {"mul24.hi.u32", "d32 a32 a32", {0x1, 0x80, 0x0, 0x0}, 0x0},
    {"mul24.hi.u32", "d32 a32 a32", {0xff800000, 0xff800000, 0x0, 0x0}, 0x40000000},
    {"mad24.hi.u32", "d32 a32 a32 a32", {0x3, 0x7fffffff, 0x1, 0x0}, 0x300},
    {"mad24.hi.u32", "d32 a32 a32 a32", {0x0, 0x3, 0x1, 0x0}, 0x1},
    {"mad24.hi.u32", "d32 a32 a32 a32", {0x1, 0x100, 0xffffffff, 0x0}, 0xffffffff},
    {"mul24.lo.s32", "d32 a32 a32", {0xff800000, 0x800000, 0x0, 0x0}, 0x0},
    {"mul24.lo.s32", "d32 a32 a32", {0xff00ff, 0x80000001, 0x0, 0x0}, 0xffff00ff},
    {"mul24.lo.s32", "d32 a32 a32", {0x7f, 0x7f, 0x0, 0x0}, 0x3f01},
    {"mad24.lo.s32", "d32 a32 a32 a32", {0x2, 0x100, 0x1, 0x0}, 0x201},
    {"mad24.lo.s32", "d32 a32 a32 a32", {0x7fffffff, 0x0, 0xffffffff, 0x0}, 0xffffffff},
    {"mad24.lo.s32", "d32 a32 a32 a32", {0x7f, 0x3, 0xffffffff, 0x0}, 0x17c},
    {"mul24.hi.s32", "d32 a32 a32", {0x100, 0xff00ff, 0x0, 0x0}, 0xffffff00},
    {"mul24.hi.s32", "d32 a32 a32", {0xdeadbeef, 0x80000001, 0x0, 0x0}, 0xffffffad},
    {"mul24.hi.s32", "d32 a32 a32", {0x3, 0x800000, 0x0, 0x0}, 0xfffffe80},
    {"mad24.hi.s32", "d32 a32 a32 a32", {0x7fffffff, 0x100, 0x1, 0x0}, 0x0},
    {"mad24.hi.s32", "d32 a32 a32 a32", {0x10000, 0x100, 0x1, 0x0}, 0x101},
    {"mad24.hi.s32", "d32 a32 a32 a32", {0x3, 0x7f, 0xffffffff, 0x0}, 0xffffffff},

};

TEST(IntArith, MatchesRecordedH200Results) {
  for (const Recorded& r : kRecorded)
    EXPECT_EQ(replay(r), r.out) << r.op << " " << std::hex << r.in[0] << " " << r.in[1] << " "
                                << r.in[2];
}

// ---- properties against __int128 references ---------------------------------------------------

rc::Gen<uint64_t> genU64() {
  return rc::gen::weightedOneOf<uint64_t>(
      {{3, rc::gen::arbitrary<uint64_t>()},
       {2, rc::gen::map(rc::gen::arbitrary<uint32_t>(), [](uint32_t v) { return uint64_t(v); })},
       {2, rc::gen::element<uint64_t>(0, 1, 2, 0x7F, 0x80, 0xFFFF, 0x7FFF, 0x8000, 0xFFFFFFFF,
                                      0x7FFFFFFF, 0x80000000, kMin64, kMin64 - 1, ~0ull)}});
}

struct TypeInfo {
  std::string name;
  unsigned bits;
  bool isSigned;
  uint64_t mask() const { return bits == 64 ? ~0ull : (1ull << bits) - 1; }
  __int128 value(uint64_t v) const {  // the source's value as the type reads it
    v &= mask();
    if (isSigned && ((v >> (bits - 1)) & 1)) return __int128(v) - (__int128(1) << bits);
    return __int128(v);
  }
  uint64_t bitsOf(__int128 v) const { return uint64_t(v) & mask(); }
};
const TypeInfo kTypes[] = {{"u16", 16, false}, {"s16", 16, true},  {"u32", 32, false},
                           {"s32", 32, true},  {"u64", 64, false}, {"s64", 64, true}};

RC_GTEST_PROP(IntArithProps, AddSubMulMadSadMinMaxMatchWideArithmetic, ()) {
  const uint64_t a = *genU64(), b = *genU64(), c = *genU64();
  for (const TypeInfo& t : kTypes) {
    const __int128 x = t.value(a), y = t.value(b), z = t.value(c);
    RC_ASSERT(eval("add." + t.name, {a, b}) == t.bitsOf(x + y));
    RC_ASSERT(eval("sub." + t.name, {a, b}) == t.bitsOf(x - y));
    RC_ASSERT(eval("mul.lo." + t.name, {a, b}) == t.bitsOf(x * y));
    RC_ASSERT(eval("mul.hi." + t.name, {a, b}) == t.bitsOf((x * y) >> t.bits));
    RC_ASSERT(eval("mad.lo." + t.name, {a, b, c}) == t.bitsOf(x * y + z));
    RC_ASSERT(eval("mad.hi." + t.name, {a, b, c}) == t.bitsOf(((x * y) >> t.bits) + z));
    RC_ASSERT(eval("sad." + t.name, {a, b, c}) == t.bitsOf((x < y ? y - x : x - y) + z));
    RC_ASSERT(eval("min." + t.name, {a, b}) == t.bitsOf(std::min(x, y)));
    RC_ASSERT(eval("max." + t.name, {a, b}) == t.bitsOf(std::max(x, y)));
    if (t.bits < 64) {
      const TypeInfo w{t.name, t.bits * 2, t.isSigned};
      RC_ASSERT(eval("mul.wide." + t.name, {a, b}) == w.bitsOf(x * y));
      RC_ASSERT(eval("mad.wide." + t.name, {a, b, c}) == w.bitsOf(x * y + w.value(c)));
    }
    if (t.isSigned) {
      RC_ASSERT(eval("abs." + t.name, {a}) == t.bitsOf(x < 0 ? -x : x));
      RC_ASSERT(eval("neg." + t.name, {a}) == t.bitsOf(-x));
    }
  }
  const TypeInfo s32{"s32", 32, true};
  const __int128 x = s32.value(a), y = s32.value(b), z = s32.value(c);
  auto sat = [](__int128 v) { return std::clamp<__int128>(v, INT32_MIN, INT32_MAX); };
  RC_ASSERT(eval("add.sat.s32", {a, b}) == s32.bitsOf(sat(x + y)));
  RC_ASSERT(eval("sub.sat.s32", {a, b}) == s32.bitsOf(sat(x - y)));
  RC_ASSERT(eval("mad.hi.sat.s32", {a, b, c}) == s32.bitsOf(sat(((x * y) >> 32) + z)));
  RC_ASSERT(eval("min.relu.s32", {a, b}) == s32.bitsOf(std::max<__int128>(0, std::min(x, y))));
  RC_ASSERT(eval("max.relu.s32", {a, b}) == s32.bitsOf(std::max<__int128>(0, std::max(x, y))));
}

RC_GTEST_PROP(IntArithProps, DivRemMatchTruncatingDivision, ()) {
  const uint64_t a = *genU64(), b = *genU64();
  for (const TypeInfo& t : kTypes) {
    const __int128 x = t.value(a), y = t.value(b);
    // Division by zero: all ones (measured); the wide reference wraps MIN / -1 to MIN.
    const uint64_t q = y == 0 ? t.mask() : t.bitsOf(x / y);
    const uint64_t r = y == 0 ? t.mask() : t.bitsOf(x % y);
    RC_ASSERT(eval("div." + t.name, {a, b}) == q);
    RC_ASSERT(eval("rem." + t.name, {a, b}) == r);
  }
}

RC_GTEST_PROP(IntArithProps, Mul24MatchesTheLow24BitsProduct, ()) {
  const uint64_t a = *genU64(), b = *genU64(), c = *genU64();
  for (bool s : {false, true}) {
    auto v24 = [&](uint64_t v) -> int64_t {
      const int64_t x = int64_t(v & 0xFFFFFF);
      return s && x >= (1 << 23) ? x - (1 << 24) : x;
    };
    const int64_t p = v24(a) * v24(b);  // 48 significant bits
    const uint32_t lo = uint32_t(uint64_t(p)), hi = uint32_t(uint64_t(p) >> 16);
    const std::string t = s ? "s32" : "u32";
    RC_ASSERT(eval("mul24.lo." + t, {a, b}) == lo);
    RC_ASSERT(eval("mul24.hi." + t, {a, b}) == hi);
    RC_ASSERT(eval("mad24.lo." + t, {a, b, c}) == uint32_t(lo + uint32_t(c)));
    RC_ASSERT(eval("mad24.hi." + t, {a, b, c}) == uint32_t(hi + uint32_t(c)));
  }
}

RC_GTEST_PROP(IntArithProps, CarryChainsAdd128AndSubtract128, ()) {
  const u128 x = u128(*genU64()) << 64 | *genU64(), y = u128(*genU64()) << 64 | *genU64();
  H h("mov.b32", {H::reg(1), H::reg(2)});
  h.set(10, 0, uint64_t(x)), h.set(11, 0, uint64_t(x >> 64));
  h.set(12, 0, uint64_t(y)), h.set(13, 0, uint64_t(y >> 64));
  chain(h, {{"add.cc.u64", {1, 10, 12}}, {"addc.cc.u64", {2, 11, 13}}, {"addc.u64", {3, 20, 20}}});
  const u128 sum = x + y;
  RC_ASSERT(h.get(1, 0) == uint64_t(sum));
  RC_ASSERT(h.get(2, 0) == uint64_t(sum >> 64));
  RC_ASSERT(h.get(3, 0) == uint64_t(sum < x));  // the carry out of bit 127
  chain(h, {{"sub.cc.u64", {1, 10, 12}}, {"subc.u64", {2, 11, 13}}});
  const u128 diff = x - y;
  RC_ASSERT(h.get(1, 0) == uint64_t(diff));
  RC_ASSERT(h.get(2, 0) == uint64_t(diff >> 64));
  // The same 64-bit sums from 32-bit halves.
  const uint64_t p = uint64_t(x), q = uint64_t(y);
  h.set(10, 0, p & 0xFFFFFFFF), h.set(11, 0, p >> 32), h.set(12, 0, q & 0xFFFFFFFF),
      h.set(13, 0, q >> 32);
  chain(h, {{"add.cc.u32", {1, 10, 12}}, {"addc.u32", {2, 11, 13}}});
  RC_ASSERT((h.get(2, 0) << 32 | h.get(1, 0)) == p + q);
  chain(h, {{"sub.cc.u32", {1, 10, 12}}, {"subc.cc.u32", {2, 11, 13}}, {"addc.u32", {3, 20, 20}}});
  RC_ASSERT((h.get(2, 0) << 32 | h.get(1, 0)) == p - q);
  RC_ASSERT(h.get(3, 0) == uint64_t(p >= q));  // NOT borrow
}

// ---- binding ------------------------------------------------------------------------------------

std::vector<isa::Opnd> regs(size_t n) {
  std::vector<isa::Opnd> ops;
  for (size_t i = 0; i < n; ++i) ops.push_back(H::reg(uint32_t(1 + i)));
  return ops;
}

// The two-half-word forms (PTX ISA 9.7.1): each half on its own, low half to low half.
TEST(IntArith, PackedHalfWordForms) {
  // 0x7fff + 1 wraps to 0x8000 in the low half; 0xffff + 2 wraps to 0x0001 in the high half.
  EXPECT_EQ(eval("add.u16x2", {0xFFFF7FFFu, 0x00020001u}), 0x00018000u);
  EXPECT_EQ(eval("add.s16x2", {0xFFFF7FFFu, 0x00020001u}), 0x00018000u);
  // min/max compare each half signed or unsigned: 0x8000 is -32768 as s16, 32768 as u16.
  EXPECT_EQ(eval("min.s16x2", {0x80000005u, 0x00010003u}), 0x80000003u);
  EXPECT_EQ(eval("min.u16x2", {0x80000005u, 0x00010003u}), 0x00010003u);
  EXPECT_EQ(eval("max.s16x2", {0x80000005u, 0x00010003u}), 0x00010005u);
  EXPECT_EQ(eval("max.u16x2", {0x80000005u, 0x00010003u}), 0x80000005u);
  // .relu clamps each negative half to 0.
  EXPECT_EQ(eval("min.relu.s16x2", {0x8000FFFEu, 0x00010003u}), 0x00000000u);
  EXPECT_EQ(eval("max.relu.s16x2", {0x8000FFFEu, 0xFFFF0003u}), 0x00000003u);
}

// mad24.hi.sat.s32: bits 16..47 of the 48-bit product, plus c, clamped to the s32 range.
TEST(IntArith, Mad24HiSaturates) {
  // 0x7fffff * 0x7fffff = 0x3fffff000001: bits 16..47 = 0x3fffff00; + 0x7fffffff saturates.
  EXPECT_EQ(eval("mad24.hi.sat.s32", {0x7FFFFF, 0x7FFFFF, 0x7FFFFFFF}), 0x7FFFFFFFu);
  EXPECT_EQ(eval("mad24.hi.s32", {0x7FFFFF, 0x7FFFFF, 0x7FFFFFFF}),
            uint32_t(0x3FFFFF00u + 0x7FFFFFFFu));
  // -2^23 * 2^23-1 is negative: bits 16..47 sign-extended, then - 2^31 saturates low.
  EXPECT_EQ(eval("mad24.hi.sat.s32", {0x800000, 0x7FFFFF, 0x80000000u}), 0x80000000u);
  EXPECT_EQ(eval("mad24.hi.sat.s32", {3 << 16, 2, 5}), 11u);  // (3*2^17) >> 16 = 6; + 5
}

TEST(IntArithBind, ValidFormsBind) {
  H h("mov.b32", regs(2));
  const std::pair<const char*, size_t> forms[] = {
      {"add.s32", 3},        {"add.sat.s32", 3},     {"add.cc.u64", 3},     {"sub.cc.s32", 3},
      {"addc.cc.u32", 3},    {"subc.s64", 3},        {"mul.lo.u16", 3},     {"mul.hi.s64", 3},
      {"mul.wide.s16", 3},   {"mad.lo.u64", 4},      {"mad.hi.sat.s32", 4}, {"mad.wide.u32", 4},
      {"mad.lo.cc.u32", 4},  {"mad.hi.cc.s64", 4},   {"madc.hi.cc.s64", 4}, {"madc.lo.u32", 4},
      {"mul24.hi.s32", 3},   {"mad24.lo.u32", 4},    {"sad.u16", 4},        {"div.s64", 3},
      {"rem.u16", 3},        {"abs.s16", 2},         {"neg.s64", 2},        {"min.relu.s32", 3},
      {"max.u64", 3},        {"add.u16x2", 3},       {"add.s16x2", 3},      {"min.u16x2", 3},
      {"max.relu.s16x2", 3}, {"mad24.hi.sat.s32", 4}};
  for (const auto& [op, n] : forms) EXPECT_EQ(h.tryBind(op, regs(n)), "") << op;
}

TEST(IntArithBind, InvalidFormsAreRejected) {
  H h("mov.b32", regs(2));
  const std::pair<const char*, size_t> forms[] = {
      {"add.sat.u32", 3},     {"add.sat.s64", 3},     {"add.sat.cc.s32", 3},
      {"add.cc.u16", 3},      {"addc.u16", 3},        {"mul.wide.u64", 3},
      {"mad.wide.s64", 4},    {"mad.lo.sat.s32", 4},  {"mad.sat.s32", 4},
      {"mad.hi.sat.u32", 4},  {"mad.wide.cc.u32", 4}, {"mad.hi.sat.cc.s32", 4},
      {"madc.lo.u16", 4},     {"mul24.lo.u16", 3},    {"mul24.hi.s64", 3},
      {"abs.u32", 2},         {"neg.u16", 2},         {"min.relu.u32", 3},
      {"max.relu.s64", 3},    {"add.s32", 2},         {"mad.lo.s32", 3},
      {"sad.u32", 3},         {"add.f32x", 3},        {"sub.u16x2", 3},
      {"add.sat.s16x2", 3},   {"min.relu.u16x2", 3},  {"mad24.lo.sat.s32", 4},
      {"mad24.hi.sat.u32", 4}};
  for (const auto& [op, n] : forms) EXPECT_NE(h.tryBind(op, regs(n)), "") << op;
  EXPECT_NE(h.tryBind("add.s32", {H::reg(1), H::pred(1), H::reg(2)}), "");
}

TEST(IntArithBind, EveryCombinationBindsOrIsRejectedWithAMessage) {
  H h("mov.b32", regs(2));
  size_t bound = 0, tried = 0;
  for (const isa::OpcodeSpec& s : isa::instructionTable()) {
    if (s.family != "int_arith") continue;
    std::vector<std::string> words{""};
    for (std::string_view m : s.mods) words.push_back("." + std::string(m));
    for (isa::Type t : s.types)
      for (const std::string& w1 : words)
        for (const std::string& w2 : words)
          for (size_t n = 1; n <= 5; ++n) {
            const std::string op = std::string(s.opcode) + w1 + w2 + "." + isa::typeName(t);
            ++tried;
            std::string err;
            ASSERT_NO_THROW(err = h.tryBind(op, regs(n))) << op;
            if (err.empty()) {
              ++bound;
              EXPECT_NE(h.inst().run, nullptr) << op;
            }
          }
  }
  EXPECT_GT(bound, 100u);
  EXPECT_GT(tried, bound);
}

}  // namespace
}  // namespace warpsim::test
