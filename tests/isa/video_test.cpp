// Tests of the video families (isa/insns/video.cpp, video_simd.cpp), and more edge cases of
// the dot products (dp4a/dp2a, isa/insns/int_bits.cpp), each value worked out by hand from the PTX
// ISA 9.0 semantics (9.7.10, 9.7.1.23-24), or, where the chip differs from them, from the SASS
// that ptxas emits for the form (the chip's semantics; docs/FIDELITY.md, "Video instructions"):
// selectors and their sign/zero extension, the exact intermediate, saturation to word, half-word
// and byte ranges, secondary operations, merges, SIMD masks and accumulation, vmad's negation, .po
// and scaling; then the binding rules and the PTX syntax (`%r1.b2`, `-%r3`) through the parser and
// the simulator. video_vectors_test.cpp replays the chip's results and every form's SASS.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/support/exec_harness.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

using H = ExecHarness;

// `.b2`, `.h10`, `.b7654` on an operand, as lowering decodes them.
isa::Opnd sel(isa::Opnd o, const char* s) {
  const size_t n = std::strlen(s) - 1;
  o.selKind = s[0];
  o.selCount = uint8_t(n);
  o.selDigits = 0;
  for (size_t i = 0; i < n; ++i) o.selDigits |= uint32_t(s[1 + i] - '0') << (4 * (n - 1 - i));
  return o;
}
isa::Opnd neg(isa::Opnd o) {
  o.minus = true;
  return o;
}

// d = r1; sources r2, r3, r4 = a, b, c (selectors and negations through `ops`).
uint32_t eval(const std::string& op, std::vector<isa::Opnd> ops, uint32_t a, uint32_t b,
              uint32_t c = 0) {
  H h(op, ops);
  h.set(2, 0, a), h.set(3, 0, b), h.set(4, 0, c);
  h.run(1);
  return uint32_t(h.get(1, 0));
}
uint32_t eval3(const std::string& op, uint32_t a, uint32_t b) {
  return eval(op, {H::reg(1), H::reg(2), H::reg(3)}, a, b);
}
uint32_t eval4(const std::string& op, uint32_t a, uint32_t b, uint32_t c) {
  return eval(op, {H::reg(1), H::reg(2), H::reg(3), H::reg(4)}, a, b, c);
}

// ---- scalar video ------------------------------------------------------------------------

TEST(Video, SelectorsExtendByTheOperandType) {
  // a.b0 = 0xFF read as u32 -> 255; b.h0 = 0x8000 read as s32 -> -32768.
  EXPECT_EQ(eval("vadd.s32.u32.s32.sat", {H::reg(1), sel(H::reg(2), "b0"), sel(H::reg(3), "h0")},
                 0x123456FF, 0x00008000),
            0xFFFF80FFu);  // 255 - 32768 = -32513
  // a.b3 = 0x80 as s32 -> -128, b.h1 = 0xFFFF as u32 -> 65535.
  EXPECT_EQ(eval("vadd.s32.s32.u32", {H::reg(1), sel(H::reg(2), "b3"), sel(H::reg(3), "h1")},
                 0x80000000, 0xFFFF0000),
            uint32_t(65535 - 128));
}

