// mma.sync's sub-byte integer forms (s4/u4: m8n8k32, m16n8k32, m16n8k64; b1 with .and.popc and
// .xor.popc: m8n8k128, m16n8k128, m16n8k256) and fp8 m16n8k32 (e4m3/e5m2, f32 and f16
// accumulators), run through the simulator against a plain CPU product of the matrices that
// the PTX ISA's fragment figures describe (written out here per shape, apart from mma.cpp's
// tables): a RapidCheck property over random inputs for the integer forms (exact, so equal on
// the chip by definition), dyadic fp8 inputs whose sums are exact, the fp8 summation
// hypothesis, and the bad-input errors.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "isa/diagnostic.h"
#include "isa/fp.h"
#include "tests/support/mma_program.h"
#include "tests/support/ptx_runner.h"
#include "tests/support/rc_check.h"

namespace warpsim {
namespace {

using test::expectMmaLoadError;
using test::mmaProgram;
using test::PtxRunner;

struct RowCol {
  unsigned row, col;
};
// Where element i of a thread's fragment sits (g = groupID, t = threadID_in_group).
using Place = std::function<RowCol(unsigned i, unsigned g, unsigned t)>;

// One integer form: its instruction text, the matrices' shape, the element width and the
// manual's fragment layouts.
struct IntForm {
  std::string text;  // without the operands
  unsigned m, n, k, bits;
  bool aSigned, bSigned;
  Place a, b;
};

// C and D: "row = groupID (+ 8 for c2, c3), col = threadID_in_group * 2 + (i & 1)"; the 8x8
// shapes have c0, c1 only.
RowCol cPlace(unsigned m, unsigned i, unsigned g, unsigned t) {
  return {g + (m == 16 && i >= 2 ? 8 : 0), t * 2 + (i & 1)};
}

std::vector<IntForm> intForms(const std::string& sat) {
  const std::string p = "mma.sync.aligned.";
  return {
      // m8n8k32 .s4/.u4: a_i row g col t*8 + i; b_i row t*8 + i col g.
      {p + "m8n8k32.row.col" + sat + ".s32.s4.u4.s32", 8, 8, 32, 4, true, false,
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{g, t * 8 + i};
       },
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{t * 8 + i, g};
       }},
      // m16n8k32 .s4/.u4: a_i row g (+8 for i >= 8) col t*8 + (i & 7); b_i row t*8 + i.
      {p + "m16n8k32.row.col" + sat + ".s32.s4.s4.s32", 16, 8, 32, 4, true, true,
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{g + (i >= 8 ? 8 : 0), t * 8 + i % 8};
       },
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{t * 8 + i, g};
       }},
      // m16n8k64 .s4/.u4: a_i row g (+8 for 8 <= i < 16 and i >= 24) col t*8 + (i & 7) (+32
      // for i >= 16); b_i row t*8 + (i & 7) (+32 for i >= 8) col g.
      {p + "m16n8k64.row.col" + sat + ".s32.u4.s4.s32", 16, 8, 64, 4, false, true,
       [](unsigned i, unsigned g, unsigned t) {
         const bool low = i < 8 || (i >= 16 && i < 24);
         return RowCol{g + (low ? 0 : 8), t * 8 + i % 8 + (i >= 16 ? 32 : 0)};
       },
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{t * 8 + i % 8 + (i >= 8 ? 32 : 0), g};
       }},
  };
}

std::vector<IntForm> b1Forms(const std::string& op) {
  const std::string p = "mma.sync.aligned.";
  const std::string tail = ".row.col.s32.b1.b1.s32." + op + ".popc";
  return {
      // m8n8k128: a_i row g col t*32 + i; b_i row t*32 + i col g.
      {p + "m8n8k128" + tail, 8, 8, 128, 1, false, false,
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{g, t * 32 + i};
       },
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{t * 32 + i, g};
       }},
      // m16n8k128: a_i row g (+8 for i >= 32) col t*32 + (i & 31); b_i row t*32 + i.
      {p + "m16n8k128" + tail, 16, 8, 128, 1, false, false,
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{g + (i >= 32 ? 8 : 0), t * 32 + i % 32};
       },
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{t * 32 + i, g};
       }},
      // m16n8k256: a_i row g (+8 for 32 <= i < 64 and i >= 96) col t*32 + (i & 31) (+128 for
      // i >= 64); b_i row t*32 + (i & 31) (+128 for i >= 32) col g.
      {p + "m16n8k256" + tail, 16, 8, 256, 1, false, false,
       [](unsigned i, unsigned g, unsigned t) {
         const bool low = i < 32 || (i >= 64 && i < 96);
         return RowCol{g + (low ? 0 : 8), t * 32 + i % 32 + (i >= 64 ? 128 : 0)};
       },
       [](unsigned i, unsigned g, unsigned t) {
         return RowCol{t * 32 + i % 32 + (i >= 32 ? 128 : 0), g};
       }},
  };
}

