// The warp-level matrix instructions against the PTX ISA's fragment layouts: ldmatrix (.x4,
// .trans), stmatrix .trans, movmatrix, and mma.sync in f16 -> f32 (small integers: exact in any
// summation order), s8 with and without .satfinite, f64 (a chain of fmas), checked against a
// CPU product of the matrices the layouts describe; the f64 NaN order; and the accumulation
// model's rules (fitted to the H200).
#include <gtest/gtest.h>

#include <cmath>

#include "isa/diagnostic.h"
#include "isa/fp.h"
#include "isa/insns/mma_accumulate.h"
#include "tests/support/mma_program.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::mmaProgram;
using test::PtxRunner;

constexpr const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

// 32 threads: thread t writes row t (8 b16 from g[8t..8t+8)) to shared, then
// out[t*16 + 0..3] = ldmatrix.x4, [4..7] = ldmatrix.x4.trans, [8] = movmatrix(reg 0); stmatrix
// .trans of the plain fragments into a second area, read back as rows into [9..12].
const std::string kMoves = std::string(kHeader) + R"(
.visible .entry moves(.param .u64 g, .param .u64 out)
{
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 rows[512];
  .shared .align 16 .b8 back[512];
  ld.param.u64 %rd1, [g];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd4];
  mov.u32 %r6, rows;
  shl.b32 %r7, %r1, 4;
  add.u32 %r6, %r6, %r7;
  st.shared.v4.b32 [%r6], {%r2, %r3, %r4, %r5};
  bar.sync 0;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r8, %r9, %r10, %r11}, [%r6];
  ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r12, %r13, %r14, %r15}, [%r6];
  movmatrix.sync.aligned.m8n8.trans.b16 %r16, %r8;
  mov.u32 %r17, back;
  add.u32 %r17, %r17, %r7;
  stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r17], {%r8, %r9, %r10, %r11};
  bar.sync 0;
  ld.shared.v4.b32 {%r18, %r19, %r20, %r21}, [%r17];
  mul.wide.u32 %rd5, %r1, 64;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.b32 [%rd6], {%r8, %r9, %r10, %r11};
  st.global.v4.b32 [%rd6+16], {%r12, %r13, %r14, %r15};
  st.global.b32 [%rd6+32], %r16;
  st.global.b32 [%rd6+36], %r18;
  st.global.b32 [%rd6+40], %r19;
  st.global.b32 [%rd6+44], %r20;
  st.global.b32 [%rd6+48], %r21;
  ret;
}
)";

TEST(MatrixMove, LdmatrixStmatrixMovmatrixFollowThePtxLayouts) {
  PtxRunner r(kMoves);
  // Element (matrix j, row i, column c) = j << 8 | i << 4 | c: row 8j + i is thread 8j + i's.
  std::vector<uint16_t> g(256);
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned i = 0; i < 8; ++i)
      for (unsigned c = 0; c < 8; ++c) g[64 * j + 8 * i + c] = uint16_t(j << 8 | i << 4 | c);
  const uint64_t gb = r.buffer<uint16_t>(256, g), out = r.buffer<uint32_t>(32 * 16);
  auto res = r.launch("moves", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(gb), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto v = r.read<uint32_t>(out, 32 * 16);
  auto el = [](unsigned j, unsigned i, unsigned c) { return uint32_t(j << 8 | i << 4 | c); };
  for (unsigned t = 0; t < 32; ++t) {
    const unsigned row = t / 4, col = 2 * (t % 4);
    for (unsigned j = 0; j < 4; ++j) {
      // "each thread receives ... row = laneid / 4, elements 2 * (laneid % 4) and +1"
      EXPECT_EQ(v[t * 16 + j], el(j, row, col) | el(j, row, col + 1) << 16) << t << " " << j;
      EXPECT_EQ(v[t * 16 + 4 + j], el(j, col, row) | el(j, col + 1, row) << 16) << t << " " << j;
    }
    EXPECT_EQ(v[t * 16 + 8], el(0, col, row) | el(0, col + 1, row) << 16) << t;
    // stmatrix.trans of the plain fragments writes the transposed matrices: row i of matrix j
    // (thread 8j + i's row) holds column i of the original.
    const unsigned j = t / 8, i = t % 8;
    for (unsigned w = 0; w < 4; ++w)
      EXPECT_EQ(v[t * 16 + 9 + w], el(j, 2 * w, i) | el(j, 2 * w + 1, i) << 16) << t << " " << w;
  }
}