TEST(Video, TheIntermediateIsExactAndSaturatesToTheDestinationType) {
  EXPECT_EQ(eval3("vadd.u32.u32.u32", 0xFFFFFFFF, 1), 0u);  // wraps without .sat
  // ptxas's SASS for a u32 .sat into a word only clamps negatives: the carry of the sum is
  // dropped (IADD3, then ISETP.GE on the carry word, which is never negative).
  EXPECT_EQ(eval3("vadd.u32.u32.u32.sat", 0xFFFFFFFF, 1), 0u);
  EXPECT_EQ(eval4("vadd.u32.u32.u32.sat.max", 0xFFFFFFFF, 1, 5), 5u);
  EXPECT_EQ(eval3("vsub.u32.s32.s32.sat", 1, 2), 0u);  // -1 clamps to the unsigned range
  EXPECT_EQ(eval3("vsub.s32.s32.s32", 0x80000000, 1), 0x7FFFFFFFu);
  EXPECT_EQ(eval3("vsub.s32.s32.s32.sat", 0x80000000, 1), 0x80000000u);
  EXPECT_EQ(eval3("vabsdiff.u32.u32.u32", 5, 0xFFFFFFFF), 0xFFFFFFFAu);
  EXPECT_EQ(eval3("vabsdiff.s32.s32.s32", 0x7FFFFFFF, 0x80000000), 0xFFFFFFFFu);  // 2^32 - 1
  EXPECT_EQ(eval3("vabsdiff.s32.s32.s32.sat", 0x7FFFFFFF, 0x80000000), 0x7FFFFFFFu);
  // 4294967295 (u32) against -1 (s32): min -1, max 4294967295.
  EXPECT_EQ(eval3("vmin.s32.u32.s32", 0xFFFFFFFF, 0xFFFFFFFF), 0xFFFFFFFFu);
  EXPECT_EQ(eval3("vmax.s32.u32.s32.sat", 0xFFFFFFFF, 0xFFFFFFFF), 0x7FFFFFFFu);
  EXPECT_EQ(eval3("vmin.u32.u32.s32.sat", 7, 0xFFFFFFFF), 0u);
}

TEST(Video, MergeWritesOneByteOrHalfOfC) {
  const auto merged = [](const char* op, const char* dsel, uint32_t a, uint32_t b, uint32_t c) {
    return eval(op, {sel(H::reg(1), dsel), sel(H::reg(2), "b0"), sel(H::reg(3), "b0"), H::reg(4)},
                a, b, c);
  };
  // 200 + 100 = 300: byte 1 gets 0x2C (300 mod 256), or 255 with .sat.
  EXPECT_EQ(merged("vadd.u32.u32.u32", "b1", 200, 100, 0x11223344), 0x11222C44u);
  EXPECT_EQ(merged("vadd.u32.u32.u32.sat", "b1", 200, 100, 0x11223344), 0x1122FF44u);
  EXPECT_EQ(merged("vadd.s32.u32.u32.sat", "b3", 200, 100, 0x11223344), 0x7F223344u);
  // Into a half-word, .sat is min(tmp as unsigned 64 bits, 0x7fff): -40000 becomes 0x7fff,
  // and d.h1 takes the half-word 1 of that, 0 (ptxas's PRMT 0x3254).
  EXPECT_EQ(eval("vsub.s32.s32.s32.sat", {sel(H::reg(1), "h1"), H::reg(2), H::reg(3), H::reg(4)}, 0,
                 40000, 0x11223344),
            0x00003344u);
  // Without .sat too, d.h1 takes tmp's half-word 1, and d.b2 tmp's byte 0.
  EXPECT_EQ(eval("vadd.u32.u32.u32", {sel(H::reg(1), "h1"), H::reg(2), H::reg(3), H::reg(4)},
                 0x00012345, 0x00010000, 0xAAAAAAAA),
            0x0002AAAAu);
  EXPECT_EQ(eval("vadd.u32.u32.u32", {sel(H::reg(1), "b2"), H::reg(2), H::reg(3), H::reg(4)}, 0x12,
                 0x21, 0xAAAAAAAA),
            0xAA33AAAAu);
  EXPECT_EQ(eval("vsub.s32.s32.s32.sat", {sel(H::reg(1), "h0"), H::reg(2), H::reg(3), H::reg(4)},
                 40000, 0, 0x11223344),
            0x11227FFFu);
}

TEST(Video, SecondaryOperations) {
  EXPECT_EQ(eval4("vadd.u32.u32.u32.add", 1, 2, 3), 6u);
  EXPECT_EQ(eval4("vmax.s32.s32.s32.min", uint32_t(-5), 3, uint32_t(-7)), uint32_t(-7));
  EXPECT_EQ(eval4("vmax.u32.u32.u32.min", 0, 3, 0xFFFFFFF9), 3u);  // unsigned destination
  EXPECT_EQ(eval4("vmin.s32.s32.s32.max", 4, 9, uint32_t(-1)), 4u);
  // Saturation comes first, then the secondary operation (which wraps).
  EXPECT_EQ(eval4("vadd.s32.s32.s32.sat.add", 0x7FFFFFFF, 1, 1), 0x80000000u);
}

