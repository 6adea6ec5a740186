// Tests of the compare family (isa/insns/compare.cpp): setp (integer, f32/f64, f16/bf16 and
// the packed halves; .BoolOp with a negated predicate; p|q and `_`), set (every destination
// type, packed sources), selp, slct.
//
// Hand-worked edge cases (NaN with ordered and unordered comparisons, -0 == +0, infinities,
// subnormals with and without .ftz, signed vs unsigned orders), a replay of results recorded on
// an H200, RapidCheck properties against host references (the host's own float comparisons,
// which involve no rounding state, and a half-precision decoder written here), and the binding
// rules ptxas 13.0 applies.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "isa/insn_table.h"
#include "tests/support/exec_harness.h"
#include "tests/support/recorded_insn.h"

namespace warpsim::test {
namespace {

using H = ExecHarness;

// setp on lane 0: returns p (bit 0) and q (bit 1) of `setp... p|q, a, b[, c]` (of
// `setp... p, a, b[, c]` when !pair).
unsigned setp(const std::string& op, uint64_t a, uint64_t b, int c = -1, bool negC = false,
              bool pair = true) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  std::vector<isa::Opnd> ops{pair ? H::vec({H::pred(1), H::pred(2)}) : H::pred(1), H::reg(2),
                             H::reg(3)};
  if (c >= 0) ops.push_back(H::pred(3, negC));
  h.bind(op, ops);
  h.set(2, 0, a);
  h.set(3, 0, b);
  h.setPred(3, unsigned(c > 0));
  h.run(1);
  return (h.getPred(1) & 1) | (h.getPred(2) & 1) << 1;
}
bool setp1(const std::string& op, uint64_t a, uint64_t b) {
  return setp(op, a, b, -1, false, false) & 1;
}

// set / selp / slct on lane 0: d = r1, sources r2, r3, ... (a predicate source is p3).
uint64_t eval(const std::string& op, std::vector<uint64_t> srcs, int c = -1, bool negC = false) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  std::vector<isa::Opnd> ops{H::reg(1)};
  for (size_t i = 0; i < srcs.size(); ++i) {
    ops.push_back(H::reg(uint32_t(2 + i)));
    h.set(uint32_t(2 + i), 0, srcs[i]);
  }
  if (c >= 0) ops.push_back(H::pred(3, negC));
  h.bind(op, ops);
  h.setPred(3, unsigned(c > 0));
  h.run(1);
  return h.get(1, 0);
}

constexpr uint32_t kNaN = 0x7FC00000, kSNaN = 0x7F800001, kNegNaN = 0xFFC00000;
constexpr uint32_t kInf = 0x7F800000, kNegInf = 0xFF800000, kNegZero = 0x80000000;
constexpr uint32_t kOne = 0x3F800000, kDenorm = 0x00000001, kNegDenorm = 0x80000001;

// ---- setp: integers --------------------------------------------------------------------------

TEST(Setp, SignedAndUnsignedOrders) {
  EXPECT_TRUE(setp1("setp.lt.s32", 0xFFFFFFFF, 0));
  EXPECT_FALSE(setp1("setp.lt.u32", 0xFFFFFFFF, 0));
  EXPECT_FALSE(setp1("setp.lo.u32", 0xFFFFFFFF, 0));
  EXPECT_TRUE(setp1("setp.hi.u32", 0xFFFFFFFF, 0));
  EXPECT_TRUE(setp1("setp.lt.s16", 0x8000, 0x7FFF));
  EXPECT_FALSE(setp1("setp.lt.u16", 0x8000, 0x7FFF));
  EXPECT_TRUE(setp1("setp.lt.s64", 1ull << 63, 0));
  EXPECT_TRUE(setp1("setp.hs.u64", 1ull << 63, 0));
  EXPECT_TRUE(setp1("setp.eq.b16", 0x10001, 1));  // read at 16 bits
  EXPECT_TRUE(setp1("setp.ne.b64", 1ull << 32, 0));
  EXPECT_FALSE(setp1("setp.ne.b32", 1ull << 32, 0));
  // Every unsigned comparison on (3, 5), (5, 5), (5, 3).
  const struct {
    const char* cmp;
    bool lt, eq, gt;
  } table[] = {{"eq", false, true, false}, {"ne", true, false, true},  {"lt", true, false, false},
               {"le", true, true, false},  {"gt", false, false, true}, {"ge", false, true, true},
               {"lo", true, false, false}, {"ls", true, true, false},  {"hi", false, false, true},
               {"hs", false, true, true}};
  for (const auto& t : table) {
    const std::string op = std::string("setp.") + t.cmp + ".u32";
    EXPECT_EQ(setp1(op, 3, 5), t.lt) << op;
    EXPECT_EQ(setp1(op, 5, 5), t.eq) << op;
    EXPECT_EQ(setp1(op, 5, 3), t.gt) << op;
  }
}

TEST(Setp, PairGetsTheComplementCombined) {
  // t = a < b; p = BoolOp(t, c), q = BoolOp(!t, c).
  EXPECT_EQ(setp("setp.lt.s32", 1, 2), 0b01u);
  EXPECT_EQ(setp("setp.lt.s32", 2, 1), 0b10u);
  EXPECT_EQ(setp("setp.lt.and.s32", 1, 2, 1), 0b01u);
  EXPECT_EQ(setp("setp.lt.and.s32", 1, 2, 0), 0b00u);
  EXPECT_EQ(setp("setp.lt.and.s32", 1, 2, 0, true), 0b01u);  // !c
  EXPECT_EQ(setp("setp.lt.or.s32", 2, 1, 1), 0b11u);
  EXPECT_EQ(setp("setp.lt.or.s32", 2, 1, 1, true), 0b10u);
  EXPECT_EQ(setp("setp.lt.xor.s32", 1, 2, 1), 0b10u);
  EXPECT_EQ(setp("setp.lt.xor.s32", 2, 1, 0), 0b10u);
}

TEST(Setp, SinksAndMaskedLanes) {
  H h("setp.lt.s32", {H::vec({H::sink(), H::pred(2)}), H::reg(2), H::reg(3)});
  for (unsigned l = 0; l < 32; ++l) h.set(2, l, l), h.set(3, l, 16);
  h.setPred(1, 0x12345678);
  h.setPred(2, 0xFFFFFFFF);
  h.run(0x00FFFF00);
  EXPECT_EQ(h.getPred(1), 0x12345678u);               // `_` is not written
  EXPECT_EQ(h.getPred(2), 0xFF0000FFu | 0x00FF0000);  // q = !(l < 16) on lanes 8..23 only
  h.bind("setp.lt.s32", {H::vec({H::pred(1), H::sink()}), H::reg(2), H::reg(3)});
  h.run(0x00FFFF00);
  EXPECT_EQ(h.getPred(1), (0x12345678u & 0xFF0000FF) | 0x0000FF00);
  h.bind("setp.lt.s32", {H::sink(), H::reg(2), H::reg(3)});
  h.run();
  EXPECT_EQ(h.getPred(1), (0x12345678u & 0xFF0000FF) | 0x0000FF00);
  // A predicate immediate as c (ptxas accepts `setp.lt.and.s32 p, a, b, 1`).
  h.bind("setp.lt.and.s32", {H::pred(1), H::reg(2), H::reg(3), h.imm(0)});
  h.run();
  EXPECT_EQ(h.getPred(1), 0u);
}

// ---- setp: floating point ----------------------------------------------------------------------

