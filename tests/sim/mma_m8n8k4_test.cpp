// mma.sync m8n8k4 with f16 A and B (isa/insns/mma_m8n8k4_f16.h): every layout and accumulator
// pair against a plain product of the quad pairs' matrices (the PTX ISA's fragment layouts,
// written out here apart from the header), and the arithmetic of ptxas's sm_90 routines with
// values that tell it apart from other orders and roundings (read from nvdisasm:
// scripts/probes/mma/m8n8k4_sass.py): an f32 D is an FFMA chain in k order from +0 with C added
// last; an f16 D adds two FMUL+FFMA pairs to C in f32 and rounds that to f16; subnormals stay.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/diagnostic.h"
#include "isa/fp.h"
#include "tests/support/mma_program.h"
#include "tests/support/ptx_runner.h"

namespace warpsim {
namespace {

using test::mmaProgram;
using test::PtxRunner;

struct Form {
  bool aCol, bCol, cF16, dF16;
  std::string text() const {
    return std::string("mma.sync.aligned.m8n8k4.") + (aCol ? "col." : "row.") +
           (bCol ? "col." : "row.") + (dF16 ? "f16" : "f32") + ".f16.f16." + (cF16 ? "f16" : "f32");
  }
};

std::vector<Form> allForms() {
  std::vector<Form> v;
  for (int i = 0; i < 12; ++i) {
    const int acc = i / 4;  // f32.f32, f32 D from f16 C, f16.f16
    v.push_back({bool(i & 2), bool(i & 1), acc >= 1, acc == 2});
  }
  return v;
}

// The PTX ISA's layouts (quad pair q = lanes 4q..4q+3 and 4q+16..4q+19; "+4" for lanes >= 16):
// A row-major: row = lane % 4 (+4), col = i; column-major: row = i (+4), col = lane % 4.
// B row-major: row = lane % 4, col = i (+4); column-major: row = i, col = lane % 4 (+4).
// C/D f16: row = lane % 4 (+4), col = i; f32: row = lane % 2 + (i & 2) (+4),
// col = (i & 1) + (lane & 2) + (i & 4).
struct RC {
  unsigned r, c;
};
unsigned up(unsigned lane) { return lane >= 16 ? 4 : 0; }
RC aPlace(bool col, unsigned l, unsigned i) {
  return col ? RC{i + up(l), l % 4} : RC{l % 4 + up(l), i};
}
RC bPlace(bool col, unsigned l, unsigned i) {
  return col ? RC{i, l % 4 + up(l)} : RC{l % 4, i + up(l)};
}
RC cPlace(bool f16, unsigned l, unsigned i) {
  return f16 ? RC{l % 4 + up(l), i} : RC{l % 2 + (i & 2) + up(l), (i & 1) + (l & 2) + (i & 4)};
}

// Each quad pair's matrices as f16 (A, B) and C's bits (f16 or f32): A[q][r][k], B[q][k][c].
struct Matrices {
  uint16_t A[4][8][4]{}, B[4][4][8]{};
  uint32_t C[4][8][8]{};
};

// Runs one form on the matrices; D's bits (f16 or f32) by quad pair, row and column.
std::vector<uint32_t> run(const Form& f, const Matrices& m) {
  const unsigned nC = f.cF16 ? 4 : 8, nD = f.dF16 ? 4 : 8, words = 4 + nC;
  std::vector<uint32_t> in(32 * words, 0);
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned q = (l >> 2) & 3;
    for (unsigned i = 0; i < 4; ++i) {
      const RC a = aPlace(f.aCol, l, i), b = bPlace(f.bCol, l, i);
      in[l * words + i / 2] |= uint32_t(m.A[q][a.r][a.c]) << (i % 2 * 16);
      in[l * words + 2 + i / 2] |= uint32_t(m.B[q][b.r][b.c]) << (i % 2 * 16);
    }
    for (unsigned i = 0; i < 8; ++i) {
      const RC c = cPlace(f.cF16, l, i);
      if (f.cF16)
        in[l * words + 4 + i / 2] |= m.C[q][c.r][c.c] << (i % 2 * 16);
      else
        in[l * words + 4 + i] = m.C[q][c.r][c.c];
    }
  }
  PtxRunner r(mmaProgram(f.text(), 2, 2, nC, nD, false));
  const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<uint32_t>(32 * nD);
  auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
  EXPECT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto d = r.read<uint32_t>(out, 32 * nD);
  std::vector<uint32_t> D(4 * 64);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 8; ++i) {
      const RC c = cPlace(f.dF16, l, i);
      D[((l >> 2) & 3) * 64 + c.r * 8 + c.c] =
          f.dF16 ? (d[l * nD + i / 2] >> (i % 2 * 16)) & 0xFFFF : d[l * nD + i];
    }
  return D;
}

