// The contraction pass (isa/contract.h): every clause of ptxas's rule (docs/FIDELITY.md,
// "Contraction") on small kernels, fused and not fused, the values the fused instructions
// compute, and a property: on random straight-line programs like those the rule was derived
// from (scripts/probes/fma_contraction.py, which agreed with ptxas's SASS on 1,000 of 1,000),
// the pass fuses exactly as many pairs as the rule predicts.
#include "isa/contract.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "harness/ptxgen/ptxgen.h"
#include "isa/fp.h"
#include "isa/insns/families.h"
#include "isa/lower.h"
#include "isa/parser.h"
#include "isa/sfu/approx.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

using isa::Type;

// A kernel k(in, out): %f1..%f8 and %fd1..%fd4 are loaded from `in` (f32 in[0..7], f64 from
// byte 32), `body` runs, then each register of `outs` is stored to out[i] (8 bytes apart).
std::string kernel(const std::string& body, const std::vector<std::string>& outs) {
  std::string s =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
      "  .reg .f32 %f<32>;\n  .reg .f64 %fd<16>;\n  .reg .pred %p<4>;\n  .reg .b64 %rd<4>;\n"
      "  .reg .b32 %r<4>;\n"
      "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n";
  for (int i = 1; i <= 8; ++i)
    s += "  ld.global.f32 %f" + std::to_string(i) + ", [%rd1+" + std::to_string(4 * (i - 1)) +
         "];\n";
  for (int i = 1; i <= 4; ++i)
    s += "  ld.global.f64 %fd" + std::to_string(i) + ", [%rd1+" + std::to_string(24 + 8 * i) +
         "];\n";
  s += body;
  for (size_t i = 0; i < outs.size(); ++i)
    s += std::string("  st.global.") + (outs[i].rfind("%fd", 0) == 0 ? "f64" : "f32") + " [%rd2+" +
         std::to_string(8 * i) + "], " + outs[i] + ";\n";
  return s + "  ret;\n}\n";
}

struct Lowered {
  ir::Module module;
  isa::Program program;
  const isa::FunctionCode& fn() const { return program.functions[0]; }
};

std::unique_ptr<Lowered> lowerText(const std::string& ptx, bool contract = true) {
  auto l = std::make_unique<Lowered>();
  l->module = isa::parseModule(ptx, "contract.ptx", isa::validateInstruction);
  l->program = isa::lower(
      l->module, [](const ir::VarDecl&) { return uint64_t(0x1000); }, isa::LowerOptions{contract});
  EXPECT_EQ(l->fn().error, nullptr) << l->fn().error->what();
  return l;
}

// The fused handler's flags, when `in` is a fused multiply-add.
struct FusedForm {
  Type type;
  bool ftz, sat, negProduct, negAddend;
  bool operator<(const FusedForm& o) const {
    return std::tie(type, ftz, sat, negProduct, negAddend) <
           std::tie(o.type, o.ftz, o.sat, o.negProduct, o.negAddend);
  }
  bool operator==(const FusedForm& o) const = default;
};
std::optional<FusedForm> fusedForm(const isa::Inst& in) {
  for (Type t : {Type::F32, Type::F64, Type::F16, Type::F16x2, Type::BF16, Type::BF16x2})
    for (unsigned f = 0; f < 16; ++f) {
      const FusedForm form{t, (f & 1) != 0, (f & 2) != 0, (f & 4) != 0, (f & 8) != 0};
      isa::Handler h =
          isa::insns::fusedMultiplyAdd(t, form.ftz, form.sat, form.negProduct, form.negAddend);
      if (h && h == in.run) return form;
    }
  return std::nullopt;
}

struct Shape {
  size_t fused = 0;  // fused instructions
  size_t muls = 0;   // muls left
  std::vector<FusedForm> forms;
};
Shape shapeOf(const std::string& body, const std::vector<std::string>& outs, bool contract = true) {
  auto l = lowerText(kernel(body, outs), contract);
  Shape s;
  for (const isa::Inst& in : l->fn().code) {
    if (auto f = fusedForm(in)) {
      ++s.fused;
      s.forms.push_back(*f);
    }
    if (in.text.rfind("mul.", 0) == 0) ++s.muls;
  }
  return s;
}

constexpr FusedForm kPlain{Type::F32, false, false, false, false};