TEST(Setp, NaNOrderedFalseUnorderedTrue) {
  const char* ordered[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  const char* unordered[] = {"equ", "neu", "ltu", "leu", "gtu", "geu"};
  for (uint32_t nan : {kNaN, kSNaN, kNegNaN}) {
    for (const char* c : ordered) {
      EXPECT_FALSE(setp1(std::string("setp.") + c + ".f32", nan, kOne)) << c;
      EXPECT_FALSE(setp1(std::string("setp.") + c + ".f32", kOne, nan)) << c;
      EXPECT_FALSE(setp1(std::string("setp.") + c + ".f32", nan, nan)) << c;
    }
    for (const char* c : unordered) EXPECT_TRUE(setp1(std::string("setp.") + c + ".f32", nan, nan));
    EXPECT_FALSE(setp1("setp.num.f32", nan, kOne));
    EXPECT_TRUE(setp1("setp.nan.f32", kOne, nan));
  }
  EXPECT_TRUE(setp1("setp.num.f32", kOne, kInf));
  EXPECT_FALSE(setp1("setp.nan.f32", kNegInf, kInf));
  EXPECT_FALSE(setp1("setp.ne.f64", 0x7FF8000000000001ull, 0));  // ne is ordered
  EXPECT_TRUE(setp1("setp.neu.f64", 0x7FF8000000000001ull, 0));
  EXPECT_TRUE(setp1("setp.nan.f64", 0xFFF0000000000001ull, 0));
}

TEST(Setp, ZerosInfinitiesAndSubnormals) {
  EXPECT_TRUE(setp1("setp.eq.f32", kNegZero, 0));
  EXPECT_FALSE(setp1("setp.lt.f32", kNegZero, 0));
  EXPECT_TRUE(setp1("setp.lt.f32", kNegInf, kInf));
  EXPECT_TRUE(setp1("setp.gt.f32", kInf, 0x7F7FFFFF));
  EXPECT_TRUE(setp1("setp.lt.f32", 0xBF800000, 0x3F000000));  // -1 < 0.5
  EXPECT_TRUE(setp1("setp.lt.f32", 0xC0000000, 0xBF800000));  // -2 < -1
  EXPECT_FALSE(setp1("setp.eq.f32", kDenorm, 0));
  EXPECT_TRUE(setp1("setp.eq.ftz.f32", kDenorm, 0));  // .ftz flushes both inputs
  EXPECT_TRUE(setp1("setp.lt.f32", kNegDenorm, 0));
  EXPECT_FALSE(setp1("setp.lt.ftz.f32", kNegDenorm, 0));  // -0 == +0
  EXPECT_FALSE(setp1("setp.gt.ftz.f32", kDenorm, kNegDenorm));
  EXPECT_TRUE(setp1("setp.gt.f32", 0x00800000, 0x007FFFFF));
  EXPECT_TRUE(setp1("setp.gt.ftz.f32", 0x00800000, 0x007FFFFF));  // normals are kept
  EXPECT_TRUE(setp1("setp.gt.f64", 1, 0));                        // f64: subnormals always compared
  EXPECT_TRUE(setp1("setp.eq.f64", 1ull << 63, 0));
}

TEST(Setp, HalfPrecision) {
  EXPECT_TRUE(setp1("setp.gt.f16", 0x3C00, 0x3800));  // 1 > 0.5
  EXPECT_TRUE(setp1("setp.lt.f16", 0xBC00, 0x3800));
  EXPECT_TRUE(setp1("setp.eq.f16", 0x8000, 0x0000));
  EXPECT_FALSE(setp1("setp.eq.f16", 0x7E00, 0x7E00));
  EXPECT_TRUE(setp1("setp.equ.f16", 0x7C01, 0x3C00));
  EXPECT_TRUE(setp1("setp.gt.f16", 0x0001, 0x0000));
  EXPECT_FALSE(setp1("setp.gt.ftz.f16", 0x0001, 0x0000));
  EXPECT_TRUE(setp1("setp.gt.bf16", 0x3F80, 0x3F00));  // bf16 1 > 0.5
  EXPECT_TRUE(setp1("setp.gt.bf16", 0x0001, 0x8000));  // bf16 has no .ftz: kept
  EXPECT_TRUE(setp1("setp.nan.bf16", 0x7FC0, 0));
  EXPECT_TRUE(setp1("setp.lt.f16", 0x10001, 0x3C00));  // the low 16 bits: a subnormal
  // Packed: p from the low halves, q from the high halves, each combined with c.
  const uint32_t a = 0x7E003C00, b = 0x3C003800;  // {lo 1.0, hi NaN} vs {lo 0.5, hi 1.0}
  EXPECT_EQ(setp("setp.gt.f16x2", a, b), 0b01u);
  EXPECT_EQ(setp("setp.gtu.f16x2", a, b), 0b11u);
  EXPECT_EQ(setp("setp.le.f16x2", a, b), 0b00u);
  EXPECT_EQ(setp("setp.leu.or.f16x2", a, b, 0), 0b10u);
  EXPECT_EQ(setp("setp.leu.or.f16x2", a, b, 1), 0b11u);
  EXPECT_EQ(setp("setp.gtu.and.f16x2", a, b, 0, true), 0b11u);
  EXPECT_EQ(setp("setp.gt.ftz.f16x2", 0x00010001, 0), 0b00u);
  EXPECT_EQ(setp("setp.gt.f16x2", 0x00010001, 0), 0b11u);
  EXPECT_EQ(setp("setp.lt.bf16x2", 0xFFC03F80, 0x3F804000), 0b01u);  // {lo 1 < 2, hi NaN}
  // One destination: the low halves' result (what the H200 does with that form).
  H h("setp.lt.f16x2", {H::pred(1), H::reg(2), H::reg(3)});
  h.set(2, 0, 0x3C003800), h.set(3, 0, 0x38003C00);  // lo 0.5 < 1, hi 1 > 0.5
  h.run(1);
  EXPECT_EQ(h.getPred(1) & 1, 1u);
  h.set(2, 0, 0x38003C00), h.set(3, 0, 0x3C003800);
  h.run(1);
  EXPECT_EQ(h.getPred(1) & 1, 0u);
}

// ---- set
// ------------------------------------------------------------------------------------------

TEST(Set, TrueValuesPerDestinationType) {
  EXPECT_EQ(eval("set.lt.u32.s32", {1, 2}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("set.lt.s32.s32", {2, 1}), 0u);
  EXPECT_EQ(eval("set.lt.f32.s32", {0xFFFFFFFF, 0}), 0x3F800000u);  // 1.0f
  EXPECT_EQ(eval("set.hi.f32.u64", {~0ull, 0}), 0x3F800000u);
  EXPECT_EQ(eval("set.eq.u16.f16", {0x3C00, 0x3C00}), 0xFFFFu);
  EXPECT_EQ(eval("set.eq.s16.bf16", {0x3F80, 0x3F80}), 0xFFFFu);
  EXPECT_EQ(eval("set.eq.f16.f32", {kOne, kOne}), 0x3C00u);
  EXPECT_EQ(eval("set.eq.bf16.f64", {0, 1ull << 63}), 0x3F80u);
  EXPECT_EQ(eval("set.nan.u32.f32", {kNaN, 0}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("set.ne.u32.f32", {kNaN, 0}), 0u);
  EXPECT_EQ(eval("set.eq.ftz.u32.f32", {kDenorm, kNegZero}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("set.eq.u32.f32", {kDenorm, kNegZero}), 0u);
  EXPECT_EQ(eval("set.lt.and.f32.s32", {1, 2}, 0, true), 0x3F800000u);
  EXPECT_EQ(eval("set.lt.and.f32.s32", {1, 2}, 0), 0u);
  EXPECT_EQ(eval("set.lt.xor.u32.f32", {kOne, kOne}, 1), 0xFFFFFFFFu);
}

TEST(Set, PackedSourcesFillEachHalf) {
  const uint32_t a = 0x7E003C00, b = 0x3C003800;  // {lo 1.0, hi NaN} vs {lo 0.5, hi 1.0}
  EXPECT_EQ(eval("set.gt.f16x2.f16x2", {a, b}), 0x00003C00u);
  EXPECT_EQ(eval("set.gtu.f16x2.f16x2", {a, b}), 0x3C003C00u);
  EXPECT_EQ(eval("set.gtu.u32.f16x2", {a, b}), 0xFFFFFFFFu);
  EXPECT_EQ(eval("set.gt.s32.f16x2", {a, b}), 0x0000FFFFu);
  EXPECT_EQ(eval("set.le.or.f16x2.f16x2", {a, b}, 1), 0x3C003C00u);
  EXPECT_EQ(eval("set.lt.bf16x2.bf16x2", {0x3F803F80, 0x40003F00}), 0x3F800000u);
  EXPECT_EQ(eval("set.gt.ftz.u32.f16x2", {0x00010001, 0}), 0u);
}

// ---- selp / slct
// ----------------------------------------------------------------------------------

TEST(Selp, SelectsOnThePredicateAtEveryWidth) {
  EXPECT_EQ(eval("selp.b32", {1, 2}, 1), 1u);
  EXPECT_EQ(eval("selp.b32", {1, 2}, 0), 2u);
  EXPECT_EQ(eval("selp.b32", {1, 2}, 1, true), 2u);
  EXPECT_EQ(eval("selp.f64", {1ull << 63, 5}, 1), 1ull << 63);
  EXPECT_EQ(eval("selp.u16", {0xABCD1234, 5}, 1), 0x1234u);  // written at 16 bits
  EXPECT_EQ(eval("selp.s64", {~0ull, 0}, 1), ~0ull);
}

TEST(Selp, PerLaneAndMasked) {
  H h("selp.b32", {H::reg(1), H::reg(2), H::reg(3), H::pred(1)});
  h.setAll(1, 9), h.setAll(2, 1), h.setAll(3, 2);
  h.setPred(1, 0x0000FFFF);
  h.run(0x00FF00FF);
  for (unsigned l = 0; l < 32; ++l) {
    const uint64_t want = !((0x00FF00FFu >> l) & 1) ? 9 : l < 16 ? 1 : 2;
    EXPECT_EQ(h.get(1, l), want) << l;
  }
  h.bind("selp.b32", {H::reg(1), H::reg(2), H::reg(3), h.imm(0)});
  h.run(1);
  EXPECT_EQ(h.get(1, 0), 2u);
}

TEST(Slct, SignedAndFloatComparands) {
  EXPECT_EQ(eval("slct.b32.s32", {0x11, 0x22, 0}), 0x11u);
  EXPECT_EQ(eval("slct.b32.s32", {0x11, 0x22, 0xFFFFFFFF}), 0x22u);
  EXPECT_EQ(eval("slct.u64.s32", {~0ull, 0x22, 0x80000000}), 0x22u);
  EXPECT_EQ(eval("slct.u64.s32", {~0ull, 0x22, 0x7FFFFFFF}), ~0ull);
  EXPECT_EQ(eval("slct.s16.s32", {0x12345, 0x22, 1}), 0x2345u);
  // .f32: -0 >= 0; NaN selects b; a negative subnormal selects b unless .ftz flushes it.
  const struct {
    uint32_t c;
    uint64_t plain, ftz;
  } cases[] = {{0, 0x11, 0x11},       {kNegZero, 0x11, 0x11},   {kNaN, 0x22, 0x22},
               {kNegNaN, 0x22, 0x22}, {kNegDenorm, 0x22, 0x11}, {0x807FFFFF, 0x22, 0x11},
               {kInf, 0x11, 0x11},    {kNegInf, 0x22, 0x22},    {kSNaN, 0x22, 0x22},
               {kDenorm, 0x11, 0x11}, {0xBF800000, 0x22, 0x22}};
  for (const auto& c : cases) {
    EXPECT_EQ(eval("slct.b32.f32", {0x11, 0x22, c.c}), c.plain) << std::hex << c.c;
    EXPECT_EQ(eval("slct.ftz.b32.f32", {0x11, 0x22, c.c}), c.ftz) << std::hex << c.c;
  }
  EXPECT_EQ(eval("slct.f64.f32", {1ull << 63, 7, 0}), 1ull << 63);
}

// ---- replay of results recorded on the H200 ---------------------------------------------------

const Recorded kRecorded[] = {
    {"setp.eq.b16", "P a16 a16", {0x2, 0x7f, 0x0, 0x0}, 0x0},
    {"setp.ne.b16", "P a16 a16", {0xfffe, 0xfffe, 0x0, 0x0}, 0x0},
    {"setp.eq.u16", "P a16 a16", {0x80, 0x0, 0x0, 0x0}, 0x0},
    {"setp.ne.u16", "P a16 a16", {0xff, 0x0, 0x0, 0x0}, 0x1},
    {"setp.lt.u16", "P a16 a16", {0xfffe, 0x8000, 0x0, 0x0}, 0x0},
    {"setp.le.u16", "P a16 a16", {0xfffe, 0x8000, 0x0, 0x0}, 0x0},
    {"setp.gt.u16", "P a16 a16", {0xfffe, 0x7fff, 0x0, 0x0}, 0x1},
    {"setp.ge.u16", "P a16 a16", {0x80, 0x1, 0x0, 0x0}, 0x1},
    {"setp.lo.u16", "P a16 a16", {0x7f, 0xffff, 0x0, 0x0}, 0x1},
    {"setp.ls.u16", "P a16 a16", {0x1, 0x0, 0x0, 0x0}, 0x0},
    {"setp.hi.u16", "P a16 a16", {0x1234, 0xffff, 0x0, 0x0}, 0x0},
    {"setp.hs.u16", "P a16 a16", {0xff, 0xff, 0x0, 0x0}, 0x1},
    {"setp.eq.s16", "P a16 a16", {0x0, 0xff, 0x0, 0x0}, 0x0},
    {"setp.ne.s16", "P a16 a16", {0x7f, 0x7f, 0x0, 0x0}, 0x0},
    {"setp.lt.s16", "P a16 a16", {0x2, 0xffff, 0x0, 0x0}, 0x0},
    {"setp.le.s16", "P a16 a16", {0x1, 0x8001, 0x0, 0x0}, 0x0},
    {"setp.gt.s16", "P a16 a16", {0x1, 0x8000, 0x0, 0x0}, 0x1},
    {"setp.ge.s16", "P a16 a16", {0x7fff, 0x7fff, 0x0, 0x0}, 0x1},
    {"setp.eq.b32", "P a32 a32", {0x10000, 0x1, 0x0, 0x0}, 0x0},
    {"setp.ne.b32", "P a32 a32", {0xff, 0x3, 0x0, 0x0}, 0x1},
    {"setp.eq.u32", "P a32 a32", {0x100, 0x100, 0x0, 0x0}, 0x1},
    {"setp.ne.u32", "P a32 a32", {0x2, 0x10000, 0x0, 0x0}, 0x1},
    {"setp.lt.u32", "P a32 a32", {0x0, 0x2, 0x0, 0x0}, 0x1},
    {"setp.le.u32", "P a32 a32", {0xffff, 0x10000, 0x0, 0x0}, 0x1},
    {"setp.gt.u32", "P a32 a32", {0x7f, 0x80000000, 0x0, 0x0}, 0x0},
    {"setp.ge.u32", "P a32 a32", {0x3, 0x7f, 0x0, 0x0}, 0x0},
    {"setp.lo.u32", "P a32 a32", {0x7fffffff, 0x10000, 0x0, 0x0}, 0x0},
    {"setp.ls.u32", "P a32 a32", {0x10000, 0x0, 0x0, 0x0}, 0x0},
    {"setp.hi.u32", "P a32 a32", {0x100, 0x10000, 0x0, 0x0}, 0x0},
    {"setp.hs.u32", "P a32 a32", {0x7fffffff, 0x7fffffff, 0x0, 0x0}, 0x1},
    {"setp.eq.s32", "P a32 a32", {0xffff, 0xff, 0x0, 0x0}, 0x0},
    {"setp.ne.s32", "P a32 a32", {0x3, 0xffff, 0x0, 0x0}, 0x1},
    {"setp.lt.s32", "P a32 a32", {0xffff, 0x7fffffff, 0x0, 0x0}, 0x1},
    {"setp.le.s32", "P a32 a32", {0x10000, 0x1, 0x0, 0x0}, 0x0},
    {"setp.gt.s32", "P a32 a32", {0x7fffffff, 0x3, 0x0, 0x0}, 0x1},
    {"setp.ge.s32", "P a32 a32", {0x0, 0x10000, 0x0, 0x0}, 0x0},
    {"setp.eq.b64", "P a64 a64", {0xffffffff, 0x0, 0x0, 0x0}, 0x0},
    {"setp.ne.b64", "P a64 a64", {0xff, 0x1, 0x0, 0x0}, 0x1},
    {"setp.eq.u64", "P a64 a64", {0xfffffffffffffffe, 0x100000000, 0x0, 0x0}, 0x0},
    {"setp.ne.u64", "P a64 a64", {0xffffffffffffffff, 0xfffffffffffffffe, 0x0, 0x0}, 0x1},
    {"setp.lt.u64", "P a64 a64", {0xfffffffffffffffe, 0x0, 0x0, 0x0}, 0x0},
    {"setp.le.u64", "P a64 a64", {0x123456789abcdef0, 0x100000000, 0x0, 0x0}, 0x0},
    {"setp.gt.u64", "P a64 a64", {0xffffffffffffffff, 0x123456789abcdef0, 0x0, 0x0}, 0x1},
    {"setp.ge.u64", "P a64 a64", {0xfffffffffffffffe, 0xfffffffffffffffe, 0x0, 0x0}, 0x1},
    {"setp.lo.u64", "P a64 a64", {0x7fffffffffffffff, 0x100000000, 0x0, 0x0}, 0x0},
    {"setp.ls.u64", "P a64 a64", {0x8000000000000001, 0xffffffff, 0x0, 0x0}, 0x0},
    {"setp.hi.u64", "P a64 a64", {0xffffffff, 0xffffffffffffffff, 0x0, 0x0}, 0x0},
    {"setp.hs.u64", "P a64 a64", {0x1, 0x123456789abcdef0, 0x0, 0x0}, 0x0},
    {"setp.eq.s64", "P a64 a64", {0x2, 0x100000000, 0x0, 0x0}, 0x0},
    {"setp.ne.s64", "P a64 a64", {0xfffffffffffffffe, 0x1, 0x0, 0x0}, 0x1},
    {"setp.lt.s64", "P a64 a64", {0x0, 0x7fffffffffffffff, 0x0, 0x0}, 0x1},
    {"setp.le.s64", "P a64 a64", {0xffffffff, 0x8000000000000000, 0x0, 0x0}, 0x0},
    {"setp.gt.s64", "P a64 a64", {0x0, 0x1, 0x0, 0x0}, 0x0},
    {"setp.ge.s64", "P a64 a64", {0x123456789abcdef0, 0xfffffffffffffffe, 0x0, 0x0}, 0x1},
    {"setp.eq.f32", "P a32 a32", {0xff800000, 0x7fc00000, 0x0, 0x0}, 0x0},
    {"setp.eq.ftz.f32", "P a32 a32", {0x7f800000, 0xffc00000, 0x0, 0x0}, 0x0},
    {"setp.eq.f64", "P a64 a64", {0x10000000000000, 0x7ff8000000000000, 0x0, 0x0}, 0x0},
    {"setp.eq.f16", "P a16 a16", {0x7bff, 0x7c00, 0x0, 0x0}, 0x0},
    {"setp.eq.ftz.f16", "P a16 a16", {0x3ff, 0x0, 0x0, 0x0}, 0x1},
    {"setp.eq.bf16", "P a16 a16", {0xff80, 0x7f80, 0x0, 0x0}, 0x0},
    {"setp.eq.f16x2", "PQ a32 a32", {0x3e00, 0x17e00, 0x0, 0x0}, 0x0},
    {"setp.eq.ftz.f16x2", "PQ a32 a32", {0xbc00bc00, 0x3e007bff, 0x0, 0x0}, 0x0},
    {"setp.eq.bf16x2", "PQ a32 a32", {0x8001ffc0, 0x808001, 0x0, 0x0}, 0x0},
    {"setp.ne.f32", "P a32 a32", {0x40000000, 0x7f800000, 0x0, 0x0}, 0x1},
    {"setp.ne.ftz.f32", "P a32 a32", {0x0, 0xff800000, 0x0, 0x0}, 0x1},
    {"setp.ne.f64", "P a64 a64", {0xfffffffffffff, 0x7ff0000000000000, 0x0, 0x0}, 0x1},
    {"setp.ne.f16", "P a16 a16", {0x3c00, 0x1, 0x0, 0x0}, 0x1},
    {"setp.ne.ftz.f16", "P a16 a16", {0x1, 0x7e00, 0x0, 0x0}, 0x0},
    {"setp.ne.bf16", "P a16 a16", {0xffc0, 0x7f7f, 0x0, 0x0}, 0x0},
    {"setp.ne.f16x2", "PQ a32 a32", {0x7bfffc00, 0x17e00, 0x0, 0x0}, 0x2},
    {"setp.ne.ftz.f16x2", "PQ a32 a32", {0xfc000000, 0x3e007bff, 0x0, 0x0}, 0x3},
    {"setp.ne.bf16x2", "PQ a32 a32", {0x808001, 0x3fc07f7f, 0x0, 0x0}, 0x3},
    {"setp.lt.f32", "P a32 a32", {0x7f7fffff, 0x3fc00000, 0x0, 0x0}, 0x0},
    {"setp.lt.ftz.f32", "P a32 a32", {0xbf800000, 0x1, 0x0, 0x0}, 0x1},
    {"setp.lt.f64", "P a64 a64", {0x8000000000000000, 0x1, 0x0, 0x0}, 0x1},
    {"setp.lt.f16", "P a16 a16", {0x7c01, 0x8001, 0x0, 0x0}, 0x0},
    {"setp.lt.ftz.f16", "P a16 a16", {0xbc00, 0x3e00, 0x0, 0x0}, 0x1},
    {"setp.lt.bf16", "P a16 a16", {0x3f80, 0x8000, 0x0, 0x0}, 0x0},
    {"setp.lt.f16x2", "PQ a32 a32", {0x3c000400, 0x3e007bff, 0x0, 0x0}, 0x3},
    {"setp.lt.ftz.f16x2", "PQ a32 a32", {0x8001fe00, 0x3e007bff, 0x0, 0x0}, 0x2},
    {"setp.lt.bf16x2", "PQ a32 a32", {0x3f800080, 0x17fc0, 0x0, 0x0}, 0x0},
    {"setp.le.f32", "P a32 a32", {0x7fc00000, 0x7f800001, 0x0, 0x0}, 0x0},
    {"setp.le.ftz.f32", "P a32 a32", {0x40000000, 0xffc00000, 0x0, 0x0}, 0x0},
    {"setp.le.f64", "P a64 a64", {0xbff0000000000000, 0xfff8000000000000, 0x0, 0x0}, 0x0},
    {"setp.le.f16", "P a16 a16", {0x7e00, 0x3e00, 0x0, 0x0}, 0x0},
    {"setp.le.ftz.f16", "P a16 a16", {0x8000, 0x7c01, 0x0, 0x0}, 0x0},
    {"setp.le.bf16", "P a16 a16", {0xbf80, 0x7f80, 0x0, 0x0}, 0x1},
    {"setp.le.f16x2", "PQ a32 a32", {0x3ff8000, 0x3e007bff, 0x0, 0x0}, 0x3},
    {"setp.le.ftz.f16x2", "PQ a32 a32", {0x3e007bff, 0xfe003c00, 0x0, 0x0}, 0x0},
    {"setp.le.bf16x2", "PQ a32 a32", {0x3fc07f7f, 0x808001, 0x0, 0x0}, 0x0},
    {"setp.gt.f32", "P a32 a32", {0x1, 0x0, 0x0, 0x0}, 0x1},
    {"setp.gt.ftz.f32", "P a32 a32", {0x7fc00000, 0x1, 0x0, 0x0}, 0x0},
    {"setp.gt.f64", "P a64 a64", {0xfff0000000000000, 0x0, 0x0, 0x0}, 0x0},
    {"setp.gt.f16", "P a16 a16", {0xbc00, 0x8000, 0x0, 0x0}, 0x0},
    {"setp.gt.ftz.f16", "P a16 a16", {0x1, 0x8001, 0x0, 0x0}, 0x0},
    {"setp.gt.bf16", "P a16 a16", {0xffc0, 0x7f7f, 0x0, 0x0}, 0x0},
    {"setp.gt.f16x2", "PQ a32 a32", {0x3e007bff, 0xfe003c00, 0x0, 0x0}, 0x1},
    {"setp.gt.ftz.f16x2", "PQ a32 a32", {0x7c0103ff, 0x3e007bff, 0x0, 0x0}, 0x0},
    {"setp.gt.bf16x2", "PQ a32 a32", {0xffc03f80, 0x808001, 0x0, 0x0}, 0x1},
    {"setp.ge.f32", "P a32 a32", {0x7fc00000, 0x40000000, 0x0, 0x0}, 0x0},
    {"setp.ge.ftz.f32", "P a32 a32", {0x80000001, 0x807fffff, 0x0, 0x0}, 0x1},
    {"setp.ge.f64", "P a64 a64", {0x0, 0x3ff0000000000000, 0x0, 0x0}, 0x0},
    {"setp.ge.f16", "P a16 a16", {0xbc00, 0x8001, 0x0, 0x0}, 0x0},
    {"setp.ge.ftz.f16", "P a16 a16", {0xfc00, 0x8001, 0x0, 0x0}, 0x0},
    {"setp.ge.bf16", "P a16 a16", {0x7f81, 0x8000, 0x0, 0x0}, 0x0},
    {"setp.ge.f16x2", "PQ a32 a32", {0x7bfffc00, 0x17e00, 0x0, 0x0}, 0x2},
    {"setp.ge.ftz.f16x2", "PQ a32 a32", {0xfe003c00, 0x4008001, 0x0, 0x0}, 0x1},
    {"setp.ge.bf16x2", "PQ a32 a32", {0xff800000, 0xff800000, 0x0, 0x0}, 0x3},
    {"setp.equ.f32", "P a32 a32", {0x80000001, 0xff800000, 0x0, 0x0}, 0x0},
    {"setp.equ.ftz.f32", "P a32 a32", {0x7f800001, 0x7fc00000, 0x0, 0x0}, 0x1},
    {"setp.equ.f64", "P a64 a64", {0x7ff0000000000000, 0x3ff0000000000000, 0x0, 0x0}, 0x0},
    {"setp.equ.f16", "P a16 a16", {0x7c01, 0x1, 0x0, 0x0}, 0x1},
    {"setp.equ.ftz.f16", "P a16 a16", {0x8001, 0x3e00, 0x0, 0x0}, 0x0},
    {"setp.equ.bf16", "P a16 a16", {0x7f80, 0x7f80, 0x0, 0x0}, 0x1},
    {"setp.equ.f16x2", "PQ a32 a32", {0x7c0103ff, 0x4008001, 0x0, 0x0}, 0x2},
    {"setp.equ.ftz.f16x2", "PQ a32 a32", {0x3e007bff, 0xfc000000, 0x0, 0x0}, 0x0},
    {"setp.equ.bf16x2", "PQ a32 a32", {0x7f7fff80, 0xffc03f80, 0x0, 0x0}, 0x2},
    {"setp.neu.f32", "P a32 a32", {0xff800000, 0x7f7fffff, 0x0, 0x0}, 0x1},
    {"setp.neu.ftz.f32", "P a32 a32", {0xff800000, 0x0, 0x0, 0x0}, 0x1},
    {"setp.neu.f64", "P a64 a64", {0x8000000000000000, 0xfff0000000000000, 0x0, 0x0}, 0x1},
    {"setp.neu.f16", "P a16 a16", {0x400, 0x3e00, 0x0, 0x0}, 0x1},
    {"setp.neu.ftz.f16", "P a16 a16", {0x0, 0x1, 0x0, 0x0}, 0x0},
    {"setp.neu.bf16", "P a16 a16", {0x7f80, 0xff80, 0x0, 0x0}, 0x1},
    {"setp.neu.f16x2", "PQ a32 a32", {0x7e000001, 0x4008001, 0x0, 0x0}, 0x3},
    {"setp.neu.ftz.f16x2", "PQ a32 a32", {0x17e00, 0xfc000000, 0x0, 0x0}, 0x3},
    {"setp.neu.bf16x2", "PQ a32 a32", {0x7fc00001, 0x3fc07f7f, 0x0, 0x0}, 0x3},
    {"setp.ltu.f32", "P a32 a32", {0x80000000, 0xbf800000, 0x0, 0x0}, 0x0},
    {"setp.ltu.ftz.f32", "P a32 a32", {0xffc00000, 0x807fffff, 0x0, 0x0}, 0x1},
    {"setp.ltu.f64", "P a64 a64", {0x7fefffffffffffff, 0x10000000000000, 0x0, 0x0}, 0x0},
    {"setp.ltu.f16", "P a16 a16", {0x1, 0x3c00, 0x0, 0x0}, 0x1},
    {"setp.ltu.ftz.f16", "P a16 a16", {0x7c00, 0x3c00, 0x0, 0x0}, 0x0},
    {"setp.ltu.bf16", "P a16 a16", {0x7fc0, 0x8000, 0x0, 0x0}, 0x1},
    {"setp.ltu.f16x2", "PQ a32 a32", {0x3e00, 0x17e00, 0x0, 0x0}, 0x3},
    {"setp.ltu.ftz.f16x2", "PQ a32 a32", {0x4008001, 0x17e00, 0x0, 0x0}, 0x1},
    {"setp.ltu.bf16x2", "PQ a32 a32", {0x3fc07f7f, 0x3fc07f7f, 0x0, 0x0}, 0x0},
    {"setp.leu.f32", "P a32 a32", {0xff800000, 0x7f800001, 0x0, 0x0}, 0x1},
    {"setp.leu.ftz.f32", "P a32 a32", {0x80000000, 0x7fffffff, 0x0, 0x0}, 0x1},
    {"setp.leu.f64", "P a64 a64", {0x7fefffffffffffff, 0x8000000000000000, 0x0, 0x0}, 0x0},
    {"setp.leu.f16", "P a16 a16", {0x0, 0x7c01, 0x0, 0x0}, 0x1},
    {"setp.leu.ftz.f16", "P a16 a16", {0x3c00, 0x1, 0x0, 0x0}, 0x0},
    {"setp.leu.bf16", "P a16 a16", {0x80, 0x7f80, 0x0, 0x0}, 0x1},
    {"setp.leu.f16x2", "PQ a32 a32", {0x3c000400, 0xfc000000, 0x0, 0x0}, 0x0},
    {"setp.leu.ftz.f16x2", "PQ a32 a32", {0x8001fe00, 0xfc000000, 0x0, 0x0}, 0x1},
    {"setp.leu.bf16x2", "PQ a32 a32", {0x80007f80, 0xffc03f80, 0x0, 0x0}, 0x2},
    {"setp.gtu.f32", "P a32 a32", {0x7fffff, 0x80000000, 0x0, 0x0}, 0x1},
    {"setp.gtu.ftz.f32", "P a32 a32", {0x1, 0xbf800000, 0x0, 0x0}, 0x1},
    {"setp.gtu.f64", "P a64 a64", {0x7fefffffffffffff, 0x8000000000000001, 0x0, 0x0}, 0x1},
    {"setp.gtu.f16", "P a16 a16", {0x7e00, 0x3c00, 0x0, 0x0}, 0x1},
    {"setp.gtu.ftz.f16", "P a16 a16", {0x0, 0x0, 0x0, 0x0}, 0x0},
    {"setp.gtu.bf16", "P a16 a16", {0x1, 0x7fc0, 0x0, 0x0}, 0x1},
    {"setp.gtu.f16x2", "PQ a32 a32", {0x17e00, 0xfe003c00, 0x0, 0x0}, 0x3},
    {"setp.gtu.ftz.f16x2", "PQ a32 a32", {0xbc00bc00, 0x17e00, 0x0, 0x0}, 0x1},
    {"setp.gtu.bf16x2", "PQ a32 a32", {0x3f800080, 0x17fc0, 0x0, 0x0}, 0x3},
    {"setp.geu.f32", "P a32 a32", {0xbf800000, 0xffc00000, 0x0, 0x0}, 0x1},
    {"setp.geu.ftz.f32", "P a32 a32", {0x7fffff, 0xbf800000, 0x0, 0x0}, 0x1},
    {"setp.geu.f64", "P a64 a64", {0xfffffffffffff, 0xfffffffffffff, 0x0, 0x0}, 0x1},
    {"setp.geu.f16", "P a16 a16", {0xfe00, 0xfc00, 0x0, 0x0}, 0x1},
    {"setp.geu.ftz.f16", "P a16 a16", {0x3ff, 0x400, 0x0, 0x0}, 0x0},
    {"setp.geu.bf16", "P a16 a16", {0x7fc0, 0x8000, 0x0, 0x0}, 0x1},
    {"setp.geu.f16x2", "PQ a32 a32", {0x3ff8000, 0xfc000000, 0x0, 0x0}, 0x3},
    {"setp.geu.ftz.f16x2", "PQ a32 a32", {0x7c0103ff, 0x17e00, 0x0, 0x0}, 0x3},
    {"setp.geu.bf16x2", "PQ a32 a32", {0x80007f80, 0xffc03f80, 0x0, 0x0}, 0x3},
    {"setp.num.f32", "P a32 a32", {0xff800000, 0x1, 0x0, 0x0}, 0x1},
    {"setp.num.ftz.f32", "P a32 a32", {0x800000, 0x80000001, 0x0, 0x0}, 0x1},
    {"setp.num.f64", "P a64 a64", {0x7ff0000000000000, 0x7ff0000000000000, 0x0, 0x0}, 0x1},
    {"setp.num.f16", "P a16 a16", {0x7bff, 0x7bff, 0x0, 0x0}, 0x1},
    {"setp.num.ftz.f16", "P a16 a16", {0x8000, 0x7e00, 0x0, 0x0}, 0x0},
    {"setp.num.bf16", "P a16 a16", {0x3fc0, 0x1, 0x0, 0x0}, 0x1},
    {"setp.num.f16x2", "PQ a32 a32", {0x7c0103ff, 0xfe003c00, 0x0, 0x0}, 0x1},
    {"setp.num.ftz.f16x2", "PQ a32 a32", {0x3e00, 0x4008001, 0x0, 0x0}, 0x3},
    {"setp.num.bf16x2", "PQ a32 a32", {0x7f8000, 0xffc03f80, 0x0, 0x0}, 0x1},
    {"setp.nan.f32", "P a32 a32", {0x3f800000, 0x807fffff, 0x0, 0x0}, 0x0},
    {"setp.nan.ftz.f32", "P a32 a32", {0x3fc00000, 0x7fffff, 0x0, 0x0}, 0x0},
    {"setp.nan.f64", "P a64 a64", {0x8000000000000000, 0xfffffffffffff, 0x0, 0x0}, 0x0},
    {"setp.nan.f16", "P a16 a16", {0xbc00, 0x7c00, 0x0, 0x0}, 0x0},
    {"setp.nan.ftz.f16", "P a16 a16", {0x8001, 0x7c00, 0x0, 0x0}, 0x0},
    {"setp.nan.bf16", "P a16 a16", {0x8001, 0x0, 0x0, 0x0}, 0x0},
    {"setp.nan.f16x2", "PQ a32 a32", {0x80007c00, 0xfe003c00, 0x0, 0x0}, 0x2},
    {"setp.nan.ftz.f16x2", "PQ a32 a32", {0xbc00bc00, 0xfe003c00, 0x0, 0x0}, 0x2},
    {"setp.nan.bf16x2", "PQ a32 a32", {0xbf80bf80, 0x3fc07f7f, 0x0, 0x0}, 0x0},
    {"setp.lt.f16x2", "P a32 a32", {0xfe003c00, 0xfc000000, 0x0, 0x0}, 0x0},
    {"setp.lt.bf16x2", "P a32 a32", {0x3fc0, 0xffc03f80, 0x0, 0x0}, 0x0},
    {"setp.lt.and.s32", "PQ a32 a32 p", {0x1, 0x0, 0x0, 0x0}, 0x0},
    {"setp.lt.and.s32", "PQ a32 a32 !p", {0x100, 0x80, 0x0, 0x0}, 0x2},
    {"setp.ltu.and.f32", "PQ a32 a32 !p", {0xbf800000, 0x3fc00000, 0x1, 0x0}, 0x0},
    {"setp.gt.and.f16x2", "PQ a32 a32 p", {0xbc00bc00, 0xfc000000, 0x0, 0x0}, 0x0},
    {"setp.ge.and.f16", "P a16 a16 !p", {0xfe00, 0x3ff, 0x1, 0x0}, 0x0},
    {"setp.lt.or.s32", "PQ a32 a32 p", {0x2, 0x3, 0x1, 0x0}, 0x3},
    {"setp.lt.or.s32", "PQ a32 a32 !p", {0x1, 0x100, 0x1, 0x0}, 0x1},
    {"setp.ltu.or.f32", "PQ a32 a32 !p", {0xffc00000, 0xffc00000, 0x1, 0x0}, 0x1},
    {"setp.gt.or.f16x2", "PQ a32 a32 p", {0x7e000001, 0x80007c00, 0x0, 0x0}, 0x0},
    {"setp.ge.or.f16", "P a16 a16 !p", {0x7c01, 0x7bff, 0x0, 0x0}, 0x1},
    {"setp.lt.xor.s32", "PQ a32 a32 p", {0x7f, 0x80, 0x0, 0x0}, 0x1},
    {"setp.lt.xor.s32", "PQ a32 a32 !p", {0x1, 0xff, 0x1, 0x0}, 0x1},
    {"setp.ltu.xor.f32", "PQ a32 a32 !p", {0x7fffffff, 0x3fc00000, 0x0, 0x0}, 0x2},
    {"setp.gt.xor.f16x2", "PQ a32 a32 p", {0xfc000000, 0x80007c00, 0x1, 0x0}, 0x3},
    {"setp.ge.xor.f16", "P a16 a16 !p", {0x7c01, 0x3e00, 0x1, 0x0}, 0x0},
    {"setp.lt.s32", "_Q a32 a32", {0x3, 0x100, 0x0, 0x0}, 0x0},
    {"setp.lt.s32", "P_ a32 a32", {0x2, 0x7f, 0x0, 0x0}, 0x1},
    {"setp.lt.and.u32", "_Q a32 a32 p", {0x2, 0x2, 0x1, 0x0}, 0x2},
    {"set.lt.u32.f32", "d32 a32 a32", {0x80000001, 0x7fffff, 0x0, 0x0}, 0xffffffff},
    {"set.lt.ftz.u32.f32", "d32 a32 a32", {0x0, 0xbf800000, 0x0, 0x0}, 0x0},
    {"set.lt.u32.f64", "d32 a64 a64", {0xfff8000000000000, 0x8000000000000001, 0x0, 0x0}, 0x0},
    {"set.lt.s32.f32", "d32 a32 a32", {0x7f7fffff, 0x7f800001, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.s32.f32", "d32 a32 a32", {0x3fc00000, 0xff800000, 0x0, 0x0}, 0x0},
    {"set.lt.s32.f64", "d32 a64 a64", {0x0, 0xfffffffffffff, 0x0, 0x0}, 0xffffffff},
    {"set.lt.f32.f32", "d32 a32 a32", {0x3f800000, 0x80000001, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.f32.f32", "d32 a32 a32", {0x80000000, 0x7fc00000, 0x0, 0x0}, 0x0},
    {"set.lt.f32.f64", "d32 a64 a64", {0x7ff8000000000000, 0x10000000000000, 0x0, 0x0}, 0x0},
    {"set.lt.u16.f16", "d16 a16 a16", {0x3c00, 0x3ff, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.u16.f16", "d16 a16 a16", {0x7bff, 0x7c01, 0x0, 0x0}, 0x0},
    {"set.lt.s16.f16", "d16 a16 a16", {0x400, 0x8001, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.s16.f16", "d16 a16 a16", {0x3c00, 0x7e00, 0x0, 0x0}, 0x0},
    {"set.lt.f16.f16", "d16 a16 a16", {0x7c01, 0x0, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.f16.f16", "d16 a16 a16", {0x7bff, 0x3ff, 0x0, 0x0}, 0x0},
    {"set.lt.u32.f16", "d32 a16 a16", {0x3e00, 0x3c00, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.u32.f16", "d32 a16 a16", {0x7e00, 0x8000, 0x0, 0x0}, 0x0},
    {"set.lt.s32.f16", "d32 a16 a16", {0x400, 0x3c00, 0x0, 0x0}, 0xffffffff},
    {"set.lt.ftz.s32.f16", "d32 a16 a16", {0x8001, 0xfc00, 0x0, 0x0}, 0x0},
    {"set.lt.u16.bf16", "d16 a16 a16", {0x7f80, 0xbf80, 0x0, 0x0}, 0x0},
    {"set.lt.s16.bf16", "d16 a16 a16", {0x7f, 0x8001, 0x0, 0x0}, 0x0},
    {"set.lt.bf16.bf16", "d16 a16 a16", {0x3f80, 0x7f, 0x0, 0x0}, 0x0},
    {"set.lt.u32.bf16", "d32 a16 a16", {0x1, 0xbf80, 0x0, 0x0}, 0x0},
    {"set.lt.s32.bf16", "d32 a16 a16", {0x7fc0, 0x3fc0, 0x0, 0x0}, 0x0},
    {"set.lt.f16x2.f16x2", "d32 a32 a32", {0x4008001, 0x3e007bff, 0x0, 0x0}, 0x3c003c00},
    {"set.lt.ftz.f16x2.f16x2", "d32 a32 a32", {0x80007c00, 0xfe003c00, 0x0, 0x0}, 0x0},
    {"set.lt.u32.f16x2", "d32 a32 a32", {0x7c0103ff, 0x17e00, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.u32.f16x2", "d32 a32 a32", {0x7bfffc00, 0x3e007bff, 0x0, 0x0}, 0xffff},
    {"set.lt.s32.f16x2", "d32 a32 a32", {0x7e000001, 0xfc000000, 0x0, 0x0}, 0x0},
    {"set.lt.ftz.s32.f16x2", "d32 a32 a32", {0x7c007c01, 0xfe003c00, 0x0, 0x0}, 0x0},
    {"set.lt.bf16x2.bf16x2", "d32 a32 a32", {0x7f7fff80, 0x17fc0, 0x0, 0x0}, 0x0},
    {"set.lt.u32.bf16x2", "d32 a32 a32", {0x7f807f81, 0xffc03f80, 0x0, 0x0}, 0x0},
    {"set.lt.s32.bf16x2", "d32 a32 a32", {0x7f81007f, 0xffc03f80, 0x0, 0x0}, 0xffff},
    {"set.lt.f16.f32", "d16 a32 a32", {0x0, 0x40000000, 0x0, 0x0}, 0x3c00},
    {"set.lt.ftz.f16.f32", "d16 a32 a32", {0x7f800001, 0x40000000, 0x0, 0x0}, 0x0},
    {"set.lt.bf16.f64", "d16 a64 a64", {0xfffffffffffff, 0xfff0000000000000, 0x0, 0x0}, 0x0},
    {"set.lt.bf16.f16", "d16 a16 a16", {0x7e00, 0x400, 0x0, 0x0}, 0x0},
    {"set.eq.u32.f32", "d32 a32 a32", {0x7f800000, 0x7f800000, 0x0, 0x0}, 0xffffffff},
    {"set.eq.ftz.u32.f32", "d32 a32 a32", {0x40000000, 0x7fffff, 0x0, 0x0}, 0x0},
    {"set.eq.u32.f64", "d32 a64 a64", {0x7ff8000000000000, 0x8000000000000001, 0x0, 0x0}, 0x0},
    {"set.eq.s32.f32", "d32 a32 a32", {0x7f800000, 0x7fffffff, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.s32.f32", "d32 a32 a32", {0x40000000, 0xbf800000, 0x0, 0x0}, 0x0},
    {"set.eq.s32.f64", "d32 a64 a64", {0x0, 0x8000000000000000, 0x0, 0x0}, 0xffffffff},
    {"set.eq.f32.f32", "d32 a32 a32", {0x1, 0x7fc00000, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.f32.f32", "d32 a32 a32", {0x40000000, 0xff800000, 0x0, 0x0}, 0x0},
    {"set.eq.f32.f64", "d32 a64 a64", {0x0, 0x0, 0x0, 0x0}, 0x3f800000},
    {"set.eq.u16.f16", "d16 a16 a16", {0x8000, 0x7bff, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.u16.f16", "d16 a16 a16", {0x8000, 0x7c00, 0x0, 0x0}, 0x0},
    {"set.eq.s16.f16", "d16 a16 a16", {0x1, 0x0, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.s16.f16", "d16 a16 a16", {0x3e00, 0x3e00, 0x0, 0x0}, 0xffff},
    {"set.eq.f16.f16", "d16 a16 a16", {0x3ff, 0x7c01, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.f16.f16", "d16 a16 a16", {0x8000, 0xfc00, 0x0, 0x0}, 0x0},
    {"set.eq.u32.f16", "d32 a16 a16", {0x3c00, 0x8000, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.u32.f16", "d32 a16 a16", {0x7c00, 0x400, 0x0, 0x0}, 0x0},
    {"set.eq.s32.f16", "d32 a16 a16", {0xfe00, 0x3e00, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.s32.f16", "d32 a16 a16", {0x8000, 0x3c00, 0x0, 0x0}, 0x0},
    {"set.eq.u16.bf16", "d16 a16 a16", {0x8000, 0x80, 0x0, 0x0}, 0x0},
    {"set.eq.s16.bf16", "d16 a16 a16", {0x3fc0, 0x7f81, 0x0, 0x0}, 0x0},
    {"set.eq.bf16.bf16", "d16 a16 a16", {0x3f80, 0x1, 0x0, 0x0}, 0x0},
    {"set.eq.u32.bf16", "d32 a16 a16", {0x80, 0x80, 0x0, 0x0}, 0xffffffff},
    {"set.eq.s32.bf16", "d32 a16 a16", {0x8000, 0x7f80, 0x0, 0x0}, 0x0},
    {"set.eq.f16x2.f16x2", "d32 a32 a32", {0x4008001, 0xfc000000, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.f16x2.f16x2", "d32 a32 a32", {0x3e007bff, 0xfc000000, 0x0, 0x0}, 0x0},
    {"set.eq.u32.f16x2", "d32 a32 a32", {0x4008001, 0x3e007bff, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.u32.f16x2", "d32 a32 a32", {0x8001fe00, 0xfe003c00, 0x0, 0x0}, 0x0},
    {"set.eq.s32.f16x2", "d32 a32 a32", {0xbc00bc00, 0x4008001, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.s32.f16x2", "d32 a32 a32", {0x3ff8000, 0xfe003c00, 0x0, 0x0}, 0x0},
    {"set.eq.bf16x2.bf16x2", "d32 a32 a32", {0x3fc07f7f, 0x808001, 0x0, 0x0}, 0x0},
    {"set.eq.u32.bf16x2", "d32 a32 a32", {0x8001ffc0, 0x3fc07f7f, 0x0, 0x0}, 0x0},
    {"set.eq.s32.bf16x2", "d32 a32 a32", {0xffc03f80, 0x808001, 0x0, 0x0}, 0x0},
    {"set.eq.f16.f32", "d16 a32 a32", {0x3fc00000, 0x7f7fffff, 0x0, 0x0}, 0x0},
    {"set.eq.ftz.f16.f32", "d16 a32 a32", {0x40000000, 0x7f800000, 0x0, 0x0}, 0x0},
    {"set.eq.bf16.f64", "d16 a64 a64", {0xfffffffffffff, 0xfff0000000000000, 0x0, 0x0}, 0x0},
    {"set.eq.bf16.f16", "d16 a16 a16", {0x7c01, 0x8001, 0x0, 0x0}, 0x0},
    {"set.ne.u32.f32", "d32 a32 a32", {0x80000000, 0x7f800001, 0x0, 0x0}, 0x0},
    {"set.ne.ftz.u32.f32", "d32 a32 a32", {0x7fc00000, 0x807fffff, 0x0, 0x0}, 0x0},
    {"set.ne.u32.f64", "d32 a64 a64", {0x10000000000000, 0xfffffffffffff, 0x0, 0x0}, 0xffffffff},
    {"set.ne.s32.f32", "d32 a32 a32", {0x40000000, 0x7fffff, 0x0, 0x0}, 0xffffffff},
    {"set.ne.ftz.s32.f32", "d32 a32 a32", {0x7fffffff, 0x7f800001, 0x0, 0x0}, 0x0},
    {"set.ne.s32.f64", "d32 a64 a64", {0x0, 0x0, 0x0, 0x0}, 0x0},
    {"set.ne.f32.f32", "d32 a32 a32", {0x7f7fffff, 0x7f800001, 0x0, 0x0}, 0x0},
    {"set.ne.ftz.f32.f32", "d32 a32 a32", {0x80000001, 0x7f800001, 0x0, 0x0}, 0x0},
    {"set.ne.f32.f64",
     "d32 a64 a64",
     {0xbff0000000000000, 0xfff0000000000000, 0x0, 0x0},
     0x3f800000},
    {"set.ne.u16.f16", "d16 a16 a16", {0x3ff, 0xbc00, 0x0, 0x0}, 0xffff},
    {"set.ne.ftz.u16.f16", "d16 a16 a16", {0xfc00, 0xbc00, 0x0, 0x0}, 0xffff},
    {"set.ne.s16.f16", "d16 a16 a16", {0x3ff, 0x7e00, 0x0, 0x0}, 0x0},
    {"set.ne.ftz.s16.f16", "d16 a16 a16", {0x7bff, 0x7c01, 0x0, 0x0}, 0x0},
    {"set.ne.f16.f16", "d16 a16 a16", {0xfc00, 0x3ff, 0x0, 0x0}, 0x3c00},
    {"set.ne.ftz.f16.f16", "d16 a16 a16", {0x7bff, 0x0, 0x0, 0x0}, 0x3c00},
    {"set.ne.u32.f16", "d32 a16 a16", {0x1, 0x400, 0x0, 0x0}, 0xffffffff},
    {"set.ne.ftz.u32.f16", "d32 a16 a16", {0x7c00, 0x3ff, 0x0, 0x0}, 0xffffffff},
    {"set.ne.s32.f16", "d32 a16 a16", {0x400, 0x1, 0x0, 0x0}, 0xffffffff},
    {"set.ne.ftz.s32.f16", "d32 a16 a16", {0x3ff, 0xfc00, 0x0, 0x0}, 0xffffffff},
    {"set.ne.u16.bf16", "d16 a16 a16", {0x7f7f, 0x3f80, 0x0, 0x0}, 0xffff},
    {"set.ne.s16.bf16", "d16 a16 a16", {0x8000, 0x3fc0, 0x0, 0x0}, 0xffff},
    {"set.ne.bf16.bf16", "d16 a16 a16", {0x1, 0x3f80, 0x0, 0x0}, 0x3f80},
    {"set.ne.u32.bf16", "d32 a16 a16", {0x8000, 0x8000, 0x0, 0x0}, 0x0},
    {"set.ne.s32.bf16", "d32 a16 a16", {0x3f80, 0x7f, 0x0, 0x0}, 0xffffffff},
    {"set.ne.f16x2.f16x2", "d32 a32 a32", {0x3e007bff, 0xfc000000, 0x0, 0x0}, 0x3c003c00},
    {"set.ne.ftz.f16x2.f16x2", "d32 a32 a32", {0x7e000001, 0x3e007bff, 0x0, 0x0}, 0x3c00},
    {"set.ne.u32.f16x2", "d32 a32 a32", {0x80007c00, 0x4008001, 0x0, 0x0}, 0xffffffff},
    {"set.ne.ftz.u32.f16x2", "d32 a32 a32", {0x3e00, 0x3e007bff, 0x0, 0x0}, 0xffffffff},
    {"set.ne.s32.f16x2", "d32 a32 a32", {0x3e00, 0xfe003c00, 0x0, 0x0}, 0xffff},
    {"set.ne.ftz.s32.f16x2", "d32 a32 a32", {0x3e007bff, 0xfe003c00, 0x0, 0x0}, 0xffff},
    {"set.ne.bf16x2.bf16x2", "d32 a32 a32", {0x3fc07f7f, 0xffc03f80, 0x0, 0x0}, 0x3f80},
    {"set.ne.u32.bf16x2", "d32 a32 a32", {0x7f807f81, 0x3fc07f7f, 0x0, 0x0}, 0xffff0000},
    {"set.ne.s32.bf16x2", "d32 a32 a32", {0x7f7fff80, 0x3fc07f7f, 0x0, 0x0}, 0xffffffff},
    {"set.ne.f16.f32", "d16 a32 a32", {0x1, 0x7fffff, 0x0, 0x0}, 0x3c00},
    {"set.ne.ftz.f16.f32", "d16 a32 a32", {0x3fc00000, 0x800000, 0x0, 0x0}, 0x3c00},
    {"set.ne.bf16.f64", "d16 a64 a64", {0xfff8000000000000, 0x10000000000000, 0x0, 0x0}, 0x0},
    {"set.ne.bf16.f16", "d16 a16 a16", {0x400, 0xfe00, 0x0, 0x0}, 0x0},
    {"set.ltu.u32.f32", "d32 a32 a32", {0x3fc00000, 0x7f800001, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.ftz.u32.f32", "d32 a32 a32", {0x800000, 0xbf800000, 0x0, 0x0}, 0x0},
    {"set.ltu.u32.f64", "d32 a64 a64", {0x7ff0000000000000, 0xfff0000000000000, 0x0, 0x0}, 0x0},
    {"set.ltu.s32.f32", "d32 a32 a32", {0x800000, 0x80000000, 0x0, 0x0}, 0x0},
    {"set.ltu.ftz.s32.f32", "d32 a32 a32", {0x7f800001, 0x3f800000, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.s32.f64",
     "d32 a64 a64",
     {0x8000000000000001, 0x3ff0000000000000, 0x0, 0x0},
     0xffffffff},
    {"set.ltu.f32.f32", "d32 a32 a32", {0x3fc00000, 0x0, 0x0, 0x0}, 0x0},
    {"set.ltu.ftz.f32.f32", "d32 a32 a32", {0x7fc00000, 0x80000000, 0x0, 0x0}, 0x3f800000},
    {"set.ltu.f32.f64", "d32 a64 a64", {0x7ff0000000000000, 0x0, 0x0, 0x0}, 0x0},
    {"set.ltu.u16.f16", "d16 a16 a16", {0x7bff, 0x0, 0x0, 0x0}, 0x0},
    {"set.ltu.ftz.u16.f16", "d16 a16 a16", {0xbc00, 0x400, 0x0, 0x0}, 0xffff},
    {"set.ltu.s16.f16", "d16 a16 a16", {0x8000, 0x8000, 0x0, 0x0}, 0x0},
    {"set.ltu.ftz.s16.f16", "d16 a16 a16", {0x7c00, 0x0, 0x0, 0x0}, 0x0},
    {"set.ltu.f16.f16", "d16 a16 a16", {0x7c01, 0x7bff, 0x0, 0x0}, 0x3c00},
    {"set.ltu.ftz.f16.f16", "d16 a16 a16", {0x7e00, 0x3c00, 0x0, 0x0}, 0x3c00},
    {"set.ltu.u32.f16", "d32 a16 a16", {0x1, 0x3ff, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.ftz.u32.f16", "d32 a16 a16", {0x3c00, 0x0, 0x0, 0x0}, 0x0},
    {"set.ltu.s32.f16", "d32 a16 a16", {0x7bff, 0x7c01, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.ftz.s32.f16", "d32 a16 a16", {0xbc00, 0x3ff, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.u16.bf16", "d16 a16 a16", {0x1, 0x7fc0, 0x0, 0x0}, 0xffff},
    {"set.ltu.s16.bf16", "d16 a16 a16", {0x8000, 0xbf80, 0x0, 0x0}, 0x0},
    {"set.ltu.bf16.bf16", "d16 a16 a16", {0x7f80, 0x8000, 0x0, 0x0}, 0x0},
    {"set.ltu.u32.bf16", "d32 a16 a16", {0x7f, 0x0, 0x0, 0x0}, 0x0},
    {"set.ltu.s32.bf16", "d32 a16 a16", {0x8000, 0x8000, 0x0, 0x0}, 0x0},
    {"set.ltu.f16x2.f16x2", "d32 a32 a32", {0xfc000000, 0x17e00, 0x0, 0x0}, 0x3c003c00},
    {"set.ltu.ftz.f16x2.f16x2", "d32 a32 a32", {0x3c000400, 0x17e00, 0x0, 0x0}, 0x3c00},
    {"set.ltu.u32.f16x2", "d32 a32 a32", {0x3c000400, 0x3e007bff, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.ftz.u32.f16x2", "d32 a32 a32", {0x7e000001, 0xfc000000, 0x0, 0x0}, 0xffff0000},
    {"set.ltu.s32.f16x2", "d32 a32 a32", {0x7c007c01, 0xfe003c00, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.ftz.s32.f16x2", "d32 a32 a32", {0x7bfffc00, 0xfe003c00, 0x0, 0x0}, 0xffffffff},
    {"set.ltu.bf16x2.bf16x2", "d32 a32 a32", {0x8001ffc0, 0x17fc0, 0x0, 0x0}, 0x3f803f80},
    {"set.ltu.u32.bf16x2", "d32 a32 a32", {0x3f800080, 0x808001, 0x0, 0x0}, 0x0},
    {"set.ltu.s32.bf16x2", "d32 a32 a32", {0xff800000, 0x808001, 0x0, 0x0}, 0xffff0000},
    {"set.ltu.f16.f32", "d16 a32 a32", {0x807fffff, 0x3f800000, 0x0, 0x0}, 0x3c00},
    {"set.ltu.ftz.f16.f32", "d16 a32 a32", {0x1, 0x7f800001, 0x0, 0x0}, 0x3c00},
    {"set.ltu.bf16.f64", "d16 a64 a64", {0x1, 0xbff0000000000000, 0x0, 0x0}, 0x0},
    {"set.ltu.bf16.f16", "d16 a16 a16", {0x3c00, 0x3c00, 0x0, 0x0}, 0x0},
    {"set.nan.u32.f32", "d32 a32 a32", {0x3fc00000, 0x0, 0x0, 0x0}, 0x0},
    {"set.nan.ftz.u32.f32", "d32 a32 a32", {0x3fc00000, 0x0, 0x0, 0x0}, 0x0},
    {"set.nan.u32.f64", "d32 a64 a64", {0xbff0000000000000, 0xfffffffffffff, 0x0, 0x0}, 0x0},
    {"set.nan.s32.f32", "d32 a32 a32", {0x807fffff, 0x0, 0x0, 0x0}, 0x0},
    {"set.nan.ftz.s32.f32", "d32 a32 a32", {0x7f7fffff, 0x807fffff, 0x0, 0x0}, 0x0},
    {"set.nan.s32.f64", "d32 a64 a64", {0x10000000000000, 0x7fefffffffffffff, 0x0, 0x0}, 0x0},
    {"set.nan.f32.f32", "d32 a32 a32", {0x3fc00000, 0xffc00000, 0x0, 0x0}, 0x3f800000},
    {"set.nan.ftz.f32.f32", "d32 a32 a32", {0x3f800000, 0x3f800000, 0x0, 0x0}, 0x0},
    {"set.nan.f32.f64", "d32 a64 a64", {0x8000000000000000, 0x8000000000000000, 0x0, 0x0}, 0x0},
    {"set.nan.u16.f16", "d16 a16 a16", {0x1, 0x8001, 0x0, 0x0}, 0x0},
    {"set.nan.ftz.u16.f16", "d16 a16 a16", {0x8000, 0x7c01, 0x0, 0x0}, 0xffff},
    {"set.nan.s16.f16", "d16 a16 a16", {0xfe00, 0x7c01, 0x0, 0x0}, 0xffff},
    {"set.nan.ftz.s16.f16", "d16 a16 a16", {0x7bff, 0x1, 0x0, 0x0}, 0x0},
    {"set.nan.f16.f16", "d16 a16 a16", {0x8000, 0x8001, 0x0, 0x0}, 0x0},
    {"set.nan.ftz.f16.f16", "d16 a16 a16", {0xbc00, 0x7e00, 0x0, 0x0}, 0x3c00},
    {"set.nan.u32.f16", "d32 a16 a16", {0x0, 0xfe00, 0x0, 0x0}, 0xffffffff},
    {"set.nan.ftz.u32.f16", "d32 a16 a16", {0x7c00, 0xfc00, 0x0, 0x0}, 0x0},
    {"set.nan.s32.f16", "d32 a16 a16", {0x8001, 0x7e00, 0x0, 0x0}, 0xffffffff},
    {"set.nan.ftz.s32.f16", "d32 a16 a16", {0x0, 0x0, 0x0, 0x0}, 0x0},
    {"set.nan.u16.bf16", "d16 a16 a16", {0x7f80, 0x3fc0, 0x0, 0x0}, 0x0},
    {"set.nan.s16.bf16", "d16 a16 a16", {0xffc0, 0x0, 0x0, 0x0}, 0xffff},
    {"set.nan.bf16.bf16", "d16 a16 a16", {0x3f80, 0xffc0, 0x0, 0x0}, 0x3f80},
    {"set.nan.u32.bf16", "d32 a16 a16", {0x8000, 0x0, 0x0, 0x0}, 0x0},
    {"set.nan.s32.bf16", "d32 a16 a16", {0xff80, 0x80, 0x0, 0x0}, 0x0},
    {"set.nan.f16x2.f16x2", "d32 a32 a32", {0xfc000000, 0x3e007bff, 0x0, 0x0}, 0x0},
    {"set.nan.ftz.f16x2.f16x2", "d32 a32 a32", {0x17e00, 0x17e00, 0x0, 0x0}, 0x3c00},
    {"set.nan.u32.f16x2", "d32 a32 a32", {0x3e00, 0xfe003c00, 0x0, 0x0}, 0xffff0000},
    {"set.nan.ftz.u32.f16x2", "d32 a32 a32", {0xfc000000, 0x3e007bff, 0x0, 0x0}, 0x0},
    {"set.nan.s32.f16x2", "d32 a32 a32", {0x3e007bff, 0x4008001, 0x0, 0x0}, 0x0},
    {"set.nan.ftz.s32.f16x2", "d32 a32 a32", {0x3e007bff, 0xfe003c00, 0x0, 0x0}, 0xffff0000},
    {"set.nan.bf16x2.bf16x2", "d32 a32 a32", {0x3f800080, 0x808001, 0x0, 0x0}, 0x0},
    {"set.nan.u32.bf16x2", "d32 a32 a32", {0x3fc0, 0xffc03f80, 0x0, 0x0}, 0xffff0000},
    {"set.nan.s32.bf16x2", "d32 a32 a32", {0xbf80bf80, 0x3fc07f7f, 0x0, 0x0}, 0x0},
    {"set.nan.f16.f32", "d16 a32 a32", {0x3fc00000, 0xbf800000, 0x0, 0x0}, 0x0},
    {"set.nan.ftz.f16.f32", "d16 a32 a32", {0x80000000, 0x3f800000, 0x0, 0x0}, 0x0},
    {"set.nan.bf16.f64", "d16 a64 a64", {0xfff0000000000000, 0x3ff0000000000000, 0x0, 0x0}, 0x0},
    {"set.nan.bf16.f16", "d16 a16 a16", {0x7c01, 0x0, 0x0, 0x0}, 0x3f80},
    {"set.ge.u32.f32", "d32 a32 a32", {0x80000000, 0x807fffff, 0x0, 0x0}, 0xffffffff},
    {"set.ge.ftz.u32.f32", "d32 a32 a32", {0xbf800000, 0xffc00000, 0x0, 0x0}, 0x0},
    {"set.ge.u32.f64", "d32 a64 a64", {0x7ff8000000000000, 0xfff0000000000000, 0x0, 0x0}, 0x0},
    {"set.ge.s32.f32", "d32 a32 a32", {0x7fffff, 0x7f800001, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.s32.f32", "d32 a32 a32", {0x7f800000, 0x3fc00000, 0x0, 0x0}, 0xffffffff},
    {"set.ge.s32.f64", "d32 a64 a64", {0x1, 0x8000000000000001, 0x0, 0x0}, 0xffffffff},
    {"set.ge.f32.f32", "d32 a32 a32", {0xffc00000, 0x3fc00000, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.f32.f32", "d32 a32 a32", {0x7fffffff, 0xff800000, 0x0, 0x0}, 0x0},
    {"set.ge.f32.f64", "d32 a64 a64", {0x0, 0xfffffffffffff, 0x0, 0x0}, 0x0},
    {"set.ge.u16.f16", "d16 a16 a16", {0xfc00, 0xbc00, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.u16.f16", "d16 a16 a16", {0x0, 0x8000, 0x0, 0x0}, 0xffff},
    {"set.ge.s16.f16", "d16 a16 a16", {0xbc00, 0x8001, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.s16.f16", "d16 a16 a16", {0x7bff, 0x7c00, 0x0, 0x0}, 0x0},
    {"set.ge.f16.f16", "d16 a16 a16", {0x8001, 0xbc00, 0x0, 0x0}, 0x3c00},
    {"set.ge.ftz.f16.f16", "d16 a16 a16", {0x7c01, 0x3c00, 0x0, 0x0}, 0x0},
    {"set.ge.u32.f16", "d32 a16 a16", {0xbc00, 0x3c00, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.u32.f16", "d32 a16 a16", {0xfc00, 0x7e00, 0x0, 0x0}, 0x0},
    {"set.ge.s32.f16", "d32 a16 a16", {0x3c00, 0x400, 0x0, 0x0}, 0xffffffff},
    {"set.ge.ftz.s32.f16", "d32 a16 a16", {0x3c00, 0x7c00, 0x0, 0x0}, 0x0},
    {"set.ge.u16.bf16", "d16 a16 a16", {0x7f, 0x7fc0, 0x0, 0x0}, 0x0},
    {"set.ge.s16.bf16", "d16 a16 a16", {0xff80, 0xffc0, 0x0, 0x0}, 0x0},
    {"set.ge.bf16.bf16", "d16 a16 a16", {0x0, 0xffc0, 0x0, 0x0}, 0x0},
    {"set.ge.u32.bf16", "d32 a16 a16", {0x7fc0, 0x7f, 0x0, 0x0}, 0x0},
    {"set.ge.s32.bf16", "d32 a16 a16", {0x0, 0x7f80, 0x0, 0x0}, 0x0},
    {"set.ge.f16x2.f16x2", "d32 a32 a32", {0x3ff8000, 0x17e00, 0x0, 0x0}, 0x3c000000},
    {"set.ge.ftz.f16x2.f16x2", "d32 a32 a32", {0x7bfffc00, 0x17e00, 0x0, 0x0}, 0x3c000000},
    {"set.ge.u32.f16x2", "d32 a32 a32", {0x7c0103ff, 0x17e00, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.u32.f16x2", "d32 a32 a32", {0x7e000001, 0x4008001, 0x0, 0x0}, 0xffff},
    {"set.ge.s32.f16x2", "d32 a32 a32", {0xbc00bc00, 0xfe003c00, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.s32.f16x2", "d32 a32 a32", {0x3ff8000, 0xfe003c00, 0x0, 0x0}, 0x0},
    {"set.ge.bf16x2.bf16x2", "d32 a32 a32", {0x17fc0, 0x3fc07f7f, 0x0, 0x0}, 0x0},
    {"set.ge.u32.bf16x2", "d32 a32 a32", {0x3fc0, 0x808001, 0x0, 0x0}, 0xffff},
    {"set.ge.s32.bf16x2", "d32 a32 a32", {0xffc03f80, 0x3fc07f7f, 0x0, 0x0}, 0x0},
    {"set.ge.f16.f32", "d16 a32 a32", {0x0, 0x3fc00000, 0x0, 0x0}, 0x0},
    {"set.ge.ftz.f16.f32", "d16 a32 a32", {0x80000000, 0x0, 0x0, 0x0}, 0x3c00},
    {"set.ge.bf16.f64", "d16 a64 a64", {0x1, 0x1, 0x0, 0x0}, 0x3f80},
    {"set.ge.bf16.f16", "d16 a16 a16", {0x7c01, 0xbc00, 0x0, 0x0}, 0x0},
    {"set.lt.u32.u16", "d32 a16 a16", {0x0, 0x1234, 0x0, 0x0}, 0xffffffff},
    {"set.lt.f32.u64", "d32 a64 a64", {0xffffffff, 0x7fffffffffffffff, 0x0, 0x0}, 0x3f800000},
    {"set.lt.f16.u32", "d16 a32 a32", {0x1, 0xfffffffe, 0x0, 0x0}, 0x3c00},
    {"set.lt.bf16.u32", "d16 a32 a32", {0xffffffff, 0x1, 0x0, 0x0}, 0x0},
    {"set.hi.u32.u16", "d32 a16 a16", {0xfffe, 0xfffe, 0x0, 0x0}, 0x0},
    {"set.hi.f32.u64",
     "d32 a64 a64",
     {0xffffffffffffffff, 0x7fffffffffffffff, 0x0, 0x0},
     0x3f800000},
    {"set.hi.f16.u32", "d16 a32 a32", {0xffffffff, 0x10000, 0x0, 0x0}, 0x3c00},
    {"set.hi.bf16.u32", "d16 a32 a32", {0x80000001, 0x7f, 0x0, 0x0}, 0x3f80},
    {"set.ge.u32.u16", "d32 a16 a16", {0x7f, 0xff, 0x0, 0x0}, 0x0},
    {"set.ge.f32.u64", "d32 a64 a64", {0x0, 0xff, 0x0, 0x0}, 0x0},
    {"set.ge.f16.u32", "d16 a32 a32", {0x3, 0xff00ff, 0x0, 0x0}, 0x0},
    {"set.ge.bf16.u32", "d16 a32 a32", {0xfffffffe, 0x100, 0x0, 0x0}, 0x3f80},
    {"set.lt.s32.s32", "d32 a32 a32", {0x7fffffff, 0x3, 0x0, 0x0}, 0x0},
    {"set.lt.and.f32.s32", "d32 a32 a32 !p", {0x3, 0x100, 0x0, 0x0}, 0x3f800000},
    {"set.lt.xor.u32.f32", "d32 a32 a32 p", {0x40000000, 0xbf800000, 0x0, 0x0}, 0x0},
    {"set.lt.or.f16x2.f16x2", "d32 a32 a32 p", {0x8001fe00, 0x80007c00, 0x0, 0x0}, 0x3c000000},
    {"set.lt.and.u32.bf16x2", "d32 a32 a32 !p", {0x3f800080, 0x80007f80, 0x0, 0x0}, 0xffff},
    {"selp.b32", "d32 a32 a32 p", {0x1, 0x3, 0x1, 0x0}, 0x1},
    {"selp.b32", "d32 a32 a32 !p", {0x2, 0x3, 0x0, 0x0}, 0x2},
    {"selp.f64", "d64 a64 a64 p", {0x8000000000000000, 0x5, 0x1, 0x0}, 0x8000000000000000},
    {"selp.u16", "d16 a16 a16 p", {0xffff, 0x5, 0x1, 0x0}, 0xffff},
    {"slct.b32.s32", "d32 a32 a32 a32", {0x11, 0x22, 0x1, 0x0}, 0x11},
    {"slct.b32.f32", "d32 a32 a32 a32", {0x11, 0x22, 0xbf800000, 0x0}, 0x22},
    {"slct.ftz.b32.f32", "d32 a32 a32 a32", {0x11, 0x22, 0x3f800000, 0x0}, 0x11},
    {"slct.u64.s32", "d64 a64 a64 a32", {0x11, 0x22, 0xff, 0x0}, 0x11},
    {"slct.u64.f32", "d64 a64 a64 a32", {0x11, 0x22, 0x80000001, 0x0}, 0x22},
    {"slct.ftz.u64.f32", "d64 a64 a64 a32", {0x11, 0x22, 0x800000, 0x0}, 0x11},
    {"slct.s16.s32", "d16 a16 a16 a32", {0x11, 0x22, 0x0, 0x0}, 0x11},
    {"slct.s16.f32", "d16 a16 a16 a32", {0x11, 0x22, 0x800000, 0x0}, 0x11},
    {"slct.ftz.s16.f32", "d16 a16 a16 a32", {0x11, 0x22, 0x80000001, 0x0}, 0x11},
    {"slct.f32.s32", "d32 a32 a32 a32", {0x11, 0x22, 0x7f, 0x0}, 0x11},
    {"slct.f32.f32", "d32 a32 a32 a32", {0x11, 0x22, 0x800000, 0x0}, 0x11},
    {"slct.ftz.f32.f32", "d32 a32 a32 a32", {0x11, 0x22, 0xbf800000, 0x0}, 0x22},

};

TEST(Compare, MatchesRecordedH200Results) {
  for (const Recorded& r : kRecorded)
    EXPECT_EQ(replay(r), r.out) << r.op << " " << r.sig << " " << std::hex << r.in[0] << " "
                                << r.in[1] << " " << r.in[2];
}

// ---- properties against host references ---------------------------------------------------------

rc::Gen<uint32_t> genF32Bits() {
  return rc::gen::weightedOneOf<uint32_t>(
      {{3, rc::gen::arbitrary<uint32_t>()},
       {3, rc::gen::element<uint32_t>(0, kNegZero, kOne, 0xBF800000, kDenorm, kNegDenorm,
                                      0x007FFFFF, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, kInf, kNegInf,
                                      kNaN, kSNaN, kNegNaN, 0x7FFFFFFF)},
       {1, rc::gen::map(rc::gen::inRange<uint32_t>(0, 0x00800000), [](uint32_t m) { return m; })}});
}
rc::Gen<uint64_t> genF64Bits() {
  return rc::gen::weightedOneOf<uint64_t>(
      {{3, rc::gen::arbitrary<uint64_t>()},
       {3, rc::gen::element<uint64_t>(0, 1ull << 63, 0x3FF0000000000000ull, 1, (1ull << 63) | 1,
                                      0x000FFFFFFFFFFFFFull, 0x7FF0000000000000ull,
                                      0xFFF0000000000000ull, 0x7FF8000000000000ull,
                                      0x7FF0000000000001ull, 0xFFF8000000000000ull)}});
}
rc::Gen<uint16_t> genHalfBits() {
  return rc::gen::weightedOneOf<uint16_t>(
      {{3, rc::gen::arbitrary<uint16_t>()},
       {2, rc::gen::element<uint16_t>(0, 0x8000, 1, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7C00,
                                      0xFC00, 0x7E00, 0x7C01, 0xFE00, 0x007F, 0x0080, 0x3F80,
                                      0x7F80, 0xFF80, 0x7FC0, 0x7F81)}});
}

// The reference comparison: host floating-point comparison operators (no rounding involved).
template <class F>
bool refCmp(const std::string& c, F a, F b) {
  const bool nan = std::isnan(a) || std::isnan(b);
  if (c == "num") return !nan;
  if (c == "nan") return nan;
  const bool unord = c.size() == 3;  // equ neu ltu leu gtu geu
  const std::string base = c.substr(0, 2);
  if (nan) return unord;
  if (base == "eq") return a == b;
  if (base == "ne") return a != b;
  if (base == "lt") return a < b;
  if (base == "le") return a <= b;
  if (base == "gt") return a > b;
  return a >= b;
}

float f32Of(uint32_t b, bool ftz) {
  if (ftz && (b & 0x7F800000) == 0) b &= 0x80000000;
  return std::bit_cast<float>(b);
}
// f16 / bf16 decoded by hand: (-1)^s * m * 2^(e - bias - mantBits), subnormals included.
float halfOf(uint16_t h, bool bf16, bool ftz) {
  const int expBits = bf16 ? 8 : 5, manBits = bf16 ? 7 : 10, bias = bf16 ? 127 : 15;
  const int e = (h >> manBits) & ((1 << expBits) - 1);
  const int m = h & ((1 << manBits) - 1);
  const float sign = (h >> 15) ? -1.0f : 1.0f;
  if (e == (1 << expBits) - 1) return m ? std::nanf("") : sign * INFINITY;
  if (e == 0)
    return (ftz || m == 0) ? sign * 0.0f : sign * std::ldexp(float(m), 1 - bias - manBits);
  return sign * std::ldexp(float(m | (1 << manBits)), e - bias - manBits);
}

const char* kFloatCmps[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                            "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};

RC_GTEST_PROP(CompareProps, SetpF32F64MatchHostComparisons, ()) {
  const uint32_t a = *genF32Bits(), b = *genF32Bits();
  const uint64_t x = *genF64Bits(), y = *genF64Bits();
  for (const char* c : kFloatCmps) {
    const std::string s = c;
    RC_ASSERT(setp1("setp." + s + ".f32", a, b) == refCmp(s, f32Of(a, false), f32Of(b, false)));
    RC_ASSERT(setp1("setp." + s + ".ftz.f32", a, b) == refCmp(s, f32Of(a, true), f32Of(b, true)));
    RC_ASSERT(setp1("setp." + s + ".f64", x, y) ==
              refCmp(s, std::bit_cast<double>(x), std::bit_cast<double>(y)));
  }
}

RC_GTEST_PROP(CompareProps, SetpHalvesMatchDecodedComparisons, ()) {
  const uint16_t a0 = *genHalfBits(), a1 = *genHalfBits(), b0 = *genHalfBits(), b1 = *genHalfBits();
  const uint32_t a = a0 | uint32_t(a1) << 16, b = b0 | uint32_t(b1) << 16;
  for (const char* c : kFloatCmps) {
    const std::string s = c;
    for (bool bf : {false, true})
      for (bool ftz : {false, true}) {
        if (bf && ftz) continue;
        const std::string f = std::string(ftz ? ".ftz" : "") + (bf ? ".bf16" : ".f16");
        const bool t0 = refCmp(s, halfOf(a0, bf, ftz), halfOf(b0, bf, ftz));
        const bool t1 = refCmp(s, halfOf(a1, bf, ftz), halfOf(b1, bf, ftz));
        RC_ASSERT(setp1("setp." + s + f, a0, b0) == t0);
        RC_ASSERT(setp("setp." + s + f + "x2", a, b) == (unsigned(t0) | unsigned(t1) << 1));
        const uint32_t one = bf ? 0x3F80 : 0x3C00;
        RC_ASSERT(eval("set." + s + f + "x2" + f + "x2", {a, b}) ==
                  ((t0 ? one : 0) | (t1 ? one << 16 : 0)));
      }
  }
}

RC_GTEST_PROP(CompareProps, SetpIntegersMatchWideComparisons, ()) {
  const uint64_t a = *rc::gen::arbitrary<uint64_t>(),
                 b = *rc::gen::weightedOneOf<uint64_t>({{1, rc::gen::arbitrary<uint64_t>()},
                                                        {1, rc::gen::just(a)},
                                                        {1, rc::gen::just(a ^ 1)},
                                                        {1, rc::gen::just(~a)}});
  for (unsigned w : {16u, 32u, 64u}) {
    const uint64_t m = w == 64 ? ~0ull : (1ull << w) - 1;
    const uint64_t ua = a & m, ub = b & m;
    auto sx = [&](uint64_t v) -> __int128 {
      return (v >> (w - 1)) & 1 ? __int128(v) - (__int128(1) << w) : __int128(v);
    };
    const __int128 sa = sx(ua), sb = sx(ub);
    const std::string ws = std::to_string(w);
    const struct {
      const char* c;
      bool s, u;
    } t[] = {{"eq", sa == sb, ua == ub}, {"ne", sa != sb, ua != ub}, {"lt", sa < sb, ua < ub},
             {"le", sa <= sb, ua <= ub}, {"gt", sa > sb, ua > ub},   {"ge", sa >= sb, ua >= ub}};
    for (const auto& e : t) {
      RC_ASSERT(setp1(std::string("setp.") + e.c + ".s" + ws, a, b) == e.s);
      RC_ASSERT(setp1(std::string("setp.") + e.c + ".u" + ws, a, b) == e.u);
      RC_ASSERT(eval(std::string("set.") + e.c + ".s32.s" + ws, {a, b}) ==
                (e.s ? 0xFFFFFFFFu : 0u));
    }
    RC_ASSERT(setp1("setp.lo.u" + ws, a, b) == (ua < ub));
    RC_ASSERT(setp1("setp.ls.u" + ws, a, b) == (ua <= ub));
    RC_ASSERT(setp1("setp.hi.u" + ws, a, b) == (ua > ub));
    RC_ASSERT(setp1("setp.hs.u" + ws, a, b) == (ua >= ub));
    RC_ASSERT(setp1("setp.eq.b" + ws, a, b) == (ua == ub));
  }
}

RC_GTEST_PROP(CompareProps, SlctMatchesHostComparison, ()) {
  const uint32_t c = *genF32Bits();
  const uint64_t a = *rc::gen::arbitrary<uint64_t>(), b = *rc::gen::arbitrary<uint64_t>();
  RC_ASSERT(eval("slct.u64.f32", {a, b, c}) == (f32Of(c, false) >= 0.0f ? a : b));
  RC_ASSERT(eval("slct.ftz.u64.f32", {a, b, c}) == (f32Of(c, true) >= 0.0f ? a : b));
  RC_ASSERT(eval("slct.u64.s32", {a, b, c}) == (int32_t(c) >= 0 ? a : b));
  RC_ASSERT(eval("slct.b16.s32", {a, b, c}) == ((int32_t(c) >= 0 ? a : b) & 0xFFFF));
}

// ---- binding ------------------------------------------------------------------------------------

std::vector<isa::Opnd> predDest(size_t sources, bool pair = false, bool withC = false) {
  std::vector<isa::Opnd> ops{pair ? H::vec({H::pred(1), H::pred(2)}) : H::pred(1)};
  for (size_t i = 0; i < sources; ++i) ops.push_back(H::reg(uint32_t(2 + i)));
  if (withC) ops.push_back(H::pred(3, true));
  return ops;
}
std::vector<isa::Opnd> regDest(size_t sources, bool withC = false) {
  std::vector<isa::Opnd> ops{H::reg(1)};
  for (size_t i = 0; i < sources; ++i) ops.push_back(H::reg(uint32_t(2 + i)));
  if (withC) ops.push_back(H::pred(3));
  return ops;
}

TEST(CompareBind, CmpOperatorsPerTypeFollowPtxas) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  // What ptxas 13.0 accepts (checked for every comparison and type).
  const struct {
    const char* t;
    std::vector<const char*> ok;
  } table[] = {{"b16", {"eq", "ne"}},
               {"b32", {"eq", "ne"}},
               {"b64", {"eq", "ne"}},
               {"u16", {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"}},
               {"u32", {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"}},
               {"u64", {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"}},
               {"s16", {"eq", "ne", "lt", "le", "gt", "ge"}},
               {"s32", {"eq", "ne", "lt", "le", "gt", "ge"}},
               {"s64", {"eq", "ne", "lt", "le", "gt", "ge"}}};
  const char* all[] = {"eq", "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                       "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (const auto& row : table)
    for (const char* c : all) {
      const bool ok = std::find_if(row.ok.begin(), row.ok.end(), [&](const char* o) {
                        return std::string(o) == c;
                      }) != row.ok.end();
      const std::string op = std::string("setp.") + c + "." + row.t;
      EXPECT_EQ(h.tryBind(op, predDest(2)).empty(), ok) << op;
      const std::string sop = std::string("set.") + c + ".u32." + row.t;
      EXPECT_EQ(h.tryBind(sop, regDest(2)).empty(), ok) << sop;
    }
  for (const char* t : {"f32", "f64", "f16", "bf16"})
    for (const char* c : all) {
      const bool ok =
          std::string(c).size() == 3 || (std::string(c) != "lo" && std::string(c) != "ls" &&
                                         std::string(c) != "hi" && std::string(c) != "hs");
      const std::string op = std::string("setp.") + c + "." + t;
      EXPECT_EQ(h.tryBind(op, predDest(2)).empty(), ok) << op;
      EXPECT_EQ(h.tryBind(op + "x2", predDest(2, true)).empty(),
                ok && std::string(t).find("16") != std::string::npos)
          << op << "x2";
    }
}

TEST(CompareBind, ModifiersAndOperandShapes) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  // Accepted by ptxas.
  EXPECT_EQ(h.tryBind("setp.lt.ftz.f32", predDest(2)), "");
  EXPECT_EQ(h.tryBind("setp.ftz.lt.f32", predDest(2)), "");
  EXPECT_EQ(h.tryBind("setp.lt.and.ftz.f32", predDest(2, true, true)), "");
  EXPECT_EQ(h.tryBind("setp.lt.ftz.f16", predDest(2)), "");
  EXPECT_EQ(h.tryBind("setp.lt.f16x2", predDest(2)), "");
  EXPECT_EQ(h.tryBind("setp.lt.xor.bf16x2", predDest(2, true, true)), "");
  EXPECT_EQ(h.tryBind("setp.lt.s32.and", predDest(2, false, true)), "");
  EXPECT_EQ(h.inst().cls, isa::InsnClass::Int);
  EXPECT_EQ(h.tryBind("setp.lt.f64", predDest(2)), "");
  EXPECT_EQ(h.inst().cls, isa::InsnClass::Fp64);
  EXPECT_EQ(h.tryBind("set.lt.ftz.f16.f32", regDest(2)), "");
  EXPECT_EQ(h.tryBind("set.lt.ftz.u16.f16", regDest(2)), "");
  EXPECT_EQ(h.tryBind("set.lt.bf16.f16", regDest(2)), "");
  EXPECT_EQ(h.tryBind("set.lt.or.f16x2.f16x2", regDest(2, true)), "");
  EXPECT_EQ(h.tryBind("slct.ftz.u32.f32", regDest(3)), "");
  EXPECT_EQ(h.tryBind("slct.f64.s32", regDest(3)), "");
  EXPECT_EQ(h.tryBind("selp.f32", regDest(2, true)), "");
  // Rejected by ptxas.
  const std::pair<const char*, std::vector<isa::Opnd>> bad[] = {
      {"setp.lt.ftz.f64", predDest(2)},
      {"setp.lt.ftz.s32", predDest(2)},
      {"setp.lt.ftz.bf16", predDest(2)},
      {"setp.lt.f16", predDest(2, true)},
      {"setp.lt.bf16", predDest(2, true)},
      {"setp.lt.and.s32", predDest(2)},
      {"setp.lt.s32", predDest(2, false, true)},
      {"setp.lt.popc.s32", predDest(2, false, true)},
      {"setp.lt.s32", regDest(2)},
      {"setp.s32", predDest(2)},
      {"setp.lt.gt.s32", predDest(2)},
      {"setp.lt.and.or.s32", predDest(2, false, true)},
      {"setp.lt.u32.u32", predDest(2)},
      {"set.lt.ftz.u32.f64", regDest(2)},
      {"set.lt.ftz.bf16x2.bf16x2", regDest(2)},
      {"set.lt.f16.bf16", regDest(2)},
      {"set.lt.u16.f32", regDest(2)},
      {"set.lt.f32.f16", regDest(2)},
      {"set.lt.f16x2.f16", regDest(2)},
      {"set.lt.u32", regDest(2)},
      {"set.lt.u32.s32", predDest(2)},
      {"slct.ftz.u32.s32", regDest(3)},
      {"slct.f32.f64", regDest(3)},
      {"slct.f32.s64", regDest(3)},
      {"slct.f32", regDest(3)},
      {"selp.f16", regDest(2, true)},
      {"selp.lt.b32", regDest(2, true)},
      {"selp.ftz.f32", regDest(2, true)}};
  for (const auto& [op, ops] : bad) EXPECT_NE(h.tryBind(op, ops), "") << op;
}

// Every type and modifier word of every compare spec, alone and in pairs, with several operand
// shapes: binding either succeeds (with a handler) or explains itself.
TEST(CompareBind, EveryCombinationBindsOrIsRejectedWithAMessage) {
  H h("mov.b32", {H::reg(1), H::reg(2)});
  const std::vector<std::vector<isa::Opnd>> shapes = {predDest(2),
                                                      predDest(2, true),
                                                      predDest(2, true, true),
                                                      predDest(2, false, true),
                                                      regDest(2),
                                                      regDest(2, true),
                                                      regDest(3),
                                                      {H::sink(), H::reg(2), H::reg(3)}};
  size_t bound = 0, tried = 0;
  for (const isa::OpcodeSpec& s : isa::instructionTable()) {
    if (s.family != "compare") continue;
    std::vector<std::string> words{""};
    for (isa::Type t : s.types) words.push_back("." + std::string(isa::typeName(t)));
    for (std::string_view m : s.mods) words.push_back("." + std::string(m));
    for (const std::string& w1 : words)
      for (const std::string& w2 : words)
        for (const std::string& w3 : {std::string(""), std::string(".f32"), std::string(".s32")})
          for (const auto& shape : shapes) {
            const std::string op = std::string(s.opcode) + w1 + w2 + w3;
            ++tried;
            std::string err;
            ASSERT_NO_THROW(err = h.tryBind(op, shape)) << op;
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