TEST(Video, ShiftsClampOrWrapTheAmount) {
  EXPECT_EQ(eval3("vshl.u32.u32.u32.clamp", 1, 40), 0u);  // 1 << 32
  EXPECT_EQ(eval3("vshl.u32.u32.u32.clamp.sat", 1, 40), 0xFFFFFFFFu);
  EXPECT_EQ(eval3("vshl.u32.u32.u32.wrap", 1, 40), 256u);                   // 40 & 31 = 8
  EXPECT_EQ(eval3("vshr.s32.s32.u32.clamp", 0x80000000, 40), 0xFFFFFFFFu);  // arithmetic
  EXPECT_EQ(eval3("vshr.u32.u32.u32.wrap", 0x80000000, 33), 0x40000000u);
  EXPECT_EQ(eval3("vshl.s32.s32.u32.wrap.sat", 0x40000000, 1), 0x7FFFFFFFu);
  // b's selector reads an unsigned amount: b.b1 = 0xFF -> 255, clamped to 32.
  EXPECT_EQ(eval("vshr.u32.u32.u32.clamp", {H::reg(1), H::reg(2), sel(H::reg(3), "b1")}, 0xFFFFFFFF,
                 0xFF00),
            0u);
}

TEST(Video, VmadNegatesProductOrCAndScales) {
  const std::vector<isa::Opnd> plain = {H::reg(1), H::reg(2), H::reg(3), H::reg(4)};
  EXPECT_EQ(eval("vmad.u32.u32.u32", plain, 3, 4, 5), 17u);
  EXPECT_EQ(eval("vmad.u32.u32.u32.po", plain, 3, 4, 5), 18u);
  EXPECT_EQ(eval("vmad.s32.u32.u32", {H::reg(1), neg(H::reg(2)), H::reg(3), H::reg(4)}, 3, 4, 5),
            uint32_t(-7));
  EXPECT_EQ(
      eval("vmad.s32.u32.u32", {H::reg(1), neg(H::reg(2)), neg(H::reg(3)), H::reg(4)}, 3, 4, 5),
      17u);  // two negations cancel
  EXPECT_EQ(eval("vmad.s32.u32.u32", {H::reg(1), H::reg(2), H::reg(3), neg(H::reg(4))}, 3, 4, 5),
            7u);
  EXPECT_EQ(eval("vmad.u32.u32.u32.shr7", plain, 256, 2, 0), 4u);
  EXPECT_EQ(eval("vmad.s32.s32.s32.shr15", plain, uint32_t(-65536), 1, 0), uint32_t(-2));
  // Whole .u32 words multiply as signed words (IMAD.WIDE): 0xFFFFFFFF squared is 1.
  EXPECT_EQ(eval("vmad.u32.u32.u32.sat", plain, 0xFFFFFFFF, 0xFFFFFFFF, 0), 1u);
  EXPECT_EQ(eval("vmad.u32.u32.u32.sat",
                 {H::reg(1), sel(H::reg(2), "h0"), sel(H::reg(3), "h0"), H::reg(4)}, 0xFFFF, 0xFFFF,
                 0x7FFFFFFF),
            0xFFFFFFFFu);  // 0xFFFE0001 + 0x7FFFFFFF clamps
  EXPECT_EQ(eval("vmad.u32.u32.u32", plain, 0xFFFFFFFF, 0xFFFFFFFF, 0), 1u);  // low word
  EXPECT_EQ(eval("vmad.s32.s32.s32.sat", plain, 0x7FFFFFFF, 2, 0), 0x7FFFFFFFu);
  EXPECT_EQ(eval("vmad.s32.s32.s32.sat", plain, 0x80000000, 2, 0), 0x80000000u);
  EXPECT_EQ(
      eval("vmad.s32.s32.s32", {H::reg(1), sel(H::reg(2), "h1"), sel(H::reg(3), "b0"), H::reg(4)},
           0xFFFE0000, 0x00000003, 10),
      4u);  // -2 * 3 + 10
}