TEST(Contraction, FusesAMulIntoTheAddThatConsumesIt) {
  const Shape s = shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n", {"%f11"});
  EXPECT_EQ(s.fused, 1u);
  EXPECT_EQ(s.muls, 0u);  // the mul is gone: its only use was fused
  EXPECT_EQ(s.forms, std::vector<FusedForm>{kPlain});
  // The product as the add's second operand fuses alike.
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f3, %f10;\n", {"%f11"}).fused, 1u);
}

TEST(Contraction, SubtractionNegatesTheAddendOrTheProduct) {
  Shape s = shapeOf("  mul.f32 %f10, %f1, %f2;\n  sub.f32 %f11, %f10, %f3;\n", {"%f11"});
  EXPECT_EQ(s.forms, (std::vector<FusedForm>{{Type::F32, false, false, false, true}}));
  s = shapeOf("  mul.f32 %f10, %f1, %f2;\n  sub.f32 %f11, %f3, %f10;\n", {"%f11"});
  EXPECT_EQ(s.forms, (std::vector<FusedForm>{{Type::F32, false, false, true, false}}));
}

TEST(Contraction, ARoundingModifierOnEitherSidePreventsIt) {
  for (const char* body : {"  mul.rn.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n",
                           "  mul.f32 %f10, %f1, %f2;\n  add.rn.f32 %f11, %f10, %f3;\n",
                           "  mul.rz.f32 %f10, %f1, %f2;\n  sub.f32 %f11, %f10, %f3;\n"}) {
    const Shape s = shapeOf(body, {"%f11"});
    EXPECT_EQ(s.fused, 0u) << body;
    EXPECT_EQ(s.muls, 1u) << body;
  }
}

TEST(Contraction, FtzMustMatchAndOnlyTheAddMaySaturate) {
  EXPECT_EQ(shapeOf("  mul.ftz.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n", {"%f11"}).fused,
            0u);
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.ftz.f32 %f11, %f10, %f3;\n", {"%f11"}).fused,
            0u);
  EXPECT_EQ(
      shapeOf("  mul.ftz.f32 %f10, %f1, %f2;\n  add.ftz.f32 %f11, %f10, %f3;\n", {"%f11"}).forms,
      (std::vector<FusedForm>{{Type::F32, true, false, false, false}}));
  EXPECT_EQ(shapeOf("  mul.sat.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n", {"%f11"}).fused,
            0u);
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.sat.f32 %f11, %f10, %f3;\n", {"%f11"}).forms,
            (std::vector<FusedForm>{{Type::F32, false, true, false, false}}));
}

TEST(Contraction, OnlyWithinOneBasicBlock) {
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\nL1:\n  add.f32 %f11, %f10, %f3;\n", {"%f11"}).fused,
            0u);
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  setp.gt.f32 %p1, %f1, 0f00000000;\n"
                    "  @%p1 bra L1;\n  add.f32 %f11, %f10, %f3;\nL1:\n",
                    {"%f11"})
                .fused,
            0u);
  // Other instructions between them, stores included, do not matter.
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  st.global.f32 [%rd2+64], %f4;\n"
                    "  add.f32 %f12, %f4, %f5;\n  add.f32 %f11, %f10, %f3;\n",
                    {"%f11", "%f12"})
                .fused,
            1u);
}

TEST(Contraction, EveryLiveUseMustConsumeTheProduct) {
  // Also stored: stays a mul, and the add an add.
  Shape s = shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n", {"%f11", "%f10"});
  EXPECT_EQ(s.fused, 0u);
  EXPECT_EQ(s.muls, 1u);
  // Used by two adds: fused into each.
  s = shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n  sub.f32 %f12, %f10, %f4;\n",
              {"%f11", "%f12"});
  EXPECT_EQ(s.fused, 2u);
  EXPECT_EQ(s.muls, 0u);
  // x*y + x*y: both operands of one add.
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f10;\n", {"%f11"}).fused,
            0u);
  // Used by an add with .rn (not fusible): neither pair fuses.
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n"
                    "  add.rn.f32 %f12, %f10, %f4;\n",
                    {"%f11", "%f12"})
                .fused,
            0u);
  // ...unless that add is dead code.
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n"
                    "  add.rn.f32 %f12, %f10, %f4;\n",
                    {"%f11"})
                .fused,
            1u);
}

TEST(Contraction, TwoProductsInOneAddFuseTheFirst) {
  // a*b + c*d = fma(a, b, c*d): the second product is the addend of a fused pair and stays.
  const Shape s =
      shapeOf("  mul.f32 %f10, %f1, %f2;\n  mul.f32 %f12, %f3, %f4;\n  add.f32 %f11, %f10, %f12;\n",
              {"%f11"});
  EXPECT_EQ(s.fused, 1u);
  EXPECT_EQ(s.muls, 1u);
}