int64_t elemValue(uint32_t field, unsigned bits, bool isSigned) {
  if (!isSigned) return field;
  return int64_t(field ^ (1u << (bits - 1))) - int64_t(1u << (bits - 1));
}

// Runs one integer form on A (m x k), B (k x n) element fields and C (m x n) and returns D as
// the program stores it (lane by lane, dRegs words each) next to the reference D.
struct IntRun {
  std::vector<int32_t> got, want;
};
IntRun runInt(const IntForm& f, const std::vector<uint32_t>& A, const std::vector<uint32_t>& B,
              const std::vector<int32_t>& C, bool sat, bool bitAnd) {
  const unsigned per = 32 / f.bits;
  const unsigned nA = f.m * f.k / 32 / per, nB = f.k * f.n / 32 / per, nC = f.m * f.n / 32;
  std::vector<uint32_t> in(32 * (nA + nB + nC), 0);
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned g = l / 4, t = l % 4;
    uint32_t* w = &in[l * (nA + nB + nC)];
    for (unsigned i = 0; i < nA * per; ++i) {
      const RowCol rc = f.a(i, g, t);
      w[i / per] |= A[rc.row * f.k + rc.col] << (i % per * f.bits);
    }
    for (unsigned i = 0; i < nB * per; ++i) {
      const RowCol rc = f.b(i, g, t);
      w[nA + i / per] |= B[rc.row * f.n + rc.col] << (i % per * f.bits);
    }
    for (unsigned i = 0; i < nC; ++i) {
      const RowCol rc = cPlace(f.m, i, g, t);
      w[nA + nB + i] = uint32_t(C[rc.row * f.n + rc.col]);
    }
  }
  PtxRunner r(mmaProgram(f.text, nA, nB, nC, nC, false));
  const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<int32_t>(32 * nC);
  auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
  IntRun run;
  if (res.fault) {
    ADD_FAILURE() << f.text << ": " << res.fault->message;
    return run;
  }
  run.got = r.read<int32_t>(out, 32 * nC);
  run.want.resize(32 * nC);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < nC; ++i) {
      const RowCol rc = cPlace(f.m, i, l / 4, l % 4);
      int64_t s = C[rc.row * f.n + rc.col];
      for (unsigned k = 0; k < f.k; ++k) {
        const uint32_t a = A[rc.row * f.k + k], b = B[k * f.n + rc.col];
        if (f.bits == 1)
          s += bitAnd ? (a & b) : (a ^ b);
        else
          s += elemValue(a, f.bits, f.aSigned) * elemValue(b, f.bits, f.bSigned);
      }
      if (sat) s = std::clamp<int64_t>(s, INT32_MIN, INT32_MAX);
      run.want[l * nC + i] = int32_t(uint32_t(uint64_t(s)));
    }
  return run;
}

// Every sub-byte integer form, random A and B fields and C (near the s32 limits half the time,
// so that sums wrap or clamp): D is the reference product, bit for bit.
TEST(MmaSubByte, RandomInputsMatchTheReferenceProduct) {
  test::checkProperty("MmaSubByte.Random", 12, 100, [] {
    const bool sat = *rc::gen::arbitrary<bool>();
    const bool bitAnd = *rc::gen::arbitrary<bool>();
    const bool bigC = *rc::gen::arbitrary<bool>();
    std::vector<IntForm> forms = intForms(sat ? ".satfinite" : "");
    for (const IntForm& f : b1Forms(bitAnd ? "and" : "xor")) forms.push_back(f);
    for (const IntForm& f : forms) {
      const bool b1 = f.bits == 1;
      const uint32_t mask = (1u << f.bits) - 1;
      std::vector<uint32_t> A(f.m * f.k), B(f.k * f.n);
      std::vector<int32_t> C(f.m * f.n);
      for (uint32_t& v : A) v = *rc::gen::arbitrary<uint32_t>() & mask;
      for (uint32_t& v : B) v = *rc::gen::arbitrary<uint32_t>() & mask;
      for (int32_t& v : C) {
        const int32_t near = *rc::gen::inRange(0, 5000);
        v = !bigC ? near - 2500 : *rc::gen::arbitrary<bool>() ? INT32_MAX - near : INT32_MIN + near;
      }
      const IntRun run = runInt(f, A, B, C, sat && !b1, bitAnd);
      RC_ASSERT(run.got == run.want);
    }
  });
}