TEST(Video, VsetComparesSelectedParts) {
  EXPECT_EQ(eval3("vset.u32.u32.lt", 1, 2), 1u);
  EXPECT_EQ(eval3("vset.s32.u32.lt", 0xFFFFFFFF, 0), 1u);  // -1 < 0
  EXPECT_EQ(eval3("vset.u32.u32.lt", 0xFFFFFFFF, 0), 0u);
  EXPECT_EQ(eval3("vset.u32.u32.ge", 5, 5), 1u);
  EXPECT_EQ(eval("vset.u32.u32.eq", {sel(H::reg(1), "b2"), H::reg(2), H::reg(3), H::reg(4)}, 9, 9,
                 0xFFFFFFFF),
            0xFF01FFFFu);
  EXPECT_EQ(eval4("vset.u32.u32.ne.add", 1, 2, 10), 11u);
}

// ---- SIMD video --------------------------------------------------------------------------

TEST(VideoSimd, HalfWordsWithDefaultSelectors) {
  // a's halves (h10) against b's (h32): 0xFFFF + 1 wraps to 0, or clamps with .sat.
  EXPECT_EQ(eval4("vadd2.u32.u32.u32", 0x0001FFFF, 0x00010001, 0), 0x00020000u);
  EXPECT_EQ(eval4("vadd2.u32.u32.u32.sat", 0x0001FFFF, 0x00010001, 0), 0x0002FFFFu);
  EXPECT_EQ(eval4("vadd2.s32.s32.s32.sat", 0x7FFF8000, 0x00010001, 0), 0x7FFF8001u);
  EXPECT_EQ(eval4("vsub2.u32.u32.u32.sat", 0x00010005, 0x00020003, 0), 0x00000002u);
  // vavrg: (a + b + 1) >> 1 for non-negative sums, (a + b) >> 1 below zero.
  EXPECT_EQ(eval4("vavrg2.s32.s32.s32", 0x0003FFFD, 0, 0), 0x0002FFFEu);
  EXPECT_EQ(eval4("vavrg2.u32.u32.u32", 0xFFFFFFFF, 0xFFFF0001, 0), 0xFFFF8000u);
  EXPECT_EQ(eval4("vset2.u32.u32.lt", 0x00010005, 0x00020003, 0), 0x00010000u);
  EXPECT_EQ(eval4("vmin2.s32.s32.s32", 0x8000FFFF, 0x7FFF0001, 0), 0x8000FFFFu);
  EXPECT_EQ(eval4("vmax2.s32.u32.s32", 0x8000FFFF, 0x7FFF0001, 0), 0x8000FFFFu);  // 32768, 65535
}

TEST(VideoSimd, SelectorsPickFromBothSources) {
  // a.h01: element 1 = half 0 of a (3), element 0 = half 1 of a (5); b.h23: element 1 = half
  // 2 (b low: 2), element 0 = half 3 (b high: 1).
  EXPECT_EQ(eval("vsub2.s32.s32.s32",
                 {H::reg(1), sel(H::reg(2), "h01"), sel(H::reg(3), "h23"), H::reg(4)}, 0x00050003,
                 0x00010002, 0),
            0x00010004u);
  EXPECT_EQ(eval("vmin4.u32.u32.u32",
                 {H::reg(1), sel(H::reg(2), "b0000"), sel(H::reg(3), "b4444"), H::reg(4)}, 9, 5, 0),
            0x05050505u);
  // a.b7654 selects b's bytes for a too.
  EXPECT_EQ(eval("vadd4.u32.u32.u32", {H::reg(1), sel(H::reg(2), "b7654"), H::reg(3), H::reg(4)},
                 0xFFFFFFFF, 0x01020304, 0),
            0x02040608u);
}

TEST(VideoSimd, MasksMergeAndAddAccumulates) {
  EXPECT_EQ(eval("vmax2.u32.u32.u32", {sel(H::reg(1), "h1"), H::reg(2), H::reg(3), H::reg(4)},
                 0x00070009, 0x0008000A, 0xAAAABBBB),
            0x0008BBBBu);
  EXPECT_EQ(eval4("vabsdiff2.u32.u32.u32.add", 0x00070009, 0x0008000A, 100), 102u);
  EXPECT_EQ(eval4("vabsdiff4.u32.u32.u32.add", 0x01020304, 0x04030201, 0), 8u);  // a SAD
  EXPECT_EQ(eval("vset4.s32.u32.ge", {sel(H::reg(1), "b20"), H::reg(2), H::reg(3), H::reg(4)},
                 0xFF000080, 0x00000001, 0xAAAAAAAA),
            0xAA01AA00u);
  EXPECT_EQ(eval("vadd4.u32.u32.u32.add", {sel(H::reg(1), "b31"), H::reg(2), H::reg(3), H::reg(4)},
                 0x01010101, 0x02020202, 0xFFFFFFFF),
            5u);  // two elements of 3 added to -1
}