TEST(Contraction, AGuardedAddFusesAGuardedMulDoesNot) {
  EXPECT_EQ(shapeOf("  setp.gt.f32 %p1, %f1, 0f00000000;\n  mul.f32 %f10, %f1, %f2;\n"
                    "  mov.f32 %f11, %f5;\n  @%p1 add.f32 %f11, %f10, %f3;\n",
                    {"%f11"})
                .fused,
            1u);
  EXPECT_EQ(shapeOf("  setp.gt.f32 %p1, %f1, 0f00000000;\n  mov.f32 %f10, %f5;\n"
                    "  @%p1 mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n",
                    {"%f11"})
                .fused,
            0u);
}

TEST(Contraction, ANegOfTheProductIsFoldedIn) {
  const Shape s = shapeOf(
      "  mul.f32 %f10, %f1, %f2;\n  neg.f32 %f12, %f10;\n  add.f32 %f11, %f12, %f3;\n", {"%f11"});
  EXPECT_EQ(s.forms, (std::vector<FusedForm>{{Type::F32, false, false, true, false}}));
  EXPECT_EQ(s.muls, 0u);
}

// ptxas 13's SASS for the 16 combinations of .ftz on mul, neg and add/sub (the H200 agreed:
// scripts/device_contract.sh's first run found `c - neg.ftz(a*b)` twice-rounded on the chip): a
// plain neg folds into any mul, a neg.ftz only into a mul.ftz, and `c - neg.ftz(a*b)` stays
// apart where `neg.ftz(a*b) - c` and `c + neg.ftz(a*b)` fuse.
TEST(Contraction, ANegFtzFoldsOnlyIntoAMulFtzAndNotAsASubtrahend) {
  auto fused = [](const char* mul, const char* neg, const char* sum, bool productFirst) {
    const std::string ops = productFirst ? "%f12, %f3" : "%f3, %f12";
    return shapeOf(std::string("  ") + mul + " %f10, %f1, %f2;\n  " + neg + " %f12, %f10;\n  " +
                       sum + " %f11, " + ops + ";\n",
                   {"%f11"})
        .fused;
  };
  EXPECT_EQ(fused("mul.ftz.f32", "neg.f32", "add.ftz.f32", true), 1u);
  EXPECT_EQ(fused("mul.ftz.f32", "neg.f32", "sub.ftz.f32", false), 1u);
  EXPECT_EQ(fused("mul.ftz.f32", "neg.ftz.f32", "add.ftz.f32", true), 1u);
  EXPECT_EQ(fused("mul.ftz.f32", "neg.ftz.f32", "add.ftz.f32", false), 1u);
  EXPECT_EQ(fused("mul.ftz.f32", "neg.ftz.f32", "sub.ftz.f32", true), 1u);
  EXPECT_EQ(fused("mul.ftz.f32", "neg.ftz.f32", "sub.ftz.f32", false), 0u);
  EXPECT_EQ(fused("mul.f32", "neg.ftz.f32", "add.f32", true), 0u);
  EXPECT_EQ(fused("mul.f32", "neg.ftz.f32", "sub.f32", false), 0u);
  EXPECT_EQ(fused("mul.f32", "neg.f32", "sub.f32", false), 1u);
}

TEST(Contraction, F64PairsFuseToo) {
  const Shape s =
      shapeOf("  mul.f64 %fd10, %fd1, %fd2;\n  sub.f64 %fd11, %fd3, %fd10;\n", {"%fd11"});
  EXPECT_EQ(s.forms, (std::vector<FusedForm>{{Type::F64, false, false, true, false}}));
  // Mixed types never pair.
  EXPECT_EQ(shapeOf("  mul.f32 %f10, %f1, %f2;\n  cvt.f64.f32 %fd10, %f10;\n"
                    "  add.f64 %fd11, %fd10, %fd1;\n",
                    {"%fd11"})
                .fused,
            0u);
}