uint16_t half(double v) {
  return uint16_t(fp::convertBits(fp::kF64, fp::kF16, fp::bits(v), fp::Round::RN));
}

TEST(MatrixMultiply, F16IntoF32FollowsTheM16n8k16Layouts) {
  // A[i][k] = (i + 2k) % 7 - 3, B[k][n] = (3k + n) % 5 - 2, C[i][n] = i - n: every partial sum
  // is a small integer, exact whatever the order of the additions.
  auto A = [](unsigned i, unsigned k) { return double(int((i + 2 * k) % 7) - 3); };
  auto B = [](unsigned k, unsigned n) { return double(int((3 * k + n) % 5) - 2); };
  auto C = [](unsigned i, unsigned n) { return float(int(i) - int(n)); };
  std::vector<uint32_t> in(32 * 10);
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned g = l / 4, t = l % 4;
    // PTX ISA, m16n8k16 .f16: a_i at row g (+8 for i in {2,3,6,7}), column 2t + (i & 1)
    // (+8 for i >= 4); b_i at row 2t + (i & 1) (+8 for i >= 2), column g; c_i at row g (+8 for
    // i >= 2), column 2t + (i & 1).
    for (unsigned reg = 0; reg < 4; ++reg) {
      uint32_t w = 0;
      for (unsigned h = 0; h < 2; ++h) {
        const unsigned i = 2 * reg + h;
        const unsigned row = g + ((i == 2 || i == 3 || i == 6 || i == 7) ? 8 : 0);
        const unsigned col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
        w |= uint32_t(half(A(row, col))) << (16 * h);
      }
      in[l * 10 + reg] = w;
    }
    for (unsigned reg = 0; reg < 2; ++reg) {
      uint32_t w = 0;
      for (unsigned h = 0; h < 2; ++h) {
        const unsigned i = 2 * reg + h;
        w |= uint32_t(half(B(2 * t + (i & 1) + (i >= 2 ? 8 : 0), g))) << (16 * h);
      }
      in[l * 10 + 4 + reg] = w;
    }
    for (unsigned i = 0; i < 4; ++i)
      in[l * 10 + 6 + i] = fp::bits(C(g + (i >= 2 ? 8 : 0), 2 * t + (i & 1)));
  }
  PtxRunner r(mmaProgram("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, 4, false));
  const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<float>(32 * 4);
  auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto d = r.read<float>(out, 128);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned row = l / 4 + (i >= 2 ? 8 : 0), col = 2 * (l % 4) + (i & 1);
      double want = C(row, col);
      for (unsigned k = 0; k < 16; ++k) want += A(row, k) * B(k, col);
      EXPECT_EQ(d[l * 4 + i], float(want)) << l << " " << i;
    }
}

TEST(MatrixMultiply, S8WrapsAndSatfiniteClamps) {
  // A all 127, B all 127 (s8), C = INT32_MAX - 5: the exact sum overflows s32.
  std::vector<uint32_t> in(32 * 10, 0x7F7F7F7Fu);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 4; ++i) in[l * 10 + 6 + i] = 0x7FFFFFFAu;
  for (bool sat : {false, true}) {
    PtxRunner r(mmaProgram(std::string("mma.sync.aligned.m16n8k32.row.col") +
                               (sat ? ".satfinite" : "") + ".s32.s8.s8.s32",
                           4, 2, 4, 4, false));
    const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<int32_t>(128);
    auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
    const int64_t exact = int64_t(0x7FFFFFFA) + 32 * 127 * 127;
    const auto d = r.read<int32_t>(out, 128);
    for (int32_t x : d) EXPECT_EQ(x, sat ? INT32_MAX : int32_t(uint32_t(exact)));
  }
}

