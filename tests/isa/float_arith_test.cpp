// Tests of isa/insns/float_arith.cpp: f32/f64 testp copysign add sub mul fma mad div rcp sqrt
// abs neg min max. Hand-checked edge cases (each expectation an encoding, with why), and
// RapidCheck properties against independent host references: the host's round-to-nearest
// arithmetic, corrected to the directed modes by an exact comparison done in wider precision.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <random>

#include "isa/insns/families.h"
#include "tests/isa/float_test_util.h"

namespace warpsim::test {
namespace {

using fp::Round;

constexpr uint32_t kNaN = 0x7FFFFFFF;  // canonical f32 NaN
constexpr uint32_t kInf = 0x7F800000, kNegInf = 0xFF800000;
constexpr uint32_t kMax = 0x7F7FFFFF, kMinNormal = 0x00800000, kMinSub = 0x00000001;
constexpr uint32_t kOne = 0x3F800000, kNegOne = 0xBF800000, kTwo = 0x40000000;

uint32_t f32op(const std::string& op, uint32_t a, uint32_t b) { return uint32_t(exec2(op, a, b)); }

// ---- add / sub / mul ---------------------------------------------------------------------
TEST(FloatArith, AddRoundsInEachMode) {
  // 1 + 1.5 * 2^-24 = 1 + 0.75 ulp(1): nearest and +inf round up, zero and -inf truncate.
  const uint32_t b = 0x33C00000;
  EXPECT_EQ(0x3F800001u, f32op("add.f32", kOne, b));  // default .rn
  EXPECT_EQ(0x3F800001u, f32op("add.rn.f32", kOne, b));
  EXPECT_EQ(0x3F800000u, f32op("add.rz.f32", kOne, b));
  EXPECT_EQ(0x3F800000u, f32op("add.rm.f32", kOne, b));
  EXPECT_EQ(0x3F800001u, f32op("add.rp.f32", kOne, b));
  // The negated sum mirrors it: .rm rounds the magnitude up, .rp truncates.
  EXPECT_EQ(0xBF800001u, f32op("add.rm.f32", kNegOne, b | 0x80000000));
  EXPECT_EQ(0xBF800000u, f32op("add.rp.f32", kNegOne, b | 0x80000000));
  EXPECT_EQ(0xBF800000u, f32op("add.rz.f32", kNegOne, b | 0x80000000));
}

TEST(FloatArith, AddSpecialValues) {
  EXPECT_EQ(kNaN, f32op("add.f32", kInf, kNegInf));            // invalid: canonical NaN
  EXPECT_EQ(kNaN, f32op("add.f32", 0xFFC01234, kOne));         // NaN payloads are not kept (f32)
  EXPECT_EQ(0x00000000u, f32op("add.rn.f32", kOne, kNegOne));  // x - x = +0 ...
  EXPECT_EQ(0x80000000u, f32op("add.rm.f32", kOne, kNegOne));  // ... but -0 rounding down
  EXPECT_EQ(0x80000000u, f32op("add.f32", 0x80000000, 0x80000000));
  EXPECT_EQ(kInf, f32op("add.rn.f32", kMax, kMax));  // overflow
  EXPECT_EQ(kMax, f32op("add.rz.f32", kMax, kMax));
  EXPECT_EQ(kMax, f32op("add.rm.f32", kMax, kMax));
}

TEST(FloatArith, SubtractsAndNegatesTheSecondOperand) {
  EXPECT_EQ(0x3F800000u, f32op("sub.f32", kTwo, kOne));
  EXPECT_EQ(0x80000000u, f32op("sub.f32", 0x80000000, 0x00000000));  // -0 - +0 = -0
  EXPECT_EQ(0x00000000u, f32op("sub.f32", kOne, kOne));
  EXPECT_EQ(0x80000000u, f32op("sub.rm.f32", kOne, kOne));
  EXPECT_EQ(kNaN, f32op("sub.f32", kInf, kInf));
}

TEST(FloatArith, FtzFlushesInputsAndResults) {
  EXPECT_EQ(kMinSub, f32op("add.f32", kMinSub, 0));          // subnormals kept by default
  EXPECT_EQ(0x00000000u, f32op("add.ftz.f32", kMinSub, 0));  // flushed input
  EXPECT_EQ(0x80000000u, f32op("add.ftz.f32", 0x80000001, 0x80000000));  // sign preserved
  // 2^-126 * 0.5 is subnormal: flushed to +0 under .ftz.
  EXPECT_EQ(0x00400000u, f32op("mul.f32", kMinNormal, 0x3F000000));
  EXPECT_EQ(0x00000000u, f32op("mul.ftz.f32", kMinNormal, 0x3F000000));
  EXPECT_EQ(0x80000000u, f32op("mul.ftz.f32", 0x80800000, 0x3F000000));
  // .ftz flushes a result that is tiny after rounding (isa/fp_round.cpp, measured on the
  // H200): FLT_MIN (1 + 2^-23)(1 - 2^-23) = FLT_MIN (1 - 2^-46) rounds to FLT_MIN at 24 bits
  // under .rn (kept) but to FLT_MIN (1 - 2^-24) under .rz (tiny: flushed).
  EXPECT_EQ(0x00800000u, f32op("mul.rn.ftz.f32", 0x00800001, 0x3F7FFFFE));
  EXPECT_EQ(0x00000000u, f32op("mul.rz.ftz.f32", 0x00800001, 0x3F7FFFFE));
  EXPECT_EQ(0x007FFFFFu, f32op("mul.rz.f32", 0x00800001, 0x3F7FFFFE));
  // 1.5 * 2^-126 - 2^-126 = 2^-127: an exact but subnormal difference.
  EXPECT_EQ(0x00400000u, f32op("sub.f32", 0x00C00000, kMinNormal));
  EXPECT_EQ(0x00000000u, f32op("sub.ftz.f32", 0x00C00000, kMinNormal));
}

TEST(FloatArith, FtzWarpsTakeTheExactPathAtTheSubnormalBorder) {
  // .rn.ftz over a full warp runs the host's arithmetic for every lane first and the exact
  // engine for the lanes whose result lies at the subnormal border (forLanesTwoPass): each lane
  // must equal fp.h's own answer, with the destination apart from the sources or naming one of
  // them, the warp full or not, for add, sub, mul, div, fma, mad and the contracted fma forms
  // (A or C negated). A third of the lanes sit at the border: results that flush, results that
  // round up to FLT_MIN, exact subnormal results; others take subnormal, infinite or NaN inputs.
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  const float kMin = bf(kMinNormal);
  uint32_t a[32], b[32], c[32];
  for (unsigned l = 0; l < 32; ++l) {
    const float x = unit(rng), y = unit(rng);
    switch (l % 6) {
      case 0:  // products, quotients and sums just around FLT_MIN
        a[l] = fb(x), b[l] = fb(kMin / x * (l & 8 ? 0.99999994f : 1.0000001f));
        c[l] = fb(-kMin * (l & 16 ? 0.5f : 1.0f));
        break;
      case 1:  // a difference below FLT_MIN
        a[l] = fb(kMin * x), b[l] = fb(kMin * y), c[l] = fb(-kMin * x * y);
        break;
      case 2:  // subnormal operands
        a[l] = kMinSub * (l + 1), b[l] = fb(x), c[l] = 0x80000000u | (kMinSub << (l % 20));
        break;
      case 3:  // inf and NaN
        a[l] = l & 8 ? kInf : 0x7FC01234u, b[l] = l & 16 ? 0 : fb(x), c[l] = kNegInf;
        break;
      default:
        a[l] = fb(x * 1e3f), b[l] = fb(-y), c[l] = fb(x + y);
    }
  }
  struct Case {
    const char* op;  // "" for the contracted forms below
    bool negProduct, negAddend;
    float (*want)(float, float, float);
  };
  const Case cases[] = {
      {"add.rn.ftz.f32", false, false,
       [](float x, float y, float) { return fp::add(x, y, Round::RN, true); }},
      {"sub.rn.ftz.f32", false, false,
       [](float x, float y, float) { return fp::sub(x, y, Round::RN, true); }},
      {"mul.rn.ftz.f32", false, false,
       [](float x, float y, float) { return fp::mul(x, y, Round::RN, true); }},
      {"div.rn.ftz.f32", false, false,
       [](float x, float y, float) { return fp::div(x, y, Round::RN, true); }},
      {"fma.rn.ftz.f32", false, false,
       [](float x, float y, float z) { return fp::fma(x, y, z, Round::RN, true); }},
      {"mad.rn.ftz.f32", false, false,
       [](float x, float y, float z) { return fp::fma(x, y, z, Round::RN, true); }},
      {"", true, false,
       [](float x, float y, float z) { return fp::fma(-x, y, z, Round::RN, true); }},
      {"", false, true,
       [](float x, float y, float z) { return fp::fma(x, y, -z, Round::RN, true); }},
      {"", true, true,
       [](float x, float y, float z) { return fp::fma(-x, y, -z, Round::RN, true); }},
  };
  for (const Case& k : cases) {
    const std::string name = k.op;
    const bool ternary = name.empty() || name.starts_with("fma") || name.starts_with("mad");
    for (uint32_t dst : {1u, 2u, 3u})  // apart, A's register, B's register
      for (uint32_t mask : {~0u, 0x5555AAAAu}) {
        std::vector<isa::Opnd> ops = {R(dst), R(2), R(3)};
        if (ternary) ops.push_back(R(4));
        ExecHarness h(k.op[0] ? k.op : "fma.rn.ftz.f32", ops);
        if (!k.op[0])
          const_cast<isa::Inst&>(h.inst()).run =
              isa::insns::fusedMultiplyAdd(isa::Type::F32, true, false, k.negProduct, k.negAddend);
        for (unsigned l = 0; l < 32; ++l) {
          h.set(1, l, 0xDEADBEEF);
          h.set(2, l, a[l]), h.set(3, l, b[l]), h.set(4, l, c[l]);
        }
        h.run(mask);
        for (unsigned l = 0; l < 32; ++l) {
          const uint32_t old = dst == 1 ? 0xDEADBEEF : dst == 2 ? a[l] : b[l];
          const uint32_t want = mask >> l & 1 ? fb(k.want(bf(a[l]), bf(b[l]), bf(c[l]))) : old;
          EXPECT_EQ(h.get(dst, l), want)
              << k.op << " " << k.negProduct << k.negAddend << " dst r" << dst << " mask "
              << std::hex << mask << " lane " << std::dec << l;
        }
      }
  }
}

TEST(FloatArith, SatClampsToUnitInterval) {
  EXPECT_EQ(kOne, f32op("add.sat.f32", 0x3F400000, 0x3F000000));      // 0.75 + 0.5 -> 1
  EXPECT_EQ(0x00000000u, f32op("add.sat.f32", kNegOne, 0x3F000000));  // -0.5 -> +0
  EXPECT_EQ(0x00000000u, f32op("add.sat.f32", kInf, kNegInf));        // NaN -> +0
  EXPECT_EQ(kOne, f32op("mul.sat.f32", kInf, kOne));
  EXPECT_EQ(0x3F000000u, f32op("sub.sat.f32", kOne, 0x3F000000));
  EXPECT_EQ(0x00000000u, f32op("add.sat.ftz.f32", kMinSub, 0));
  EXPECT_EQ(kMinSub, f32op("add.sat.f32", kMinSub, 0));  // subnormals lie inside [0, 1]
}

TEST(FloatArith, MulOverflowPerMode) {
  EXPECT_EQ(kInf, f32op("mul.rn.f32", kMax, kTwo));
  EXPECT_EQ(kMax, f32op("mul.rz.f32", kMax, kTwo));
  EXPECT_EQ(kMax, f32op("mul.rm.f32", kMax, kTwo));
  EXPECT_EQ(kInf, f32op("mul.rp.f32", kMax, kTwo));
  EXPECT_EQ(0xFF7FFFFFu, f32op("mul.rp.f32", 0xFF7FFFFF, kTwo));
  EXPECT_EQ(kNegInf, f32op("mul.rm.f32", 0xFF7FFFFF, kTwo));
  EXPECT_EQ(kNaN, f32op("mul.f32", 0, kInf));
  EXPECT_EQ(0x80000000u, f32op("mul.f32", 0x80000000, kOne));
}

TEST(FloatArith, F64AddMulDivSqrt) {
  const uint64_t one = 0x3FF0000000000000ull, ulpHalf = 0x3CA0000000000000ull;  // 2^-53
  EXPECT_EQ(one, exec2("add.rn.f64", one, ulpHalf));  // the tie rounds to even
  EXPECT_EQ(one, exec2("add.f64", one, ulpHalf));
  EXPECT_EQ(0x3FF0000000000001ull, exec2("add.rp.f64", one, ulpHalf));
  EXPECT_EQ(0x3FD5555555555555ull, exec2("div.rn.f64", one, db(3.0)));
  EXPECT_EQ(0x3FD5555555555556ull, exec2("div.rp.f64", one, db(3.0)));
  EXPECT_EQ(0x3FD5555555555555ull, exec2("div.rz.f64", one, db(3.0)));
  EXPECT_EQ(0x3FD5555555555555ull, exec1("rcp.rn.f64", db(3.0)));
  // rcp.rn.ftz.f64 (ptxas accepts it): .ftz changes nothing (measured on the H200).
  EXPECT_EQ(0x7FD0000000000001ull, exec1("rcp.rn.ftz.f64", 0x000FFFFFFFFFFFFFull));
  EXPECT_EQ(0x0008000000000000ull, exec1("rcp.rn.ftz.f64", 0x7FE0000000000000ull));
  EXPECT_EQ(0x3FF6A09E667F3BCDull, exec1("sqrt.rn.f64", db(2.0)));
  EXPECT_EQ(0x3FF6A09E667F3BCCull, exec1("sqrt.rz.f64", db(2.0)));
  EXPECT_EQ(db(-6.0), exec2("mul.rn.f64", db(2.0), db(-3.0)));
  EXPECT_EQ(db(-0.0), exec2("sub.rm.f64", db(1.0), db(1.0)));
  // NaN operands: payload handling is fp::nanResult64's (measured) rule.
  const uint64_t nan = 0xFFF0000000001234ull;
  EXPECT_EQ(db(fp::nanResult64(bd(nan), 1.0)), exec2("add.f64", nan, one));
  EXPECT_TRUE(std::isnan(bd(exec2("mul.rz.f64", db(INFINITY), 0))));
}

// ---- fma / mad ---------------------------------------------------------------------------
TEST(FloatArith, FmaIsFused) {
  // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; an unfused mul would round the product to 1.
  const uint32_t a = 0x3F800001, b = 0x3F7FFFFE;
  EXPECT_EQ(0xA8800000u, uint32_t(exec3("fma.rn.f32", a, b, kNegOne)));
  EXPECT_EQ(0xA8800000u, uint32_t(exec3("mad.rn.f32", a, b, kNegOne)));
  EXPECT_EQ(0x00000000u, f32op("add.f32", f32op("mul.f32", a, b), kNegOne));
  // f64: (1 + 2^-52)(1 - 2^-52) - 1 = -2^-104.
  EXPECT_EQ(0xB970000000000000ull,
            exec3("fma.rn.f64", 0x3FF0000000000001ull, 0x3FEFFFFFFFFFFFFEull, db(-1.0)));
  EXPECT_EQ(0xB970000000000000ull,
            exec3("mad.rz.f64", 0x3FF0000000000001ull, 0x3FEFFFFFFFFFFFFEull, db(-1.0)));
}

TEST(FloatArith, FmaModesFtzSat) {
  // 1 * 1 + 1.5 * 2^-24 as in AddRoundsInEachMode.
  EXPECT_EQ(0x3F800001u, uint32_t(exec3("fma.rn.f32", kOne, kOne, 0x33C00000)));
  EXPECT_EQ(0x3F800000u, uint32_t(exec3("fma.rz.f32", kOne, kOne, 0x33C00000)));
  EXPECT_EQ(0x3F800000u, uint32_t(exec3("fma.rm.f32", kOne, kOne, 0x33C00000)));
  EXPECT_EQ(0x3F800001u, uint32_t(exec3("fma.rp.f32", kOne, kOne, 0x33C00000)));
  EXPECT_EQ(kOne, uint32_t(exec3("fma.rn.sat.f32", kTwo, kTwo, 0)));
  EXPECT_EQ(0u, uint32_t(exec3("fma.rn.sat.f32", kNegOne, kTwo, 0)));
  EXPECT_EQ(0u, uint32_t(exec3("fma.rn.ftz.f32", kMinNormal, 0x3F000000, 0)));
  EXPECT_EQ(0x00400000u, uint32_t(exec3("fma.rn.f32", kMinNormal, 0x3F000000, 0)));
  EXPECT_EQ(kNaN, uint32_t(exec3("fma.rn.f32", 0, kInf, kOne)));
}

// ---- div / rcp / sqrt (IEEE) -------------------------------------------------------------
TEST(FloatArith, DivRcpSqrtRounded) {
  EXPECT_EQ(0x3EAAAAABu, f32op("div.rn.f32", kOne, 0x40400000));
  EXPECT_EQ(0x3EAAAAAAu, f32op("div.rz.f32", kOne, 0x40400000));
  EXPECT_EQ(0x3EAAAAAAu, f32op("div.rm.f32", kOne, 0x40400000));
  EXPECT_EQ(0x3EAAAAABu, f32op("div.rp.f32", kOne, 0x40400000));
  EXPECT_EQ(kInf, f32op("div.rn.f32", kOne, 0));
  EXPECT_EQ(kNegInf, f32op("div.rn.f32", kOne, 0x80000000));
  EXPECT_EQ(kNaN, f32op("div.rn.f32", 0, 0));
  EXPECT_EQ(kInf, f32op("div.rn.f32", kOne, kMinSub));         // 2^149 overflows
  EXPECT_EQ(kNaN, f32op("div.rn.ftz.f32", kMinSub, kMinSub));  // 0/0 after flushing
  EXPECT_EQ(0x3EAAAAABu, uint32_t(exec1("rcp.rn.f32", 0x40400000)));
  EXPECT_EQ(0x3EAAAAAAu, uint32_t(exec1("rcp.rz.f32", 0x40400000)));
  EXPECT_EQ(kNegInf, uint32_t(exec1("rcp.rn.f32", 0x80000000)));
  EXPECT_EQ(kInf, uint32_t(exec1("rcp.rn.ftz.f32", kMinSub)));
  EXPECT_EQ(kMax, uint32_t(exec1("rcp.rz.f32", kMinSub)));
  EXPECT_EQ(0x3FB504F3u, uint32_t(exec1("sqrt.rn.f32", kTwo)));
  EXPECT_EQ(0x3FB504F4u, uint32_t(exec1("sqrt.rp.f32", kTwo)));
  EXPECT_EQ(0x3FB504F3u, uint32_t(exec1("sqrt.rm.f32", kTwo)));
  EXPECT_EQ(kNaN, uint32_t(exec1("sqrt.rn.f32", kNegOne)));
  EXPECT_EQ(0x80000000u, uint32_t(exec1("sqrt.rn.f32", 0x80000000)));
  EXPECT_EQ(0x80000000u, uint32_t(exec1("sqrt.rn.ftz.f32", 0x80000001)));
}

// ---- testp -------------------------------------------------------------------------------
uint32_t testp(const std::string& op, uint64_t v) {
  ExecHarness h(op, {ExecHarness::pred(1), R(2)});
  h.set(2, 0, v);
  h.setPred(1, 0xFFFFFFF0u);
  h.run(1);
  EXPECT_EQ(0xFFFFFFF0u, h.getPred(1) & ~1u);  // lanes outside the mask keep their bits
  return h.getPred(1) & 1u;
}

TEST(FloatArith, TestpClassesF32) {
  struct Case {
    uint32_t v;
    bool finite, infinite, number, normal, subnormal;
  };
  // PTX ISA 9.7.3.1: "positive and negative zero are considered normal numbers".
  for (Case c : {Case{0x00000000, 1, 0, 1, 1, 0}, Case{0x80000000, 1, 0, 1, 1, 0},
                 Case{0x00000001, 1, 0, 1, 0, 1}, Case{0x807FFFFF, 1, 0, 1, 0, 1},
                 Case{0x00800000, 1, 0, 1, 1, 0}, Case{0xBF800000, 1, 0, 1, 1, 0},
                 Case{0x7F800000, 0, 1, 1, 0, 0}, Case{0xFF800000, 0, 1, 1, 0, 0},
                 Case{0x7FC00000, 0, 0, 0, 0, 0}, Case{0xFF800001, 0, 0, 0, 0, 0}}) {
    SCOPED_TRACE(c.v);
    EXPECT_EQ(c.finite, testp("testp.finite.f32", c.v));
    EXPECT_EQ(c.infinite, testp("testp.infinite.f32", c.v));
    EXPECT_EQ(c.number, testp("testp.number.f32", c.v));
    EXPECT_EQ(!c.number, testp("testp.notanumber.f32", c.v));
    EXPECT_EQ(c.normal, testp("testp.normal.f32", c.v));
    EXPECT_EQ(c.subnormal, testp("testp.subnormal.f32", c.v));
  }
}

TEST(FloatArith, TestpF64) {
  EXPECT_EQ(1u, testp("testp.subnormal.f64", 0x000FFFFFFFFFFFFFull));
  EXPECT_EQ(0u, testp("testp.subnormal.f64", 0x0010000000000000ull));
  EXPECT_EQ(1u, testp("testp.normal.f64", 0x8000000000000000ull));
  EXPECT_EQ(1u, testp("testp.notanumber.f64", 0x7FF0000000000001ull));
  EXPECT_EQ(0u, testp("testp.finite.f64", 0xFFF0000000000000ull));
  EXPECT_EQ(1u, testp("testp.infinite.f64", 0xFFF0000000000000ull));
  // Only the low 32 bits of the slot are the f32: the high half must not matter.
  EXPECT_EQ(1u, testp("testp.normal.f32", 0xFFFFFFFF3F800000ull));
}

// ---- copysign abs neg --------------------------------------------------------------------
TEST(FloatArith, CopysignTakesSignOfFirstOperand) {
  EXPECT_EQ(0xC0000000u, f32op("copysign.f32", kNegOne, kTwo));
  EXPECT_EQ(0x40000000u, f32op("copysign.f32", kOne, 0xC0000000));
  EXPECT_EQ(0xFFC01234u, f32op("copysign.f32", 0x80000000, 0x7FC01234));  // a bit operation
  EXPECT_EQ(0xC000000000000000ull, exec2("copysign.f64", db(-0.0), db(2.0)));
}

TEST(FloatArith, AbsNeg) {
  EXPECT_EQ(0x00000000u, uint32_t(exec1("abs.f32", 0x80000000)));
  EXPECT_EQ(0x80000000u, uint32_t(exec1("neg.f32", 0x00000000)));
  EXPECT_EQ(0x80000001u, uint32_t(exec1("neg.f32", 0x00000001)));  // subnormals kept
  EXPECT_EQ(0x80000000u, uint32_t(exec1("neg.ftz.f32", 0x00000001)));
  EXPECT_EQ(0x00000000u, uint32_t(exec1("abs.ftz.f32", 0x807FFFFF)));
  EXPECT_EQ(kNaN, uint32_t(exec1("abs.f32", 0xFFC01234)));  // f32 NaN: canonical
  EXPECT_EQ(kNaN, uint32_t(exec1("neg.f32", 0x7F800001)));
  EXPECT_EQ(0x3FF0000000000000ull, exec1("abs.f64", 0xBFF0000000000000ull));
  EXPECT_EQ(0x8000000000000001ull, exec1("neg.f64", 0x0000000000000001ull));
  // f64 NaNs keep sign and payload, quieted (measured on the H200).
  EXPECT_EQ(0xFFF8000000001234ull, exec1("abs.f64", 0xFFF8000000001234ull));
  EXPECT_EQ(0x7FF8000000000001ull, exec1("neg.f64", 0x7FF0000000000001ull));
  EXPECT_EQ(0x7FF8000000000001ull, exec1("abs.f64", 0x7FF0000000000001ull));
}

// ---- min / max ---------------------------------------------------------------------------
TEST(FloatArith, MinMaxNaNAndZeros) {
  EXPECT_EQ(0x80000000u, f32op("min.f32", 0x00000000, 0x80000000));  // -0 < +0
  EXPECT_EQ(0x00000000u, f32op("max.f32", 0x80000000, 0x00000000));
  EXPECT_EQ(kOne, f32op("min.f32", 0x7FC01234, kOne));  // the non-NaN operand
  EXPECT_EQ(kOne, f32op("max.f32", kOne, 0xFF800001));
  EXPECT_EQ(kNaN, f32op("min.f32", 0x7FC01234, 0xFFC00000));  // both NaN: canonical
  EXPECT_EQ(kNaN, f32op("min.NaN.f32", 0x7FC01234, kOne));    // .NaN propagates
  EXPECT_EQ(kNaN, f32op("max.NaN.f32", kOne, 0x7F800001));
  EXPECT_EQ(kNegInf, f32op("min.NaN.f32", kNegInf, kOne));
  EXPECT_EQ(0x80000000u, f32op("min.ftz.f32", 0x80000001, 0x00000001));  // flushed to -0/+0
  EXPECT_EQ(0x80000001u, f32op("min.f32", 0x80000001, 0x00000001));
  EXPECT_EQ(db(-0.0), exec2("min.f64", db(0.0), db(-0.0)));
  EXPECT_EQ(db(3.0), exec2("max.f64", 0x7FF8000000000000ull, db(3.0)));
}

TEST(FloatArith, MinMaxXorsignAbs) {
  // |min| = 2, sign = sign(-2) ^ sign(3) = negative.
  EXPECT_EQ(0xC0000000u, f32op("min.xorsign.abs.f32", 0xC0000000, 0x40400000));
  EXPECT_EQ(0x40400000u, f32op("max.xorsign.abs.f32", 0xC0000000, 0xC0400000));
  EXPECT_EQ(0xC0400000u, f32op("max.xorsign.abs.f32", 0xC0000000, 0x40400000));
  // The manual's semantics: the NaN operand's sign still counts in the xorsign, the result is
  // the other operand's magnitude.
  EXPECT_EQ(0xC0400000u, f32op("min.xorsign.abs.f32", 0xFFC00000, 0x40400000));
  EXPECT_EQ(kNaN, f32op("min.NaN.xorsign.abs.f32", 0xFFC00000, 0x40400000));
}

TEST(FloatArith, MinMaxThreeInputs) {
  EXPECT_EQ(kOne, uint32_t(exec3("min.f32", 0x40400000, kOne, kTwo)));
  EXPECT_EQ(0x40400000u, uint32_t(exec3("max.f32", 0x40400000, kOne, kTwo)));
  EXPECT_EQ(kOne, uint32_t(exec3("min.abs.f32", 0xC0A00000, 0x40400000, kNegOne)));
  EXPECT_EQ(kTwo, uint32_t(exec3("min.f32", 0x7FC00000, kTwo, 0x7FC00000)));
  EXPECT_EQ(kNaN, uint32_t(exec3("max.NaN.f32", kOne, kTwo, 0x7FC00000)));
}

TEST(FloatArith, RunsOnMaskedLanesOnly) {
  ExecHarness h("add.f32", {R(1), R(2), R(3)});
  for (unsigned l = 0; l < 32; ++l) {
    h.set(1, l, 7);
    h.set(2, l, fb(float(l)));
    h.set(3, l, fb(0.5f));
  }
  h.run(0x0000FFFFu);
  for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(l < 16 ? fb(l + 0.5f) : 7u, h.get(1, l)) << l;
}

// ---- binding -----------------------------------------------------------------------------
TEST(FloatArith, RejectsInvalidForms) {
  for (const char* op : {"add.sat.f64",
                         "add.ftz.f64",
                         "add.rna.f32",
                         "add.rni.f32",
                         "add.rn.rz.f32",
                         "add.f32.f16",
                         "mul.relu.f32",
                         "fma.f32",
                         "mad.f32",
                         "mad.f64",
                         "fma.sat.rn.f64",
                         "div.f32",
                         "div.f64",
                         "div.sat.rn.f32",
                         "div.approx.f64",
                         "div.full.f64",
                         "div.approx.full.f32",
                         "rcp.f32",
                         "rcp.approx.f64",
                         "rcp.sat.rn.f32",
                         "sqrt.f64",
                         "sqrt.approx.f64",
                         "sqrt.approx.rn.f32",
                         "abs.rn.f32",
                         "abs.ftz.f64",
                         "neg.sat.f32",
                         "copysign.ftz.f32",
                         "min.ftz.f64",
                         "min.NaN.f64",
                         "min.abs.f32",
                         "min.xorsign.f32",
                         "max.rn.f32",
                         "testp.f32",
                         "testp.finite.infinite.f32",
                         "testp.finite.rn.f32"}) {
    const size_t n =
        std::string(op).rfind("fma", 0) == 0 || std::string(op).rfind("mad", 0) == 0 ? 4
        : std::string(op).rfind("abs", 0) == 0 || std::string(op).rfind("neg", 0) == 0 ||
                std::string(op).rfind("rcp", 0) == 0 || std::string(op).rfind("sqrt", 0) == 0 ||
                std::string(op).rfind("testp", 0) == 0
            ? 2
            : 3;
    EXPECT_FALSE(bindMessage(op, n).empty()) << op;
  }
  EXPECT_FALSE(bindMessage("min.xorsign.abs.f32", 4).empty());  // not with three inputs
  EXPECT_FALSE(bindMessage("add.f32", 2).empty());              // operand count
  EXPECT_FALSE(bindMessage("fma.rn.f32", 3).empty());
  EXPECT_FALSE(bindMessage("testp.finite.f32", 2).empty());  // must write a predicate
  ExecHarness h("mov.b32", {R(1), R(2)});
  EXPECT_FALSE(h.tryBind("add.f32", {R(1), R(2), ExecHarness::pred(1)}).empty());
}

TEST(FloatArith, AcceptsEveryListedForm) {
  for (const char* op :
       {"add.f32", "add.rn.ftz.sat.f32", "add.rz.f64", "sub.rm.ftz.f32", "mul.rp.sat.f32",
        "mul.f64", "div.rn.ftz.f32", "div.rp.f64", "rcp.rm.ftz.f32", "rcp.rz.f64", "sqrt.rp.f32",
        "sqrt.rn.f64", "min.ftz.NaN.xorsign.abs.f32", "max.NaN.f32", "max.f64"}) {
    const bool unary =
        std::string(op).rfind("rcp", 0) == 0 || std::string(op).rfind("sqrt", 0) == 0;
    EXPECT_EQ("", bindMessage(op, unary ? 2 : 3)) << op;
  }
  for (const char* op : {"fma.rn.ftz.sat.f32", "fma.rz.f64", "mad.rm.f32", "mad.rp.f64"})
    EXPECT_EQ("", bindMessage(op, 4)) << op;
  EXPECT_EQ("", bindMessage("min.ftz.NaN.abs.f32", 4));
  EXPECT_EQ("", bindMessage("abs.ftz.f32", 2));
  EXPECT_EQ("", bindMessage("neg.f64", 2));
}

TEST(FloatArith, EveryCombinationBindsOrExplains) { EXPECT_GT(sweepFamily("float_arith"), 100u); }

// ---- properties --------------------------------------------------------------------------
float canon(float f) { return std::isnan(f) ? bf(kNaN) : f; }
float flushRef(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

// The exact sum a + b as s + e (TwoSum; no overflow for f32 operands in double).
void twoSum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

// The reference f32 sum (op 0), product (1) or fused a*b+c (2) in mode r, with .ftz semantics
// if asked: inputs flushed, and a result that is tiny after rounding flushed to a signed zero.
float refAddMulFma(int op, float a, float b, float c, Round r, bool ftz) {
  if (ftz) a = flushRef(a), b = flushRef(b), c = flushRef(c);
  const float rn = canon(op == 0 ? a + b : op == 1 ? a * b : std::fma(a, b, c));
  if (std::isnan(rn) || !std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c))
    return rn;  // NaN, or an exact infinity from an infinite operand
  double s, e;  // the exact result is s + e
  if (op == 0)
    twoSum(a, b, s, e);
  else if (op == 1)
    s = double(a) * double(b), e = 0;
  else
    twoSum(double(a) * double(b), c, s, e);
  if (s == 0 && e == 0) {  // an exact zero: its sign by IEEE 754 section 6.3
    if (op == 1) return rn;
    const double x = op == 0 ? a : double(a) * double(b), y = op == 0 ? b : c;
    if (x == 0 && y == 0 && std::signbit(x) == std::signbit(y)) return float(x);
    return r == Round::RM ? -0.0f : 0.0f;
  }
  if (ftz && tinyAfterRoundingF32(
                 s < 0, r, [&](double t) { return sgn((std::fabs(s) - t) + (s < 0 ? -e : e)); }))
    return std::copysign(0.0f, float(s));
  return roundDirected(rn, r, [&](float x) {
    if (std::isinf(x)) return std::signbit(x) ? -1 : 1;
    return sgn((double(x) - s) - e);
  });
}

RC_GTEST_PROP(FloatArithProps, AddSubMulFmaF32MatchReference, ()) {
  const float a = bf(*genF32()), b = bf(*genF32()), c = bf(*genF32());
  for (Round r : kModes)
    for (bool ftz : {false, true}) {
      const std::string suffix = std::string(".") + modeName(r) + (ftz ? ".ftz" : "") + ".f32";
      RC_ASSERT(fb(refAddMulFma(0, a, b, 0, r, ftz)) ==
                uint32_t(exec2("add" + suffix, fb(a), fb(b))));
      RC_ASSERT(fb(refAddMulFma(0, a, -b, 0, r, ftz)) ==
                uint32_t(exec2("sub" + suffix, fb(a), fb(b))));
      RC_ASSERT(fb(refAddMulFma(1, a, b, 0, r, ftz)) ==
                uint32_t(exec2("mul" + suffix, fb(a), fb(b))));
      RC_ASSERT(fb(refAddMulFma(2, a, b, c, r, ftz)) ==
                uint32_t(exec3("fma" + suffix, fb(a), fb(b), fb(c))));
    }
}

RC_GTEST_PROP(FloatArithProps, SatIsClampOfResult, ()) {
  const float a = bf(*genF32()), b = bf(*genF32());
  const float v = bf(uint32_t(exec2("mul.rz.f32", fb(a), fb(b))));
  const float sat = std::isnan(v) ? 0.0f : v <= 0 ? 0.0f : v > 1 ? 1.0f : v;
  RC_ASSERT(fb(sat) == uint32_t(exec2("mul.rz.sat.f32", fb(a), fb(b))));
}

// a / b: sign(x - a/b) = sign(x*b - a) * sign(b), with x*b exact in double.
float refDiv(float a, float b, Round r, bool ftz) {
  if (ftz) a = flushRef(a), b = flushRef(b);
  const float rn = canon(a / b);
  if (std::isnan(rn) || !std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return rn;
  if (ftz && tinyAfterRoundingF32(std::signbit(a) != std::signbit(b), r, [&](double t) {
        return sgn(std::fabs(double(a)) - std::fabs(double(b)) * t);  // exact products
      }))
    return std::copysign(0.0f, rn);
  return roundDirected(rn, r, [&](float x) {
    if (std::isinf(x)) return std::signbit(x) ? -1 : 1;
    return sgn(double(x) * double(b) - double(a)) * sgn(b);
  });
}
// sqrt(a): sign(x - sqrt(a)) = sign(x*x - a) for x >= 0.
float refSqrt(float a, Round r, bool ftz) {
  if (ftz) a = flushRef(a);
  const float rn = canon(std::sqrt(a));
  if (std::isnan(rn) || rn == 0 || std::isinf(rn)) return rn;
  return roundDirected(rn, r, [&](float x) { return sgn(double(x) * double(x) - double(a)); });
}

RC_GTEST_PROP(FloatArithProps, DivRcpSqrtF32MatchReference, ()) {
  const float a = bf(*genF32()), b = bf(*genF32());
  for (Round r : kModes)
    for (bool ftz : {false, true}) {
      const std::string suffix = std::string(".") + modeName(r) + (ftz ? ".ftz" : "") + ".f32";
      RC_ASSERT(fb(refDiv(a, b, r, ftz)) == uint32_t(exec2("div" + suffix, fb(a), fb(b))));
      RC_ASSERT(fb(refDiv(1.0f, b, r, ftz)) == uint32_t(exec1("rcp" + suffix, fb(b))));
      RC_ASSERT(fb(refSqrt(a, r, ftz)) == uint32_t(exec1("sqrt" + suffix, fb(a))));
    }
}

RC_GTEST_PROP(FloatArithProps, F64RoundToNearestMatchesHost, ()) {
  const double a = bd(*genF64()), b = bd(*genF64()), c = bd(*genF64());
  auto check = [](double expect, uint64_t got) {
    if (std::isnan(expect))
      RC_ASSERT(std::isnan(bd(got)));
    else
      RC_ASSERT(db(expect) == got);
  };
  check(a + b, exec2("add.f64", db(a), db(b)));
  check(a - b, exec2("sub.rn.f64", db(a), db(b)));
  check(a * b, exec2("mul.rn.f64", db(a), db(b)));
  check(a / b, exec2("div.rn.f64", db(a), db(b)));
  check(std::fma(a, b, c), exec3("fma.rn.f64", db(a), db(b), db(c)));
  check(std::sqrt(a), exec1("sqrt.rn.f64", db(a)));
  check(1.0 / a, exec1("rcp.rn.f64", db(a)));
}

using Q = __float128;
double refMul64(double a, double b, Round r) {
  const double rn = a * b;
  if (std::isnan(rn) || !std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return rn;
  return roundDirected(rn, r, [&](double x) {
    if (std::isinf(x)) return std::signbit(x) ? -1 : 1;
    return sgn(Q(x) - Q(a) * Q(b));
  });
}
double refDiv64(double a, double b, Round r) {
  const double rn = a / b;
  if (std::isnan(rn) || !std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return rn;
  return roundDirected(rn, r, [&](double x) {
    if (std::isinf(x)) return std::signbit(x) ? -1 : 1;
    return sgn(Q(x) * Q(b) - Q(a)) * sgn(b);
  });
}
double refSqrt64(double a, Round r) {
  const double rn = std::sqrt(a);
  if (std::isnan(rn) || rn == 0 || std::isinf(rn)) return rn;
  return roundDirected(rn, r, [&](double x) { return sgn(Q(x) * Q(x) - Q(a)); });
}

RC_GTEST_PROP(FloatArithProps, F64DirectedMulDivSqrt, ()) {
  const double a = bd(*genF64()), b = bd(*genF64());
  auto check = [](double expect, uint64_t got) {
    if (std::isnan(expect))
      RC_ASSERT(std::isnan(bd(got)));
    else
      RC_ASSERT(db(expect) == got);
  };
  for (Round r : kModes) {
    const std::string suffix = std::string(".") + modeName(r) + ".f64";
    check(refMul64(a, b, r), exec2("mul" + suffix, db(a), db(b)));
    check(refDiv64(a, b, r), exec2("div" + suffix, db(a), db(b)));
    check(refDiv64(1.0, b, r), exec1("rcp" + suffix, db(b)));
    check(refSqrt64(a, r), exec1("sqrt" + suffix, db(a)));
  }
}

// min/max reference straight from the manual's pseudo-code.
uint32_t refMinMax(bool isMax, uint32_t a, uint32_t b, bool ftz, bool nan, bool xorAbs) {
  if (ftz) a = fb(flushRef(bf(a))), b = fb(flushRef(bf(b)));
  const uint32_t xs = (a ^ b) & 0x80000000u;
  if (xorAbs) a &= 0x7FFFFFFF, b &= 0x7FFFFFFF;
  const float x = bf(a), y = bf(b);
  uint32_t d;
  if (std::isnan(x) && std::isnan(y))
    d = kNaN;
  else if (nan && (std::isnan(x) || std::isnan(y)))
    d = kNaN;
  else if (std::isnan(x))
    d = b;
  else if (std::isnan(y))
    d = a;
  else if (x == y)
    d = (std::signbit(x) != isMax) ? a : b;  // -0 < +0
  else
    d = ((x < y) != isMax) ? a : b;
  if (xorAbs && !std::isnan(bf(d))) d = (d & 0x7FFFFFFF) | xs;
  return d;
}

RC_GTEST_PROP(FloatArithProps, MinMaxF32MatchManual, ()) {
  const uint32_t a = *genF32(), b = *genF32();
  for (bool isMax : {false, true})
    for (unsigned f = 0; f < 8; ++f) {
      const bool ftz = f & 1, nan = f & 2, xa = f & 4;
      const std::string op = std::string(isMax ? "max" : "min") + (ftz ? ".ftz" : "") +
                             (nan ? ".NaN" : "") + (xa ? ".xorsign.abs" : "") + ".f32";
      RC_ASSERT(refMinMax(isMax, a, b, ftz, nan, xa) == uint32_t(exec2(op, a, b)));
    }
}

RC_GTEST_PROP(FloatArithProps, TestpMatchesFpclassify, ()) {
  const uint32_t a = *genF32();
  const int c = std::fpclassify(bf(a));
  RC_ASSERT(bool(testp("testp.finite.f32", a)) == (c != FP_INFINITE && c != FP_NAN));
  RC_ASSERT(bool(testp("testp.infinite.f32", a)) == (c == FP_INFINITE));
  RC_ASSERT(bool(testp("testp.number.f32", a)) == (c != FP_NAN));
  RC_ASSERT(bool(testp("testp.notanumber.f32", a)) == (c == FP_NAN));
  RC_ASSERT(bool(testp("testp.normal.f32", a)) == (c == FP_NORMAL || c == FP_ZERO));
  RC_ASSERT(bool(testp("testp.subnormal.f32", a)) == (c == FP_SUBNORMAL));
  const uint64_t d = *genF64();
  const int cd = std::fpclassify(bd(d));
  RC_ASSERT(bool(testp("testp.normal.f64", d)) == (cd == FP_NORMAL || cd == FP_ZERO));
  RC_ASSERT(bool(testp("testp.subnormal.f64", d)) == (cd == FP_SUBNORMAL));
}

RC_GTEST_PROP(FloatArithProps, AbsNegCopysignAreSignOperations, ()) {
  const uint32_t a = *genF32(), b = *genF32();
  const bool nan = std::isnan(bf(a));
  RC_ASSERT((nan ? kNaN : a & 0x7FFFFFFF) == uint32_t(exec1("abs.f32", a)));
  RC_ASSERT((nan ? kNaN : a ^ 0x80000000) == uint32_t(exec1("neg.f32", a)));
  RC_ASSERT(((b & 0x7FFFFFFF) | (a & 0x80000000)) == uint32_t(exec2("copysign.f32", a, b)));
  const uint64_t d = *genF64();
  RC_ASSERT((std::isnan(bd(d)) ? d | 0x0008000000000000ull : d ^ (1ull << 63)) ==
            exec1("neg.f64", d));
}

}  // namespace
}  // namespace warpsim::test