TEST(Contraction, HalfPrecisionPairsFuseIntoHfma2) {
  const std::string loads =
      "  .reg .b16 %h<8>;\n  .reg .b32 %hh<8>;\n"
      "  ld.global.b16 %h1, [%rd1];\n  ld.global.b16 %h2, [%rd1+2];\n"
      "  ld.global.b16 %h3, [%rd1+4];\n  ld.global.b32 %hh1, [%rd1+8];\n"
      "  ld.global.b32 %hh2, [%rd1+12];\n  ld.global.b32 %hh3, [%rd1+16];\n";
  auto forms = [&](const std::string& body) {
    auto l = lowerText(kernel(loads + body +
                                  "  st.global.b16 [%rd2+64], %h5;\n"
                                  "  st.global.b32 [%rd2+68], %hh5;\n",
                              {}));
    std::vector<FusedForm> out;
    for (const isa::Inst& in : l->fn().code)
      if (auto f = fusedForm(in)) out.push_back(*f);
    return out;
  };
  EXPECT_EQ(forms("  mul.f16 %h4, %h1, %h2;\n  add.f16 %h5, %h4, %h3;\n"
                  "  mul.ftz.f16x2 %hh4, %hh1, %hh2;\n  sub.ftz.f16x2 %hh5, %hh3, %hh4;\n"),
            (std::vector<FusedForm>{{Type::F16, false, false, false, false},
                                    {Type::F16x2, true, false, true, false}}));
  EXPECT_EQ(forms("  mul.bf16 %h4, %h1, %h2;\n  sub.bf16 %h5, %h4, %h3;\n"
                  "  mul.rn.bf16x2 %hh4, %hh1, %hh2;\n  add.bf16x2 %hh5, %hh4, %hh3;\n"),
            (std::vector<FusedForm>{{Type::BF16, false, false, false, true}}));
}

TEST(Contraction, AFusedHalfPairRoundsOnce) {
  // a = b = 1 + 2^-6 (0x3C10): a*b - 1 = 2^-5 + 2^-12 = 0x2808 in f16; the rounded product
  // (1 + 2^-5) would leave 2^-5 = 0x2800.
  const std::string ptx = kernel(
      "  .reg .b16 %h<8>;\n  mov.b16 %h1, 0x3C10;\n  mov.b16 %h3, 0x3C00;\n"
      "  mul.f16 %h4, %h1, %h1;\n  sub.f16 %h5, %h4, %h3;\n  st.global.b16 [%rd2], %h5;\n",
      {});
  for (bool contract : {true, false}) {
    PtxRunner r(ptx, "contract.ptx", isa::LowerOptions{contract});
    const uint64_t inBuf = r.buffer<uint8_t>(64, std::vector<uint8_t>(64, 0));
    const uint64_t outBuf = r.buffer<uint16_t>(1);
    const auto res =
        r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(inBuf), PtxRunner::ptr(outBuf)});
    EXPECT_FALSE(res.fault);
    EXPECT_EQ(r.read<uint16_t>(outBuf, 1)[0], contract ? 0x2808 : 0x2800);
  }
}

TEST(Contraction, AnOverwrittenSourceKeepsThePairApart) {
  // The fused instruction would read %f1 after the mov: not fused (and still exact as written).
  const Shape s =
      shapeOf("  mul.f32 %f10, %f1, %f2;\n  mov.f32 %f1, %f5;\n  add.f32 %f11, %f10, %f3;\n",
              {"%f11", "%f1"});
  EXPECT_EQ(s.fused, 0u);
  // The mul's own destination may be one of its sources: the mul is removed, so it stays.
  EXPECT_EQ(shapeOf("  mul.f32 %f1, %f1, %f2;\n  add.f32 %f11, %f1, %f3;\n", {"%f11"}).fused, 1u);
}

TEST(Contraction, OffExecutesPtxLiterally) {
  const Shape s =
      shapeOf("  mul.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n", {"%f11"}, false);
  EXPECT_EQ(s.fused, 0u);
  EXPECT_EQ(s.muls, 1u);
}

// ---- values ------------------------------------------------------------------------------

struct Inputs {
  float f[8] = {};
  double d[4] = {};
};

// Runs kernel(body, outs) on one thread; the outputs' raw bits.
std::vector<uint64_t> runBits(const std::string& body, const std::vector<std::string>& outs,
                              const Inputs& in, bool contract = true) {
  PtxRunner r(kernel(body, outs), "contract.ptx", isa::LowerOptions{contract});
  std::vector<uint8_t> bytes(64);
  std::memcpy(bytes.data(), in.f, 32);
  std::memcpy(bytes.data() + 32, in.d, 32);
  const uint64_t inBuf = r.buffer<uint8_t>(64, bytes);
  const uint64_t outBuf = r.buffer<uint64_t>(outs.size());
  const auto res =
      r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(inBuf), PtxRunner::ptr(outBuf)});
  EXPECT_FALSE(res.fault);
  std::vector<uint64_t> v = r.read<uint64_t>(outBuf, outs.size());
  for (size_t i = 0; i < outs.size(); ++i)
    if (outs[i].rfind("%fd", 0) != 0) v[i] &= 0xFFFFFFFFu;
  return v;
}