TEST(MatrixMultiply, F64IsAnFmaChainInKOrder) {
  // Every lane: A row g = (1 + 2^-52, 1, ..), B = (1 - 2^-52 ...), chosen so the fma chain and a
  // plain sum differ; the expected value is computed by the same chain on the host.
  const double a0 = 1 + 0x1p-52, b0 = 1 - 0x1p-52, c0 = -1;
  std::vector<double> in(32 * 4);
  for (unsigned l = 0; l < 32; ++l) {
    in[l * 4 + 0] = (l % 4 == 0) ? a0 : 0x1p-60 * (l % 4);  // A[g][t]
    in[l * 4 + 1] = (l % 4 == 0) ? b0 : 3.0;                // B[t][g]
    in[l * 4 + 2] = c0;
    in[l * 4 + 3] = c0 * 2;
  }
  PtxRunner r(mmaProgram("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, 2, true));
  const uint64_t ib = r.buffer<double>(in.size(), in), out = r.buffer<double>(64);
  auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
  ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto d = r.read<double>(out, 64);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 2; ++i) {
      const unsigned g = l / 4, col = 2 * (l % 4) + i;
      double acc = in[(4 * g + col / 2) * 4 + 2 + col % 2];  // C[g][col] from thread 4g + col/2
      for (unsigned k = 0; k < 4; ++k)
        acc = std::fma(in[(4 * g + k) * 4], in[(4 * col + k) * 4 + 1], acc);
      EXPECT_EQ(d[l * 2 + i], acc) << l << " " << i;
    }
}

// mma.f64 with NaN operands: each k step is a DFMA with B first, so B's NaN wins over the
// running sum's (C's), which wins over A's (as measured on the H200; see mma.cpp).
TEST(MatrixMultiply, F64NaNsComeFromBThenCThenA) {
  const uint64_t nanA = 0x7FF00000000000A1ull, nanB = 0xFFF00000000000B2ull,
                 nanC = 0x7FF00000000000C3ull;
  for (bool bNaN : {true, false}) {
    std::vector<uint64_t> in(32 * 4);
    for (unsigned l = 0; l < 32; ++l) {
      in[l * 4 + 0] = nanA;                                       // A[g][t]
      in[l * 4 + 1] = bNaN && l % 4 == 2 ? nanB : fp::bits(1.0);  // B[t][g]
      in[l * 4 + 2] = in[l * 4 + 3] = nanC;
    }
    PtxRunner r(mmaProgram("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, 2, true));
    const uint64_t ib = r.buffer<uint64_t>(in.size(), in), out = r.buffer<uint64_t>(64);
    auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
    ASSERT_FALSE(res.fault.has_value()) << res.fault->message;
    const uint64_t quiet = uint64_t{1} << 51;
    for (uint64_t d : r.read<uint64_t>(out, 64)) EXPECT_EQ(d, (bNaN ? nanB : nanC) | quiet);
  }
}

// m16n8k16 with an f16 C and an f32 D (or back) is refused, as ptxas refuses it for sm_90
// (".dtype must be '.f16' when .ctype is '.f16'"): only m8n8k4 has mixed accumulators.
TEST(MatrixMultiply, MixedAccumulatorsAreRefusedAsPtxasDoes) {
  for (const char* form : {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16",
                           "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32"}) {
    const bool dF32 = std::string(form).find("f32.f16") != std::string::npos;
    PtxRunner r(mmaProgram(form, 4, 2, dF32 ? 2 : 4, dF32 ? 4 : 2, false));
    const uint64_t ib = r.buffer<uint32_t>(32 * 10), out = r.buffer<uint32_t>(32 * 4);
    try {
      r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
      ADD_FAILURE() << form << " ran";
    } catch (const isa::PtxError& e) {
      EXPECT_NE(std::string(e.what()).find("takes C and D of one type"), std::string::npos)
          << e.what();
    }
  }
}

// The tensor core's summation as fitted to the H200 (mma_accumulate.h): one value per rule.
TEST(MatrixMultiply, AccumulationModelMatchesTheMeasuredRules) {
  using isa::insns::mmaDot;
  const uint64_t oneF32 = fp::bits(1.0f), oneF16 = 0x3C00;
  auto dot = [](std::vector<double> a, std::vector<double> b, uint64_t c, fp::Format cf,
                fp::Format df, fp::Format in = fp::kF16) {
    return mmaDot(a.data(), b.data(), unsigned(a.size()), in, c, cf, df);
  };
  // f32 D rounds toward zero: 1 + 1.5 ulp (a subnormal f16 product) gives 1 + 1 ulp.
  EXPECT_EQ(dot({3 * 0x1p-24}, {1.0}, oneF32, fp::kF32, fp::kF32), fp::bits(1.0f + 0x1p-23f));
  // 26 bits are kept under the largest exponent: 2^-25 next to terms of exponent 0 survives the
  // cancellation, 2^-26 does not.
  EXPECT_EQ(dot({1.0, 0x1p-13}, {-1.0, 0x1p-12}, oneF32, fp::kF32, fp::kF32), fp::bits(0x1p-25f));
  EXPECT_EQ(dot({1.0, 0x1p-13}, {-1.0, 0x1p-13}, oneF32, fp::kF32, fp::kF32), 0u);
  // A product's exponent is ea + eb: 1.5 * 1.5 = 2.25 still aligns at 2^0, so 2^-25 is kept.
  EXPECT_EQ(dot({1.5, -1.5, 0x1p-13}, {1.5, 1.5, 0x1p-12}, 0, fp::kF32, fp::kF32),
            fp::bits(0x1p-25f));
  // A subnormal operand counts as emin (2^-14): 2^-24 * 2^15 aligns at 2^1, not at 2^-9, and
  // the 2^-25 term is cut off.
  EXPECT_EQ(dot({1.0, 0x1p-24, 0x1p-13}, {-1.0, 0x1p15, 0x1p-12}, oneF32, fp::kF32, fp::kF32),
            fp::bits(0x1p-9f));
  // Overflow gives infinity even though the rounding is toward zero.
  EXPECT_EQ(dot({0x1p127}, {2.0}, 0, fp::kF32, fp::kF32, fp::kBF16), 0x7F800000u);
  EXPECT_EQ(dot({-0x1p127}, {2.0}, 0, fp::kF32, fp::kF32, fp::kBF16), 0xFF800000u);
  // An f16 D is rounded to nearest once, from the sum: 1 + half an ulp + 2^-25 rounds up (an
  // RZ f32 step first would have left a tie, rounded to even: 1).
  EXPECT_EQ(dot({0x1p-11, 0x1p-13}, {1.0, 0x1p-12}, oneF16, fp::kF16, fp::kF16), 0x3C01u);
  // inf - inf is the canonical NaN of D's format.
  EXPECT_EQ(dot({INFINITY, INFINITY}, {1.0, -1.0}, 0, fp::kF32, fp::kF32), 0x7FFFFFFFu);
  EXPECT_EQ(dot({INFINITY, INFINITY}, {1.0, -1.0}, 0, fp::kF16, fp::kF16), 0x7FFFu);
}

// wgmma's fp8 adder as fitted to the H200 (kFp8Adder): 14 bits under the largest exponent, an
// f32 result of 14 significant bits.
TEST(MatrixMultiply, Fp8AdderKeepsFourteenBits) {
  using isa::insns::kFp8Adder;
  using isa::insns::kMmaAdder;
  using isa::insns::mmaDot;
  auto dot = [](std::vector<double> a, std::vector<double> b, uint64_t c,
                const isa::insns::MmaAdder& adder) {
    return mmaDot(a.data(), b.data(), unsigned(a.size()), fp::Format{4, 3}, fp::Format{4, 3}, adder,
                  c, fp::kF32, fp::kF32);
  };
  // 1 + 2^-14: the product 2^-7 * 2^-7 falls under the 14-bit grid of 2^0 (2^-13) and is lost;
  // the 26-bit adder keeps it.
  EXPECT_EQ(dot({1.0, 0x1p-7}, {1.0, 0x1p-7}, 0, kFp8Adder), fp::bits(1.0f));
  EXPECT_EQ(dot({1.0, 0x1p-7}, {1.0, 0x1p-7}, 0, kMmaAdder), fp::bits(1.0f + 0x1p-14f));
  // C = 2 - 2^-22 plus 1 * 1: C is cut to 2 - 2^-13 on the grid, the sum 3 - 2^-13 carries into
  // exponent 1, where 14 significant bits leave 3 - 2^-12 (0x403FFC00). The 26-bit adder and a
  // full f32 result give 3 - 2^-22.
  const uint64_t c = fp::bits(2.0f - 0x1p-22f);
  EXPECT_EQ(dot({1.0}, {1.0}, c, kFp8Adder), 0x403FFC00u);
  EXPECT_EQ(dot({1.0}, {1.0}, c, kMmaAdder), fp::bits(3.0f - 0x1p-22f));
}

}  // namespace
}  // namespace warpsim