TEST(VideoSimd, BytesSaturateToTheirRange) {
  // a bytes 1, -1, -128, 127; b bytes 1, 1, -1, 1: 2, 0, -129 -> -128, 128 -> 127.
  EXPECT_EQ(eval4("vadd4.s32.s32.s32.sat", 0x7F80FF01, 0x01FF0101, 0), 0x7F800002u);
  EXPECT_EQ(eval4("vadd4.s32.s32.s32", 0x7F80FF01, 0x01FF0101, 0), 0x807F0002u);
  EXPECT_EQ(eval4("vsub4.u32.u32.u32.sat", 0x00FF0510, 0x01000620, 0), 0x00FF0000u);
  EXPECT_EQ(eval4("vavrg4.u32.u32.u32", 0xFF010203, 0xFF020304, 0), 0xFF020304u);
  // Signed bytes -128 and 127 against 0 and -1: max keeps each lane's larger.
  EXPECT_EQ(eval4("vmax4.s32.s32.s32", 0x7F807F80, 0xFF00FF00, 0), 0x7F007F00u);
  EXPECT_EQ(eval4("vmax4.u32.u32.u32", 0x7F807F80, 0xFF00FF00, 0), 0xFF80FF80u);
}

// ---- dp4a / dp2a -------------------------------------------------------------------------

TEST(Dot, Dp4aAndDp2a) {
  EXPECT_EQ(eval4("dp4a.u32.u32", 0xFFFFFFFF, 0xFFFFFFFF, 0), 260100u);  // 4 * 255 * 255
  EXPECT_EQ(eval4("dp4a.s32.s32", 0xFFFFFFFF, 0xFFFFFFFF, 0), 4u);
  EXPECT_EQ(eval4("dp4a.s32.u32", 0xFFFFFFFF, 0xFFFFFFFF, 1020), 0u);
  EXPECT_EQ(eval4("dp4a.u32.s32", 0x7F7F7F7F, 0xFFFFFFFF, 0), uint32_t(-4 * 127));
  EXPECT_EQ(eval4("dp4a.u32.s32", 0xFFFFFFFF, 0x7F7F7F7F, 0xFFFFFFFF), 129539u);  // wraps
  EXPECT_EQ(eval4("dp2a.lo.s32.s32", 0x80007FFF, 0x04030201, 0), uint32_t(-32769));
  EXPECT_EQ(eval4("dp2a.hi.s32.s32", 0x80007FFF, 0x04030201, 0), uint32_t(-32771));
  EXPECT_EQ(eval4("dp2a.lo.u32.u32", 0xFFFFFFFF, 0xFFFFFFFF, 5), 5u + 2u * 65535u * 255u);
  EXPECT_EQ(eval4("dp2a.hi.u32.s32", 0x00020001, 0xFF7F0000, 0), uint32_t(127 - 2));
}

// ---- binding and syntax ------------------------------------------------------------------