uint64_t f32bits(float f) { return fp::bits(f); }

TEST(Contraction, FusedPairsRoundOnceAsTheChipDoes) {
  // a = b = 1 + 2^-12: a*b = 1 + 2^-11 + 2^-24 rounds (a tie, to even) to 1 + 2^-11 in f32.
  Inputs in;
  in.f[0] = in.f[1] = 1.0f + std::ldexp(1.0f, -12);
  in.f[2] = 1.0f;
  const float exact = std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24);
  const std::string body =
      "  mul.f32 %f10, %f1, %f2;\n  sub.f32 %f11, %f10, %f3;\n"
      "  mul.f32 %f12, %f1, %f2;\n  sub.f32 %f13, %f3, %f12;\n"
      "  mul.f32 %f14, %f1, %f2;\n  neg.f32 %f15, %f14;\n  add.f32 %f16, %f15, %f3;\n"
      "  mul.f32 %f17, %f1, %f2;\n  add.f32 %f18, %f17, %f3;\n";
  const std::vector<std::string> outs = {"%f11", "%f13", "%f16", "%f18"};
  EXPECT_EQ(runBits(body, outs, in),
            (std::vector<uint64_t>{f32bits(exact), f32bits(-exact), f32bits(-exact),
                                   f32bits(std::fma(in.f[0], in.f[1], 1.0f))}));
  // Literally: the product rounds first.
  EXPECT_EQ(runBits(body, outs, in, false)[0], f32bits(std::ldexp(1.0f, -11)));
  // f64: (1 + 2^-30)^2 - 1 = 2^-29 + 2^-60, which the rounded product loses.
  in.d[0] = in.d[1] = 1.0 + std::ldexp(1.0, -30);
  in.d[2] = 1.0;
  EXPECT_EQ(
      runBits("  mul.f64 %fd10, %fd1, %fd2;\n  sub.f64 %fd11, %fd10, %fd3;\n", {"%fd11"}, in)[0],
      fp::bits(std::ldexp(1.0, -29) + std::ldexp(1.0, -60)));
}

TEST(Contraction, SaturationAndFlushApplyToTheFusedResult) {
  Inputs in;
  in.f[0] = 3.0f;
  in.f[1] = 0.5f;
  in.f[2] = 0.25f;
  in.f[3] = std::ldexp(1.0f, -70);  // tiny: a product of two is subnormal
  EXPECT_EQ(runBits("  mul.f32 %f10, %f1, %f2;\n  add.sat.f32 %f11, %f10, %f3;\n", {"%f11"}, in)[0],
            f32bits(1.0f));
  EXPECT_EQ(runBits("  mul.ftz.f32 %f10, %f4, %f4;\n  add.ftz.f32 %f11, %f10, %f10;\n"
                    "  mul.ftz.f32 %f12, %f4, %f4;\n  sub.ftz.f32 %f13, %f12, 0f00000000;\n",
                    {"%f13"}, in)[0],
            0u);  // 2^-140 is subnormal: flushed to +0
}

// div.approx.f32 / div.full.f32 end in an FMUL of MUFU.RCP(b) and a, which ptxas 13 fuses
// like a mul (nvdisasm: FFMA, FFMA.FTZ, FFMA.SAT, with a folded neg; not div.rn).
size_t fusedQuotients(const std::string& body, const std::vector<std::string>& outs) {
  auto l = lowerText(kernel(body, outs));
  size_t n = 0;
  for (const isa::Inst& in : l->fn().code)
    for (unsigned f = 0; f < 32; ++f)
      n += in.run == isa::insns::fusedDivideAdd(f & 1, f & 2, f & 4, f & 8, f & 16);
  return n;
}