uint16_t h(float v) { return fp::f32ToF16(v, fp::Round::RN); }
float value(const Form& f, uint32_t bits) {
  return f.dF16 ? fp::f16ToF32(uint16_t(bits)) : fp::f32(bits);
}

// Small integers (every partial sum exact in f16 and f32): D is the plain product, per quad
// pair, in all 12 forms. This checks the layouts, the halves and the quad pairs.
TEST(MmaM8n8k4, EveryLayoutGivesThePlainProductOfEachQuadPair) {
  Matrices m;
  for (unsigned q = 0; q < 4; ++q)
    for (unsigned r = 0; r < 8; ++r)
      for (unsigned k = 0; k < 4; ++k) {
        m.A[q][r][k] = h(float(int((q * 37 + r * 5 + k * 3) % 7) - 3));
        m.B[q][k][r] = h(float(int((q * 11 + r * 3 + k * 7) % 9) - 4));
      }
  for (const Form& f : allForms()) {
    for (unsigned q = 0; q < 4; ++q)
      for (unsigned r = 0; r < 8; ++r)
        for (unsigned c = 0; c < 8; ++c) {
          const float cv = float(int(q * 64 + r * 8 + c) % 13 - 6);
          m.C[q][r][c] = f.cF16 ? h(cv) : fp::bits(cv);
        }
    const std::vector<uint32_t> D = run(f, m);
    for (unsigned q = 0; q < 4; ++q)
      for (unsigned r = 0; r < 8; ++r)
        for (unsigned c = 0; c < 8; ++c) {
          float want = float(int(q * 64 + r * 8 + c) % 13 - 6);
          for (unsigned k = 0; k < 4; ++k)
            want += fp::f16ToF32(m.A[q][r][k]) * fp::f16ToF32(m.B[q][k][c]);
          ASSERT_EQ(value(f, D[q * 64 + r * 8 + c]), want)
              << f.text() << " pair " << q << " row " << r << " col " << c;
        }
  }
}

// Products 2^24, 1, 1, -2^24 (k = 0..3) into C = 0: an FFMA chain in k order keeps 2^24 twice
// (2^24 + 1 ties to even) and ends at 0; the reverse order or an exact sum gives 2.
// C = 2^24 with products 0, 1, 1, 0: C added last gives 2^24 + 2; C first, 2^24.
TEST(MmaM8n8k4, F32IsAnFfmaChainInKOrderWithCAddedLast) {
  const Form f{false, true, false, false};
  Matrices m;
  const float a[2][4] = {{4096, 1, 1, -4096}, {0, 1, 1, 0}};
  const float b[4] = {4096, 1, 1, 4096};
  for (unsigned k = 0; k < 4; ++k) {
    m.A[0][0][k] = h(a[0][k]);
    m.A[0][1][k] = h(a[1][k]);
    m.B[0][k][0] = h(b[k]);
  }
  m.C[0][1][0] = fp::bits(0x1p24f);
  const std::vector<uint32_t> D = run(f, m);
  EXPECT_EQ(fp::f32(D[0]), 0.0f);
  EXPECT_EQ(fp::f32(D[8]), 0x1p24f + 2);
}

// f16 D: (C + (p0 + p1)) + (p2 + p3) in f32, then rounded to f16.
// p = 1, 2^-11, 2^-24, 2^-24 into C = 0: the pairs give 1 + 2^-11 + 2^-23, above the f16
// midpoint (0x3C01); one term at a time, each 2^-24 ties away to nothing and the midpoint rounds
// to even (0x3C00). p = 1, 2^-24 into C = 2^-11: the pair rounds to 1 in f32 and C + 1 is the
// midpoint (0x3C00), where one rounding of the exact sum gives 0x3C01.
TEST(MmaM8n8k4, F16AddsTwoPairsToCInF32ThenRoundsToF16) {
  const Form f{false, true, true, true};
  Matrices m;
  const float a[2][4] = {{1, 0x1p-5f, 0x1p-12f, 0x1p-12f}, {1, 0x1p-12f, 0, 0}};
  const float b[2][4] = {{1, 0x1p-6f, 0x1p-12f, 0x1p-12f}, {1, 0x1p-12f, 0, 0}};
  for (unsigned k = 0; k < 4; ++k)
    for (unsigned i = 0; i < 2; ++i) {
      m.A[0][i][k] = h(a[i][k]);
      m.B[0][k][i] = h(b[i][k]);
    }
  m.C[0][1][1] = h(0x1p-11f);
  const std::vector<uint32_t> D = run(f, m);
  EXPECT_EQ(D[0 * 8 + 0], 0x3C01u);
  EXPECT_EQ(D[1 * 8 + 1], 0x3C00u);
}