TEST(VideoBind, RefusesWhatThePtxIsaRefuses) {
  const auto err = [](const std::string& op, std::vector<isa::Opnd> ops) {
    H h("mov.b32", {H::reg(1), H::reg(2)});
    return h.tryBind(op, std::move(ops));
  };
  const std::vector<isa::Opnd> three = {H::reg(1), H::reg(2), H::reg(3)};
  const std::vector<isa::Opnd> four = {H::reg(1), H::reg(2), H::reg(3), H::reg(4)};
  EXPECT_NE(err("vadd.u32.u32", three), "");  // two types
  EXPECT_NE(err("vadd.u32.u32.u64", three), "");
  EXPECT_NE(err("vadd.u32.u32.u32.add", three), "");  // .add needs c
  EXPECT_NE(err("vadd.u32.u32.u32.add.min", four), "");
  EXPECT_NE(err("vshl.u32.u32.u32", three), "");  // no mode
  EXPECT_NE(err("vshl.u32.u32.s32.wrap", three), "");
  EXPECT_NE(err("vset.u32.u32", three), "");
  EXPECT_NE(err("vmad.u32.u32.u32.po", {H::reg(1), neg(H::reg(2)), H::reg(3), H::reg(4)}), "");
  EXPECT_NE(err("vmad.u32.u32.u32", {H::reg(1), neg(H::reg(2)), H::reg(3), neg(H::reg(4))}), "");
  EXPECT_NE(err("vadd.u32.u32.u32", {H::reg(1), sel(H::reg(2), "b4"), H::reg(3)}), "");
  EXPECT_NE(err("vadd2.u32.u32.u32.sat.add", four), "");
  EXPECT_NE(err("vadd2.u32.u32.u32", {sel(H::reg(1), "h2"), H::reg(2), H::reg(3), H::reg(4)}), "");
  EXPECT_NE(err("vadd4.u32.u32.u32",
                {H::reg(1), sel(H::reg(2), "b0123"), sel(H::reg(3), "h10"), H::reg(4)}),
            "");
  EXPECT_NE(err("vadd4.u32.u32.u32", {H::reg(1), sel(H::reg(2), "b8000"), H::reg(3), H::reg(4)}),
            "");
  EXPECT_EQ(err("vabsdiff4.u32.u32.u32.add", four), "");
  EXPECT_EQ(err("vmad.s32.u32.u32.sat.shr15", {H::reg(1), neg(H::reg(2)), H::reg(3), H::reg(4)}),
            "");
}

TEST(VideoSyntax, SelectorsAndNegationParseAndRun) {
  const std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0x80FF0102;
  mov.u32 %r2, 0x00030004;
  mov.u32 %r0, 0;  // ptxas wants c of a SIMD video instruction in a register
  vadd.s32.s32.u32.sat %r3, %r1.b3, %r2.h1;
  vabsdiff4.u32.u32.u32.add %r4, %r1, %r2, %r0;
  vmad.s32.u32.u32 %r5, -%r2.h0, %r2.h1, 100;
  vset2.u32.u32.gt %r6.h1, %r1, %r2, %r0;
  dp4a.s32.s32 %r7, %r1, %r2, 1;
  vmax.u32.u32.u32 %r8.b2, %r1.b0, %r2.b0, %r1;
  st.global.v4.u32 [%rd1], {%r3, %r4, %r5, %r6};
  st.global.v2.u32 [%rd1+16], {%r7, %r8};
  ret;
}
)";
  PtxRunner r(ptx);
  const uint64_t out = r.buffer<uint32_t>(6);
  const auto res = r.launch("k", {1, 1, 1}, {1, 1, 1}, {PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault) << res.fault->describe("");
  const auto v = r.read<uint32_t>(out, 6);
  EXPECT_EQ(v[0], uint32_t(-128 + 3));
  EXPECT_EQ(v[1], 2u + 1u + 252u + 128u);  // |2-4| + |1-0| + |255-3| + |128-0|
  EXPECT_EQ(v[2], uint32_t(-4 * 3 + 100));
  EXPECT_EQ(v[3], 0x00010000u);  // element 1: 0x80FF > 0x0003; element 0 from c
  EXPECT_EQ(v[4], uint32_t(2 * 4 + 1 * 0 + (-1) * 3 + (-128) * 0 + 1));
  EXPECT_EQ(v[5], 0x80040102u);  // max(2, 4) into byte 2 of a
}

TEST(VideoSyntax, SelectorsAndNegationAreRefusedElsewhere) {
  for (const char* line : {"add.u32 %r3, %r1.b0, %r2;", "add.s32 %r3, -%r1, %r2;",
                           "vadd.u32.u32.u32 %r3, %r1.q0, %r2;"}) {
    SCOPED_TRACE(line);
    const std::string ptx = std::string(".version 9.0\n.target sm_90\n.address_size 64\n") +
                            ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  " + line +
                            "\n  ret;\n}\n";
    try {
      PtxRunner r(ptx);
      r.launch("k", {1, 1, 1}, {1, 1, 1}, {});
      ADD_FAILURE() << "ran";
    } catch (const isa::PtxError& e) {
      EXPECT_EQ(e.line(), 7u) << e.what();
    }
  }
}

}  // namespace
}  // namespace warpsim::test