TEST(Contraction, AnApproximateQuotientFusesAsAProduct) {
  EXPECT_EQ(fusedQuotients("  div.full.f32 %f10, %f1, %f2;\n  sub.f32 %f11, %f3, %f10;\n"
                           "  sub.f32 %f12, %f4, %f10;\n",
                           {"%f11", "%f12"}),
            2u);  // each use (Triton's layernorm: x - mean for every x)
  EXPECT_EQ(fusedQuotients("  div.approx.f32 %f10, %f1, %f2;\n  add.sat.f32 %f11, %f10, %f3;\n",
                           {"%f11"}),
            1u);
  EXPECT_EQ(fusedQuotients("  div.full.f32 %f10, %f1, %f2;\n  neg.f32 %f12, %f10;\n"
                           "  add.f32 %f11, %f3, %f12;\n",
                           {"%f11"}),
            1u);
  for (const char* body : {"  div.full.ftz.f32 %f10, %f1, %f2;\n  add.ftz.f32 %f11, %f10, %f3;\n",
                           "  div.approx.ftz.f32 %f10, %f1, %f2;\n  sub.ftz.f32 %f11, %f10, %f3;\n"})
    EXPECT_EQ(fusedQuotients(body, {"%f11"}), 1u) << body;
  for (const char* body : {"  div.full.ftz.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n",
                           "  div.rn.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n",
                           "  div.full.f32 %f10, %f1, %f2;\n  add.rn.f32 %f11, %f10, %f3;\n"})
    EXPECT_EQ(fusedQuotients(body, {"%f11"}), 0u) << body;
  // A quotient also stored stays a division.
  EXPECT_EQ(fusedQuotients("  div.full.f32 %f10, %f1, %f2;\n  add.f32 %f11, %f10, %f3;\n",
                           {"%f11", "%f10"}),
            0u);
}

// a/b - q, with q the rounded quotient, is the quotient's rounding error when fused (one FFMA
// of MUFU.RCP(b) and a), 0 when each rounds; big and tiny divisors are scaled first (div.full
// by 1/4 above 2^126, both forms by 2^24 below 2^-126).
TEST(Contraction, AFusedQuotientRoundsOnce) {
  const std::string body =
      "  div.full.f32 %f10, %f1, %f2;\n  sub.f32 %f11, %f10, %f3;\n"
      "  div.approx.f32 %f12, %f1, %f2;\n  sub.f32 %f13, %f12, %f3;\n";
  for (const auto& [a, b] :
       {std::pair{3.0f, 7.0f}, {3.0f, 0x1.8p127f}, {0x1.8p-20f, 0x1.cp-130f}}) {
    Inputs in;
    in.f[0] = a;
    in.f[1] = b;
    in.f[2] = fp::f32(isa::sfu::divFullF32(fp::bits(a), fp::bits(b), false));
    const bool big = b > 0x1p126f, tiny = b < 0x1p-126f;
    const float s = big ? 0.25f : tiny ? 0x1p24f : 1.0f;
    const float rcp = fp::f32(isa::sfu::rcpApproxF32(fp::bits(b * s), true));  // MUFU.RCP
    const float residual = std::fma(rcp, a * s, -in.f[2]);
    const std::vector<uint64_t> got = runBits(body, {"%f11", "%f13"}, in);
    EXPECT_EQ(got[0], f32bits(residual)) << b;
    if (!big) {  // div.approx does not scale big divisors
      EXPECT_EQ(got[1], f32bits(residual)) << b;
    }
    EXPECT_EQ(runBits(body, {"%f11"}, in, false)[0], 0u) << b;
  }
  Inputs in;
  in.f[0] = 3.0f;
  in.f[1] = 7.0f;
  in.f[2] = fp::f32(isa::sfu::divFullF32(fp::bits(3.0f), fp::bits(7.0f), false));
  EXPECT_NE(runBits(body, {"%f11"}, in)[0], 0u);  // the residual is not 0: the test can fail
}

TEST(Contraction, BranchTargetsFollowTheRemovedMuls) {
  // A loop whose first instruction is a fused mul: the branch must land on what follows it.
  Inputs in;
  in.f[0] = 1.5f;
  in.f[1] = 0.25f;
  const std::string body =
      "  mov.f32 %f10, 0f00000000;\n  mov.u32 %r1, 0;\n"
      "LOOP:\n  mul.f32 %f11, %f1, %f2;\n  add.f32 %f10, %f11, %f10;\n  add.u32 %r1, %r1, 1;\n"
      "  setp.lt.u32 %p1, %r1, 5;\n  @%p1 bra LOOP;\n";
  EXPECT_EQ(shapeOf(body, {"%f10"}).fused, 1u);
  EXPECT_EQ(runBits(body, {"%f10"}, in)[0], f32bits(5 * 0.375f));
}