// f32 D from an f16 C: C widened exactly and added after the chain: 8192 + 2^-11 + 2^-11 is
// 8192 + 2^-10 (C first: 8192).
TEST(MmaM8n8k4, F16CIntoF32IsAddedLast) {
  const Form f{true, false, true, false};
  Matrices m;
  m.A[2][3][0] = m.A[2][3][1] = h(0x1p-5f);
  m.B[2][0][5] = m.B[2][1][5] = h(0x1p-6f);
  m.C[2][3][5] = h(8192);
  const std::vector<uint32_t> D = run(f, m);
  EXPECT_EQ(fp::f32(D[2 * 64 + 3 * 8 + 5]), 8192 + 0x1p-10f);
}

// No flush to zero: an f32 subnormal C comes through; -0 products start from +0 (an f32 D of
// all -0 terms is +0), while the f16 D's FMUL pairs keep -0 (0x8000); NaN and inf - inf give
// the canonical NaN of D's format.
TEST(MmaM8n8k4, SubnormalsSignedZerosAndNaNs) {
  const Form f32{false, false, false, false}, f16{false, false, true, true};
  Matrices m;
  m.C[0][0][0] = 1;  // 2^-149
  for (unsigned k = 0; k < 4; ++k) {
    m.A[1][0][k] = 0x8000;  // -0
    m.B[1][k][0] = h(1);
  }
  m.C[1][0][0] = 0x80000000u;
  m.A[2][0][0] = 0x7E01;  // a NaN with a payload
  m.A[3][0][0] = h(INFINITY);
  m.A[3][0][1] = h(-INFINITY);
  for (unsigned q = 2; q < 4; ++q) m.B[q][0][0] = m.B[q][1][0] = h(1);
  std::vector<uint32_t> D = run(f32, m);
  EXPECT_EQ(D[0], 1u);
  EXPECT_EQ(D[64], 0u);
  EXPECT_EQ(D[128], 0x7FFFFFFFu);
  EXPECT_EQ(D[192], 0x7FFFFFFFu);
  m.C[0][0][0] = 1;  // f16 2^-24
  m.C[1][0][0] = 0x8000;
  D = run(f16, m);
  EXPECT_EQ(D[0], 1u);
  EXPECT_EQ(D[64], 0x8000u);
  EXPECT_EQ(D[128], 0x7FFFu);
  EXPECT_EQ(D[192], 0x7FFFu);
}

// A form's errors name the instruction.
void expectError(const std::string& form, unsigned nC, unsigned nD, const std::string& what) {
  try {
    PtxRunner r(mmaProgram(form, 2, 2, nC, nD, false));
    const uint64_t ib = r.buffer<uint32_t>(32 * 16), out = r.buffer<uint32_t>(32 * 8);
    r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
    ADD_FAILURE() << form << " ran";
  } catch (const isa::PtxError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(MmaM8n8k4, BadFormsAreClearErrors) {
  const std::string p = "mma.sync.aligned.m8n8k4.";
  expectError(p + "row.col.f16.f16.f16.f32", 8, 4, "an f16 D only with an f16 C");
  expectError(p + "row.col.f32.f16.f16.f32", 8, 4, "writes a vector of 8 registers");
  expectError(p + "row.col.f32.f16.f16.f16", 8, 8, "takes C as 4 registers");
  expectError(p + "row.f32.f16.f16.f32", 8, 8, "two layouts");
  expectError(p + "row.col.s32.f16.f16.s32", 8, 8, ".f16 or .f32");
  expectError(p + "row.col.satfinite.f32.f16.f16.f32", 8, 8, ".satfinite only");
}

}  // namespace
}  // namespace warpsim