// Hand-checked values: s4 -8 * -8 summed over k = 32 with C = 0 is 2048 per element; u4 15 * 15
// is 7200; b1 all ones: .and.popc gives k, .xor.popc 0.
TEST(MmaSubByte, ExtremeElements) {
  const IntForm s4 = intForms("")[1];  // m16n8k32 s4.s4
  const IntRun a = runInt(s4, std::vector<uint32_t>(16 * 32, 8), std::vector<uint32_t>(32 * 8, 8),
                          std::vector<int32_t>(128, 0), false, false);
  for (int32_t d : a.got) EXPECT_EQ(d, 2048);
  for (bool bitAnd : {true, false}) {
    const IntForm b1 = b1Forms(bitAnd ? "and" : "xor")[2];  // m16n8k256
    const IntRun b =
        runInt(b1, std::vector<uint32_t>(16 * 256, 1), std::vector<uint32_t>(256 * 8, 1),
               std::vector<int32_t>(128, 5), false, bitAnd);
    for (int32_t d : b.got) EXPECT_EQ(d, bitAnd ? 261 : 5);
  }
  // .satfinite: u4 15 * s4 7 over k = 64 onto C = INT32_MAX - 10 clamps; without it, wraps.
  for (bool sat : {false, true}) {
    const IntForm k64 = intForms(sat ? ".satfinite" : "")[2];  // u4.s4
    const IntRun c =
        runInt(k64, std::vector<uint32_t>(16 * 64, 15), std::vector<uint32_t>(64 * 8, 7),
               std::vector<int32_t>(128, INT32_MAX - 10), sat, false);
    const int64_t exact = int64_t(INT32_MAX) - 10 + 64 * 15 * 7;
    for (int32_t d : c.got) EXPECT_EQ(d, sat ? INT32_MAX : int32_t(uint32_t(uint64_t(exact))));
  }
}

// ---- fp8 ---------------------------------------------------------------------------------

uint32_t e4m3Bits(double v);  // the encodings of the dyadic values the tests use
uint32_t fp8Bits(bool e5m2, double v) {
  if (e5m2) return uint32_t(fp::convertBits(fp::kF64, fp::kF16, fp::bits(v), fp::Round::RN)) >> 8;
  return e4m3Bits(v);
}
uint32_t e4m3Bits(double v) {
  const uint32_t sign = v < 0 ? 0x80 : 0;
  v = std::fabs(v);
  if (v == 0) return sign;
  int e = std::ilogb(v);
  if (e < -6) return sign | uint32_t(std::ldexp(v, 9));  // subnormal: m * 2^-9
  return sign | uint32_t(e + 7) << 3 | (uint32_t(std::ldexp(v, 3 - e)) & 7);
}

// m16n8k32 fp8: A 4 registers, B 2, as the m16n8k32 .s8 layout (four elements a register).
RowCol fp8A(unsigned i, unsigned g, unsigned t) {
  return {g + ((i / 4) % 2) * 8, t * 4 + i % 4 + (i >= 8 ? 16 : 0)};
}
RowCol fp8B(unsigned i, unsigned g, unsigned t) { return {t * 4 + i % 4 + (i >= 4 ? 16 : 0), g}; }