// ---- the rule, as the probe states it, against the pass ------------------------------------

struct RandomInsn {
  std::string kind;  // mul add sub st
  int dest = -1;
  std::vector<int> src;
  bool rn = false, ftz = false, sat = false;
};

// scripts/probes/fma_contraction.py's generator: 6-14 mul/add/sub/st over f32 registers, each
// value a fresh register; registers 0-5 are loaded.
std::vector<RandomInsn> randomProgram(uint32_t seed, int& nregs) {
  std::mt19937 g(seed);
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(g) < p; };
  auto pick = [&](int n) { return int(std::uniform_int_distribution<int>(0, n - 1)(g)); };
  nregs = 6;
  std::vector<RandomInsn> out;
  const int n = 6 + pick(9);
  static const char* kinds[] = {"mul", "mul", "add", "sub", "st"};
  for (int i = 0; i < n; ++i) {
    RandomInsn in;
    in.kind = kinds[pick(5)];
    if (in.kind == "st") {
      if (nregs > 6) {
        in.src = {6 + pick(nregs - 6)};
        out.push_back(in);
      }
      continue;
    }
    in.rn = chance(0.2);
    in.ftz = chance(0.25);
    in.sat = chance(0.1);
    in.src = {pick(nregs), pick(nregs)};
    in.dest = nregs++;
    out.push_back(in);
  }
  return out;
}

std::string programText(const std::vector<RandomInsn>& p, int nregs) {
  std::string s =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 p)\n{\n  .reg .f32 %f<" +
      std::to_string(nregs + 1) + ">;\n  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n";
  for (int r = 0; r < 6; ++r)
    s += "  ld.global.f32 %f" + std::to_string(r) + ", [%rd1+" + std::to_string(4 * r) + "];\n";
  int off = 64;
  for (const RandomInsn& in : p) {
    if (in.kind == "st") {
      s += "  st.global.f32 [%rd1+" + std::to_string(off) + "], %f" + std::to_string(in.src[0]) +
           ";\n";
      off += 4;
      continue;
    }
    s += "  " + in.kind + (in.rn ? ".rn" : "") + (in.ftz ? ".ftz" : "") + (in.sat ? ".sat" : "") +
         ".f32 %f" + std::to_string(in.dest) + ", %f" + std::to_string(in.src[0]) + ", %f" +
         std::to_string(in.src[1]) + ";\n";
  }
  s += "  st.global.f32 [%rd1+" + std::to_string(off) + "], %f" + std::to_string(nregs - 1) +
       ";\n  ret;\n}\n";
  return s;
}

// The probe's predict(): how many add/sub ptxas turns into FFMA.
size_t predictFused(const std::vector<RandomInsn>& p, int nregs) {
  const size_t end = p.size();  // the final store's index
  std::set<size_t> live;
  std::set<int> need = {nregs - 1};
  for (size_t i = end; i-- > 0;)
    if (p[i].kind == "st" || need.count(p[i].dest)) {
      live.insert(i);
      need.insert(p[i].src.begin(), p[i].src.end());
    }
  std::map<int, std::vector<size_t>> uses;
  for (size_t i = 0; i < end; ++i)
    if (live.count(i))
      for (int r : p[i].src) uses[r].push_back(i);
  uses[nregs - 1].push_back(end);
  std::map<int, size_t> definer;
  for (size_t i = 0; i < end; ++i)
    if (p[i].dest >= 0) definer[p[i].dest] = i;
  auto isSum = [&](size_t i) { return p[i].kind == "add" || p[i].kind == "sub"; };
  auto mulOk = [&](int r) {
    auto d = definer.find(r);
    if (d == definer.end() || p[d->second].kind != "mul") return false;
    const RandomInsn& m = p[d->second];
    for (size_t u : uses[r]) {
      if (u >= end || !isSum(u)) return false;
      const RandomInsn& a = p[u];
      if (std::count(a.src.begin(), a.src.end(), r) != 1 || m.rn || a.rn || m.sat || m.ftz != a.ftz)
        return false;
    }
    return true;
  };
  std::set<int> cand;
  for (const auto& [r, i] : definer)
    if (mulOk(r)) cand.insert(r);
  std::map<size_t, int> choice;
  for (;;) {
    choice.clear();
    for (size_t i : live)
      if (isSum(i)) {
        choice[i] = -1;
        for (int r : p[i].src)
          if (cand.count(r)) {
            choice[i] = r;
            break;
          }
      }
    std::set<int> drop;
    for (int r : cand)
      for (size_t u : uses[r])
        if (!choice.count(u) || choice[u] != r) drop.insert(r);
    if (drop.empty()) break;
    for (int r : drop) cand.erase(r);
  }
  size_t n = 0;
  for (const auto& [i, r] : choice) n += r >= 0;
  return n;
}

