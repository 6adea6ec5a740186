// The rules the ISA campaign on the H200 established (docs/FIDELITY.md, "ISA-level programs"),
// each on the operand values of a first divergence the campaign traced: before the fix the
// simulator gave the other value.
#include <gtest/gtest.h>

#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

// One instruction `body` over registers loaded from in[] (b64 words), its destination %d
// stored to out[0]. `decl` declares the registers the body names.
uint64_t runOne(const std::string& decl, const std::string& loads, const std::string& body,
                const std::string& store, const std::vector<uint64_t>& in) {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 pin, .param .u64 pout) {\n"
      ".reg .b64 %pi, %po;\n" +
      decl + "ld.param.u64 %pi, [pin];\nld.param.u64 %po, [pout];\n" + loads + body + "\n" + store +
      "\nret;\n}\n";
  test::PtxRunner r(ptx);
  const uint64_t inBuf = r.buffer<uint64_t>(in.size(), in), out = r.buffer<uint64_t>(1, {0});
  const auto res =
      r.launch("k", {1, 1, 1}, {1, 1, 1}, {test::PtxRunner::ptr(inBuf), test::PtxRunner::ptr(out)});
  EXPECT_FALSE(res.fault) << body;
  return r.read<uint64_t>(out, 1)[0];
}

uint64_t f64op(const std::string& op, std::vector<uint64_t> in) {
  in.resize(3, 0);  // a, b, c
  return runOne(
      ".reg .f64 %a, %b, %c, %d;\n",
      "ld.global.f64 %a, [%pi];\nld.global.f64 %b, [%pi+8];\nld.global.f64 %c, [%pi+16];\n", op,
      "st.global.f64 [%po], %d;", in);
}

TEST(CampaignRules, F64TakesTheFirstNaNOperandInPtxOrder) {
  // mul.rn.f64 with a = sNaN, b = the canonical NaN: the campaign's prog-15.
  EXPECT_EQ(f64op("mul.rn.f64 %d, %a, %b;", {0xfff19ac015428661, 0xfff8000000000000}),
            0xfff99ac015428661u);
  EXPECT_EQ(f64op("add.rz.f64 %d, %a, %b;", {0x7ff8000000000000, 0x7ff35d996d7c3703}),
            0x7ff8000000000000u);
  EXPECT_EQ(f64op("max.f64 %d, %a, %b;", {0x7fffe00000000000, 0x7ffa9f2e524db14b}),
            0x7fffe00000000000u);
  // fma: a, then c, then b.
  EXPECT_EQ(f64op("fma.rn.f64 %d, %a, %b, %c;",
                  {0x71d3794d4bea613e, 0xfff8000000000000, 0x7ff74934163d82d9}),
            0x7fff4934163d82d9u);
  EXPECT_EQ(f64op("fma.rn.f64 %d, %a, %b, %c;",
                  {0xfff90c7813120b4b, 0xfff07f127886ba93, 0x4014d1585d664694}),
            0xfff90c7813120b4bu);
}

TEST(CampaignRules, MinMaxOfARegisterWithItselfIsThatRegister) {
  EXPECT_EQ(f64op("min.f64 %d, %a, %a;", {0xfff219115944b41f}), 0xfff219115944b41fu);
  EXPECT_EQ(runOne(".reg .f32 %a, %d;\n", "ld.global.f32 %a, [%pi];\n", "min.f32 %d, %a, %a;",
                   "st.global.f32 [%po], %d;", {0x7feb322f}),
            0x7feb322fu);
  EXPECT_EQ(runOne(".reg .b16 %a, %d;\n", "ld.global.b16 %a, [%pi];\n", "max.f16 %d, %a, %a;",
                   "st.global.b16 [%po], %d;", {0x7e9b}),
            0x7e9bu);
  // Not the packed forms: each NaN half becomes 0x7FFF.
  EXPECT_EQ(runOne(".reg .b32 %a, %d;\n", "ld.global.b32 %a, [%pi];\n", "min.f16x2 %d, %a, %a;",
                   "st.global.b32 [%po], %d;", {0xffffffff}),
            0x7fff7fffu);
}

uint64_t cvt(const std::string& op, const std::string& dt, const std::string& st, uint64_t v) {
  auto reg = [](const std::string& t) {
    return t == "f64" ? std::string(".f64") : t == "f32" ? ".f32" : ".b16";
  };
  auto mem = [](const std::string& t) {
    return t == "f64" ? std::string("f64") : t == "f32" ? "f32" : "b16";
  };
  return runOne(".reg " + reg(st) + " %a;\n.reg " + reg(dt) + " %d;\n",
                "ld.global." + mem(st) + " %a, [%pi];\n", op + " %d, %a;",
                "st.global." + mem(dt) + " [%po], %d;", {v});
}

TEST(CampaignRules, ConversionsThatAreHalfOrFtzOperationsCanonicalizeNaN) {
  EXPECT_EQ(cvt("cvt.f16.f16", "f16", "f16", 0x7fef), 0x7fffu);
  EXPECT_EQ(cvt("cvt.bf16.bf16", "bf16", "bf16", 0xffee), 0x7fffu);
  EXPECT_EQ(cvt("cvt.ftz.f32.bf16", "f32", "bf16", 0xffdb), 0x7fffffffu);
  EXPECT_EQ(cvt("cvt.f32.bf16", "f32", "bf16", 0xffdb), 0xffdb0000u);  // without .ftz: kept
  EXPECT_EQ(cvt("cvt.ftz.f64.f32", "f64", "f32", 0x7f87148c), 0x7fffffffe0000000u);
  // A subnormal f32 source is not flushed on the way to f16.
  EXPECT_EQ(cvt("cvt.rm.ftz.f16.f32", "f16", "f32", 0x807fffff), 0x8001u);
  EXPECT_EQ(cvt("cvt.rp.ftz.f16.f32", "f16", "f32", 0x00000001), 0x0001u);
}

TEST(CampaignRules, SlctImmediatesHaveTheDestinationType) {
  const uint64_t d =
      runOne(".reg .f64 %a, %d;\n.reg .f32 %c;\n",
             "ld.global.f64 %a, [%pi];\nld.global.f32 %c, [%pi+8];\n",
             "slct.f64.f32 %d, %a, 0d419EABEB04391FE3, %c;", "st.global.f64 [%po], %d;",
             {0x3ff0000000000000, 0xdebdba40 /* negative: selects b */});
  EXPECT_EQ(d, 0x419eabeb04391fe3u);
}

}  // namespace
}  // namespace warpsim