// Runs m16n8k32 with A, B as values (exactly representable) and C (f32 or f16 values); returns
// D's 128 values in (row, col) order.
std::vector<double> runFp8(bool aE5, bool bE5, bool f16Acc, const std::vector<double>& A,
                           const std::vector<double>& B, const std::vector<double>& C) {
  const std::string acc = f16Acc ? "f16" : "f32";
  const std::string text = std::string("mma.sync.aligned.m16n8k32.row.col.") + acc +
                           (aE5 ? ".e5m2" : ".e4m3") + (bE5 ? ".e5m2." : ".e4m3.") + acc;
  const unsigned nC = f16Acc ? 2 : 4, words = 4 + 2 + nC;
  std::vector<uint32_t> in(32 * words, 0);
  auto half = [](double v) {
    return uint32_t(fp::convertBits(fp::kF64, fp::kF16, fp::bits(v), fp::Round::RN));
  };
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned g = l / 4, t = l % 4;
    uint32_t* w = &in[l * words];
    for (unsigned i = 0; i < 16; ++i) {
      const RowCol rc = fp8A(i, g, t);
      w[i / 4] |= fp8Bits(aE5, A[rc.row * 32 + rc.col]) << (i % 4 * 8);
    }
    for (unsigned i = 0; i < 8; ++i) {
      const RowCol rc = fp8B(i, g, t);
      w[4 + i / 4] |= fp8Bits(bE5, B[rc.row * 8 + rc.col]) << (i % 4 * 8);
    }
    for (unsigned i = 0; i < 4; ++i) {
      const RowCol rc = cPlace(16, i, g, t);
      const double c = C[rc.row * 8 + rc.col];
      if (f16Acc)
        w[6 + i / 2] |= half(c) << (i % 2 * 16);
      else
        w[6 + i] = fp::bits(float(c));
    }
  }
  PtxRunner r(mmaProgram(text, 4, 2, nC, nC, false));
  const uint64_t ib = r.buffer<uint32_t>(in.size(), in), out = r.buffer<uint32_t>(32 * nC);
  auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
  EXPECT_FALSE(res.fault.has_value()) << res.fault->message;
  const auto d = r.read<uint32_t>(out, 32 * nC);
  std::vector<double> D(128);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < 4; ++i) {
      const RowCol rc = cPlace(16, i, l / 4, l % 4);
      D[rc.row * 8 + rc.col] =
          f16Acc ? fp::f16ToF32(uint16_t(d[l * 2 + i / 2] >> (i % 2 * 16))) : fp::f32(d[l * 4 + i]);
    }
  return D;
}

// Small dyadic values (every partial sum exact in f16 and f32): D is the plain product, for
// every pairing of e4m3 and e5m2 and both accumulators. This checks the layouts and the decode.
TEST(MmaFp8, ExactInputsGiveThePlainProduct) {
  std::vector<double> A(16 * 32), B(32 * 8), C(16 * 8);
  for (unsigned i = 0; i < A.size(); ++i) A[i] = double(int((i * 7) % 9) - 4) / 4;  // -1 .. 1
  for (unsigned i = 0; i < B.size(); ++i) B[i] = double(int((i * 5) % 7) - 3) / 2;  // -1.5 .. 1.5
  for (unsigned i = 0; i < C.size(); ++i) C[i] = double(int(i % 11) - 5);
  for (int combo = 0; combo < 8; ++combo) {
    const bool aE5 = combo & 1, bE5 = combo & 2, f16Acc = combo & 4;
    const std::vector<double> D = runFp8(aE5, bE5, f16Acc, A, B, C);
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned c = 0; c < 8; ++c) {
        double want = C[r * 8 + c];
        for (unsigned k = 0; k < 32; ++k) want += A[r * 32 + k] * B[k * 8 + c];
        ASSERT_EQ(D[r * 8 + c], want) << combo << " row " << r << " col " << c;
      }
  }
}

// ptxas's two f16 HMMAs (mma.cpp, kFp8Steps; measured: tests/recorded/mma's fp8 cases): k = 0, 1
// (mod 4) in the first, each rounded to f32 toward zero. Products 1 (k = 0) and 2^-24 twice: two
// at k = 1 and 4 share the first step's 26-bit adder (1 + 2^-23); at k = 1 and 2 each is dropped.
TEST(MmaFp8, SumsTheLowAndHighBytesOfEachRegisterInTwoSteps) {
  std::vector<double> A(16 * 32, 0), B(32 * 8, 0), C(16 * 8, 0);
  A[0] = 1;
  B[0] = 1;
  A[1] = 0x1p-16;  // e5m2's smallest subnormal
  B[1 * 8] = 0x1p-8;
  A[2] = 0x1p-16;
  B[2 * 8] = 0x1p-8;
  EXPECT_EQ(runFp8(true, true, false, A, B, C)[0], 1.0);
  A[2] = 0;
  A[4] = 0x1p-16;
  B[4 * 8] = 0x1p-8;
  EXPECT_EQ(runFp8(true, true, false, A, B, C)[0], 1 + 0x1p-23);
}