RC_GTEST_PROP(ContractionRule, FusesWhatThePtxasRulePredicts, ()) {
  const uint32_t seed = *rc::gen::arbitrary<uint32_t>();
  int nregs = 0;
  const std::vector<RandomInsn> p = randomProgram(seed, nregs);
  auto l = lowerText(programText(p, nregs));
  size_t fused = 0;
  for (const isa::Inst& in : l->fn().code) fused += fusedForm(in).has_value();
  RC_ASSERT(fused == predictFused(p, nregs));
}

// `warpsim isa-record --contract`'s programs: contractible sequences appear, the pass fuses
// them, and the programs run; without the option the generator writes what it wrote before.
TEST(ContractionPrograms, TheGeneratorsSequencesAreFused) {
  ptxgen::GenOptions o;
  o.contract = true;
  size_t muls = 0, fused = 0, quotients = 0, fusedQuotient = 0;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    const ptxgen::GeneratedProgram g = ptxgen::generateProgram(seed, o);
    // The sequences' muls write the scratch products %cf0 / %cd0.
    for (size_t at = g.ptx.find(" %c"); at != std::string::npos; at = g.ptx.find(" %c", at + 1))
      muls += g.ptx.compare(g.ptx.rfind('\n', at) + 1, 3, "mul") == 0 ||
              g.ptx.compare(g.ptx.rfind('\n', at) + 1, 3, "div") == 0;
    quotients += g.ptx.find("div.full.f32 %cf0") != std::string::npos ||
                 g.ptx.find("div.approx.f32 %cf0") != std::string::npos;
    auto l = lowerText(g.ptx);
    for (const isa::Inst& in : l->fn().code) {
      fused += fusedForm(in).has_value();
      for (unsigned f = 0; f < 32; ++f)
        fusedQuotient += in.run == isa::insns::fusedDivideAdd(f & 1, f & 2, f & 4, f & 8, f & 16);
    }
    PtxRunner r(g.ptx);
    const uint64_t in = r.buffer<uint64_t>(size_t(g.threads()) * g.words,
                                           std::vector<uint64_t>(size_t(g.threads()) * g.words, 0));
    const uint64_t out = r.buffer<uint64_t>(size_t(g.threads()) * g.words);
    const auto res = r.launch(g.entry, {g.gridSize, 1, 1}, {g.blockSize, 1, 1},
                              {PtxRunner::ptr(in), PtxRunner::ptr(out)});
    EXPECT_FALSE(res.fault) << "seed " << seed;
  }
  EXPECT_GT(muls, 24u);
  // Most sequences fuse once, some twice, a tenth not at all; quotients without .ftz among them.
  EXPECT_GT(fused + fusedQuotient, muls / 2);
  EXPECT_LT(fused + fusedQuotient, 2 * muls);
  EXPECT_GT(quotients, 0u);
  EXPECT_GT(fusedQuotient, 0u);
  EXPECT_EQ(ptxgen::generateProgram(5).ptx, ptxgen::generateProgram(5, ptxgen::GenOptions{}).ptx);
  EXPECT_EQ(ptxgen::generateProgram(5).ptx.find("%cf"), std::string::npos);
}

// Two hand-checked programs, so that the property's predictor is itself pinned down.
TEST(ContractionRule, ThePredictorCountsAsTheProbe) {
  // mul %f6 <- f0 f1; add %f7 <- f6 f2; mul %f8 <- f3 f4; st f8; sub %f9 <- f8 f7.
  std::vector<RandomInsn> p = {{"mul", 6, {0, 1}},
                               {"add", 7, {6, 2}},
                               {"mul", 8, {3, 4}},
                               {"st", -1, {8}},
                               {"sub", 9, {8, 7}}};
  EXPECT_EQ(predictFused(p, 10), 1u);  // f6 into the add; f8 is stored
  p[3] = {"add", 10, {0, 0}};          // the store becomes dead code
  EXPECT_EQ(predictFused(p, 10), 2u);
}

}  // namespace
}  // namespace warpsim::test