// C is added last, by FADD (round to nearest): 1 + 3 * 2^-25 (three quarters of an ulp) is
// 1 + 2^-23, where C inside the truncating adder would give 1.
TEST(MmaFp8, AddsCLastRoundingToNearest) {
  std::vector<double> A(16 * 32, 0), B(32 * 8, 0), C(16 * 8, 0);
  A[0] = 3 * 0x1p-16;  // an e5m2 subnormal
  B[0] = 0x1p-9;
  C[0] = 1;
  EXPECT_EQ(runFp8(true, true, false, A, B, C)[0], 1 + 0x1p-23);
}

// ---- bad input ---------------------------------------------------------------------------

// A form's errors name the instruction's line and column.
void expectError(const std::string& form, unsigned nA, unsigned nB, unsigned nC,
                 const std::string& what) {
  expectMmaLoadError(mmaProgram(form, nA, nB, nC, nC, false), 16 + nA + nB + nC, what);
}

TEST(MmaSubByte, BadFormsAreClearErrors) {
  const std::string p = "mma.sync.aligned.";
  expectError(p + "m16n8k32.row.col.s32.s4.s4.s32", 1, 1, 4, "takes A as 2 registers");
  expectError(p + "m8n8k32.row.col.s32.s4.s4.s32", 1, 2, 2, "takes B as 1 registers");
  expectError(p + "m8n8k32.row.col.s32.s4.s4.s32", 1, 1, 4, "writes a vector of 2 registers");
  expectError(p + "m16n8k32.row.col.s32.s4.s8.s32", 2, 1, 4, "both of .s4/.u4, or both .b1");
  expectError(p + "m16n8k64.row.col.f32.s4.s4.f32", 4, 2, 4, "takes .s32 C and D");
  expectError(p + "m16n8k16.row.col.s32.s4.s4.s32", 2, 1, 4, "in the shapes .m8n8k32");
  expectError(p + "m8n8k128.row.col.s32.b1.b1.s32", 1, 1, 2, ".and.popc or .xor.popc");
  expectError(p + "m8n8k128.row.col.s32.b1.b1.s32.and.xor.popc", 1, 1, 2, ".and.popc or");
  expectError(p + "m8n8k128.row.col.satfinite.s32.b1.b1.s32.xor.popc", 1, 1, 2, "no .satfinite");
  expectError(p + "m16n8k32.row.col.s32.s4.s4.s32.xor.popc", 2, 1, 4, "only with .b1");
  expectError(p + "m16n8k32.row.col.f32.e4m3.f16.f32", 4, 2, 4, "both fp8");
  expectError(p + "m16n8k32.row.col.f16.e4m3.e5m2.f32", 4, 2, 4, "C and D of one type");
  expectError(p + "m16n8k32.row.col.satfinite.f32.e4m3.e4m3.f32", 4, 2, 4, ".satfinite only");
  expectError(p + "m16n8k32.row.col.s32.s8.u4.s32", 4, 2, 4, "both of .s4/.u4");
}

// The block-scaled forms (.kind::...) are not executed yet: they fault "not supported yet" when
// run, never bind as the dense form of their types. (The sparse forms run: mma_sparse_test.cpp.)
TEST(MmaSubByte, BlockScaledFormsAreNotSupportedYet) {
  for (const char* form : {"mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.e4m3.e4m3.f32"}) {
    PtxRunner r(mmaProgram(form, 4, 2, 4, 4, false));
    const uint64_t ib = r.buffer<uint32_t>(32 * 10), out = r.buffer<uint32_t>(32 * 4);
    auto res = r.launch("mma_k", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ib), PtxRunner::ptr(out)});
    ASSERT_TRUE(res.fault.has_value()) << form;
    EXPECT_NE(res.fault->describe("test.ptx").find("not supported yet"), std::string::npos)
        << res.fault->describe("test.ptx");
  }
}

}  // namespace
}  // namespace warpsim
