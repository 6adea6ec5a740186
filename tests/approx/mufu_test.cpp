// The MUFU models (isa/sfu/mufu.h) that make the rcp, rsqrt, sqrt, ex2 and div forms the H200's:
// special values, the interpolation's edges, values read off the chip's dense binades and
// samples, every committed sample of the exact forms through the instruction handlers, and a
// sample of the recorded chunk hashes (all 2^32 inputs: `warpsim fastmath-verify`).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "harness/approx/approx.h"
#include "harness/approx/fastmath_hashes.h"
#include "isa/sfu/approx.h"
#include "isa/sfu/forms.h"
#include "isa/sfu/mufu.h"

namespace warpsim::harness::approx {
namespace {

namespace fs = std::filesystem;
namespace sfu = isa::sfu;

constexpr uint32_t kOne = 0x3F800000u, kInf = 0x7F800000u, kNegInf = 0xFF800000u;
constexpr uint32_t kNaN = 0x7FFFFFFFu, kSign = 0x80000000u, kMinSub = 1u;

// The interpolation's S(j) (a table of 256 and the high-by-low products as shifts of j) is the
// array squarer's row loop for every j of both squarers.
TEST(Mufu, SquarerWithoutItsTableIsTheRowLoop) {
  for (const int bits : {16, 17}) {
    uint32_t wrong = 0, first = 0;
    for (uint32_t j = 0; j < (1u << bits); ++j)
      if (sfu::mufuSquare(bits, j) != sfu::mufuSquareByRows(bits, j) && !wrong++) first = j;
    EXPECT_EQ(wrong, 0u) << bits << " bits, first at j = " << first;
  }
  // (2^17 - 1)^2 >> 19 is 32767: the dropped columns' carries are lost (a Python row loop).
  EXPECT_EQ(sfu::mufuSquare(17, 0x1FFFF), 32759u);
  EXPECT_EQ(sfu::mufuSquare(16, 0xFFFF), 32759u);
  EXPECT_EQ(sfu::mufuSquare(17, 0x12345), 10603u);
}

TEST(Mufu, RcpSpecialValuesAndFlushing) {
  EXPECT_EQ(sfu::mufuRcp(kOne), kOne);
  EXPECT_EQ(sfu::mufuRcp(0x40000000u), 0x3F000000u);  // 1/2
  EXPECT_EQ(sfu::mufuRcp(kSign), kNegInf);            // 1/-0
  EXPECT_EQ(sfu::mufuRcp(kMinSub), kInf);             // operand flushed
  EXPECT_EQ(sfu::mufuRcp(kNegInf), kSign);            // 1/-inf = -0
  EXPECT_EQ(sfu::mufuRcp(0xFFC00001u), kNaN);         // canonical NaN
  EXPECT_EQ(sfu::mufuRcp(0x7E800000u), 0x00800000u);  // 1/2^126 = 2^-126, normal
  EXPECT_EQ(sfu::mufuRcp(0x7EC00000u), 0u);           // 1/(1.5 2^126) flushed
  // Read off the chip's [1, 2) binade (tests/recorded/fastmath/rcp_ftz_1_2.d2.xz).
  EXPECT_EQ(sfu::mufuRcp(0x3F800001u), 0x3F7FFFFEu);
  EXPECT_EQ(sfu::mufuRcp(0x3FFFFFFFu), 0x3F000001u);
  EXPECT_EQ(sfu::mufuRcp(0xC0800001u), 0xBE7FFFFEu);  // sign and exponent carried
}

TEST(Mufu, RcpWithoutFtzScalesSubnormalOperandsAndResults) {
  EXPECT_EQ(sfu::rcpApproxF32(0x00400000u, false), 0x7F000000u);  // 1/2^-127 = 2^127
  EXPECT_EQ(sfu::rcpApproxF32(kMinSub, false), kInf);             // 2^149 overflows
  EXPECT_EQ(sfu::rcpApproxF32(0x7F000000u, false), 0x00400000u);  // 1/2^127: subnormal kept
  EXPECT_EQ(sfu::rcpApproxF32(0x7F000000u, true), 0u);            // ... or flushed
}

TEST(Mufu, RsqAndSqrtSpecialValuesAndTheExponentsParity) {
  EXPECT_EQ(sfu::mufuRsq(kOne), kOne);
  EXPECT_EQ(sfu::mufuRsq(0x40800000u), 0x3F000000u);  // 1/sqrt(4)
  EXPECT_EQ(sfu::mufuRsq(0x3E800000u), 0x40000000u);  // 1/sqrt(1/4)
  EXPECT_EQ(sfu::mufuRsq(kSign), kNegInf);
  EXPECT_EQ(sfu::mufuRsq(kSign | kMinSub), kNegInf);  // flushed to -0
  EXPECT_EQ(sfu::mufuRsq(0xBF800000u), kNaN);
  EXPECT_EQ(sfu::mufuRsq(kInf), 0u);
  EXPECT_EQ(sfu::mufuRsq(0x3F800001u), 0x3F7FFFFEu);  // the chip's [1, 4) binade
  EXPECT_EQ(sfu::mufuRsq(0x407FFFFFu), 0x3F000000u);
  EXPECT_EQ(sfu::mufuSqrt(kOne), kOne);
  EXPECT_EQ(sfu::mufuSqrt(0x3F800001u), kOne);  // the chip's [1, 4) binade
  EXPECT_EQ(sfu::mufuSqrt(0x3F800002u), 0x3F800001u);
  EXPECT_EQ(sfu::mufuSqrt(0x407FFFFFu), 0x3FFFFFFFu);
  EXPECT_EQ(sfu::mufuSqrt(0x41800000u), 0x40800000u);  // sqrt(16) = 4
  EXPECT_EQ(sfu::mufuSqrt(kSign), kSign);
  EXPECT_EQ(sfu::mufuSqrt(0xBF800000u), kNaN);
  EXPECT_EQ(sfu::mufuSqrt(kInf), kInf);
  EXPECT_EQ(sfu::sqrtApproxF32(0x00400000u, false), 0x1FB504F3u);  // sqrt(2^-127) = 2^-63.5, scaled
  EXPECT_EQ(sfu::sqrtApproxF32(0x00400000u, true), 0u);
}

TEST(Mufu, Ex2FixedPointArgumentAndTheNegativeSide) {
  EXPECT_EQ(sfu::mufuEx2(0u), kOne);
  EXPECT_EQ(sfu::mufuEx2(kMinSub | kSign), kOne);
  EXPECT_EQ(sfu::mufuEx2(kNegInf), 0u);
  EXPECT_EQ(sfu::mufuEx2(kInf), kInf);
  EXPECT_EQ(sfu::mufuEx2(0x43000000u), kInf);  // 2^128
  EXPECT_EQ(sfu::mufuEx2(0x3F800000u), 0x40000000u);
  EXPECT_EQ(sfu::mufuEx2(0xBF800000u), 0x3F000000u);  // 2^-1: an integer is exact
  EXPECT_EQ(sfu::mufuEx2(0xC2FC0000u), 0x00800000u);  // 2^-126
  EXPECT_EQ(sfu::mufuEx2(0xC2FE0000u), 0u);           // 2^-127 flushed
  // Values the H200 gave (tests/recorded/approx/ex2.approx.ftz.f32.sample): a negative x
  // takes the one's complement of its fixed-point fraction; one below 2^-23 gives 1.
  EXPECT_EQ(sfu::mufuEx2(0xC1A9CF63u), 0x34DAD734u);
  EXPECT_EQ(sfu::mufuEx2(0xC0528978u), 0x3DD16F63u);
  EXPECT_EQ(sfu::mufuEx2(0xB23D09CAu), kOne);
  EXPECT_EQ(sfu::mufuEx2(0x3F800002u), 0x40000002u);          // [1, 2): the dense binade
  EXPECT_EQ(sfu::ex2ApproxF32(0xC3150000u, false), kMinSub);  // 2^-149, squared from 2^-74.5
}

TEST(Mufu, F64UpperWordFormsUseTheF32TablesTruncated) {
  EXPECT_EQ(sfu::rcpApproxFtzF64(0x3FF0000000000000ull), 0x3FF0000000000000ull);
  EXPECT_EQ(sfu::rcpApproxFtzF64(0x4000000012345678ull), 0x3FE0000000000000ull);  // low ignored
  EXPECT_EQ(sfu::rcpApproxFtzF64(0x8000000000000000ull), 0xFFF0000000000000ull);
  EXPECT_EQ(sfu::rcpApproxFtzF64(0x7FF8000000000000ull), 0x7FFFFFFF00000000ull);
  EXPECT_EQ(sfu::rcpApproxFtzF64(0x7FE8000000000000ull), 0u);  // 1/(1.5 2^1023): flushed
  EXPECT_EQ(sfu::rsqrtApproxFtzF64(0x4010000000000000ull), 0x3FE0000000000000ull);
  EXPECT_EQ(sfu::rsqrtApproxFtzF64(0xBFF0000000000000ull), 0x7FFFFFFF00000000ull);
  // MUFU.RCP's significand of 1 + 2^-20, the upper word's last bit: 0x3F7FFFF0 in f32 terms.
  EXPECT_EQ(sfu::rcpApproxFtzF64(0x3FF0000100000000ull) >> 32,
            0x3FE00000u | ((sfu::mufuRcpSignificand(8) - (1u << 23)) >> 3));
}

// MUFU.TANH: x below 2^-8, +-1 from 8, a table per binade between whose low mantissa bits the
// unit ignores (6 in [2^-8, 2^-5), 2 in [2, 4)); values read off the chip's dense binades
// (tests/recorded/fastmath/tanh_*.d2.xz).
TEST(Mufu, TanhIsTheChipsTableOnEveryBinade) {
  EXPECT_EQ(sfu::mufuTanh(0x3B7FFFFFu), 0x3B7FFFFFu);  // just below 2^-8: x itself
  EXPECT_EQ(sfu::mufuTanh(0x3B800000u), 0x3B800000u);  // 2^-8: the table gives x
  EXPECT_EQ(sfu::mufuTanh(0x3BFFFFFFu), 0x3BFFFEC0u);
  EXPECT_EQ(sfu::mufuTanh(0x3BFFFFC0u), 0x3BFFFEC0u);  // the 6 low bits ignored
  // [2^-7, 2^-6): the first results fall below 2^-7 and keep one more bit.
  EXPECT_EQ(sfu::mufuTanh(0x3C000000u), 0x3BFFFF00u);
  EXPECT_EQ(sfu::mufuTanh(0x3F000000u), 0x3EEC9A50u);  // tanh(0.5)
  EXPECT_EQ(sfu::mufuTanh(0x3F800000u), 0x3F42F848u);  // tanh(1)
  EXPECT_EQ(sfu::mufuTanh(0x3F800007u), 0x3F42F848u);  // [1, 2): 3 low bits ignored
  EXPECT_EQ(sfu::mufuTanh(0x3F800008u), 0x3F42F84Eu);
  EXPECT_EQ(sfu::mufuTanh(0x3F81E240u), 0x3F44882Fu);
  EXPECT_EQ(sfu::mufuTanh(0x3FFFFFFFu), 0x3F76CA58u);
  EXPECT_EQ(sfu::mufuTanh(0x40000000u), 0x3F76CAA0u);  // tanh(2): the G = 15 binade
  EXPECT_EQ(sfu::mufuTanh(0x40800000u), 0x3F7FD430u);  // tanh(4)
  EXPECT_EQ(sfu::mufuTanh(0x40FFFFFFu), 0x3F7FFFFCu);  // just below 8
  EXPECT_EQ(sfu::mufuTanh(0x41000000u), kOne);         // 8: exactly 1
  EXPECT_EQ(sfu::mufuTanh(0xBFFFFFFFu), 0xBF76CA58u);  // odd
  EXPECT_EQ(sfu::mufuTanh(0xC0800000u), 0xBF7FD430u);
  EXPECT_EQ(sfu::mufuTanh(kNegInf), kSign | kOne);
  EXPECT_EQ(sfu::mufuTanh(kSign | kMinSub), kSign | kMinSub);  // subnormals pass through
  EXPECT_EQ(sfu::mufuTanh(0xFFC00001u), kNaN);
  EXPECT_EQ(sfu::tanhApproxF32(0x3F800000u, false), 0x3F42F848u);  // the PTX form: MUFU.TANH
  // The 16-bit forms are MUFU.TANH toward zero: no exception left.
  EXPECT_EQ(sfu::tanhApproxF16(0x3C00), 0x3A17);  // tanh(1) = 0x3F42F848 toward zero
}

// MUFU.LG2: the exponent plus the table's log2(1.m) in fixed point (36 fraction bits), a
// negative sum's one's complement, truncated; values read off lg2_ftz_{h_1,1_2,2_4}.d2.xz.
TEST(Mufu, Lg2FixedPointSumTruncated) {
  EXPECT_EQ(sfu::mufuLg2(kOne), 0u);                  // log2(1) = 0 exactly
  EXPECT_EQ(sfu::mufuLg2(0x3F800001u), 0x3495F600u);  // 2^-22.8: the table's absolute error
  EXPECT_EQ(sfu::mufuLg2(0x3F800002u), 0x34F24A00u);
  EXPECT_EQ(sfu::mufuLg2(0x3FFFFFFFu), 0x3F7FFFFFu);
  EXPECT_EQ(sfu::mufuLg2(0x40000000u), kOne);  // log2(2)
  EXPECT_EQ(sfu::mufuLg2(0x40000001u), 0x3F800002u);
  EXPECT_EQ(sfu::mufuLg2(0x3F000000u), 0xBF7FFFFEu);  // log2(0.5) = -(1 - 2^-23): z(0) > 0
  EXPECT_EQ(sfu::mufuLg2(0x3F000001u), 0xBF7FFFFBu);
  EXPECT_EQ(sfu::mufuLg2(0x3F7FFFFFu), 0xB24B4000u);  // just below 1: the one's complement
  EXPECT_EQ(sfu::mufuLg2(kMinSub), kNegInf);          // flushed: log2(0)
  EXPECT_EQ(sfu::mufuLg2(kSign), kNegInf);
  EXPECT_EQ(sfu::mufuLg2(0xBF800000u), kNaN);  // negative
  EXPECT_EQ(sfu::mufuLg2(kInf), kInf);
  EXPECT_EQ(sfu::mufuLg2(0x7F7FFFFFu), 0x42FFFFFFu);  // log2(FLT_MAX): 128 - 2^-36, truncated
  // lg2.approx.f32 keeps subnormals: x 2^24, MUFU.LG2, then FADD -24.
  EXPECT_EQ(sfu::lg2ApproxF32(kMinSub, false), 0xC3150000u);  // -149
  EXPECT_EQ(sfu::lg2ApproxF32(kMinSub, true), kNegInf);
  EXPECT_EQ(sfu::lg2ApproxF32(kSign | kMinSub, false), kNaN);
}

// MUFU.SIN/COS of t in turns (after ptxas's FMUL.RZ by 1/(2 pi)): |t|'s fraction to 25 bits,
// the quadrant, one sin table over the quarter turn; values read off {sin,cos}_ftz_*.d2.xz.
TEST(Mufu, SinCosQuadrantsOfOneTable) {
  EXPECT_EQ(sfu::mufuSin(0x3F000000u), kSign);  // t = 1/2: quadrant 2, u = 0: -0
  EXPECT_EQ(sfu::mufuSin(0x3EFFFFFFu), 0u);     // quadrant 1, u = ~r = 0: +0
  EXPECT_EQ(sfu::mufuSin(0x3E800000u), kOne);   // sin(pi/2) = 1
  EXPECT_EQ(sfu::mufuCos(0u), kOne);            // cos(0) = 1
  EXPECT_EQ(sfu::mufuCos(0x3E800000u), kSign);  // cos(pi/2) = -0 (quadrant 2, u = 0)
  EXPECT_EQ(sfu::mufuSin(kSign), kSign);        // sin(-0) = -0
  EXPECT_EQ(sfu::mufuSin(kInf), kNaN);
  EXPECT_EQ(sfu::mufuCos(kNegInf), kNaN);
  EXPECT_EQ(sfu::mufuSin(0x4B000001u), 0u);  // an integer number of turns
  EXPECT_EQ(sfu::mufuCos(0x4B000001u), kOne);
  EXPECT_EQ(sfu::sinApproxF32(kOne, false), 0x3F576AA3u);         // sin(1) on the chip
  EXPECT_EQ(sfu::cosApproxF32(kOne, false), 0x3F0A5141u);         // cos(1) on the chip
  EXPECT_EQ(sfu::sinApproxF32(kSign | kOne, true), 0xBF576AA3u);  // odd
  EXPECT_EQ(sfu::cosApproxF32(kSign | kOne, true), 0x3F0A5141u);  // even
  EXPECT_EQ(sfu::sinApproxF32(0x40490FDBu, false),
            0u);  // pi in f32: t just below 1/2 (toward zero): +0
  EXPECT_EQ(sfu::sinApproxF32(0x00800000u, false), 0u);  // t flushed: sin(FLT_MIN) = +0
}

// Every committed sample of the exact forms (binade and random inputs, measured on the H200),
// through the simulator's instruction handlers.
TEST(Mufu, EveryRecordedSampleOfTheExactFormsAgrees) {
  auto sim = makeSimulator();
  for (const char* name :
       {"rcp.approx.f32",     "rcp.approx.ftz.f32",   "rsqrt.approx.f32",   "rsqrt.approx.ftz.f32",
        "sqrt.approx.f32",    "sqrt.approx.ftz.f32",  "ex2.approx.f32",     "ex2.approx.ftz.f32",
        "div.approx.f32",     "div.approx.ftz.f32",   "div.full.f32",       "div.full.ftz.f32",
        "rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64", "rsqrt.approx.f64",   "lg2.approx.f32",
        "lg2.approx.ftz.f32", "sin.approx.f32",       "sin.approx.ftz.f32", "cos.approx.f32",
        "cos.approx.ftz.f32", "tanh.approx.f32",      "tanh.approx.f16",    "tanh.approx.bf16"}) {
    const Sample s = readSample((fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" / "approx" /
                                 (std::string(name) + ".sample"))
                                    .string());
    const Function& f = *findFunction(name);
    const InputSet set{"sample", s.a, s.b};
    const Agreement a = compare(f, set, s.gpu, evaluate(*sim, f, set));
    EXPECT_EQ(a.exact, s.a.size()) << name << ": worst input " << std::hex << a.worstInput;
  }
}

// Three chunks of 2^24 inputs of each exact form against the H200's hashes: subnormal and tiny
// operands (0x00 / 0x80), the binades around 1, huge operands (0x7E, 0xFE); the div forms'
// chunks are pseudo-random pairs. The whole 2^32: `warpsim fastmath-verify --form F`.
TEST(FastmathHashes, MufuFormsMatchTheChipOnSampledChunks) {
  const RecordedHashes r = readRecordedHashes(fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" /
                                              "fastmath" / "chunk_hashes.txt");
  for (const RecordedForm& rf : r.forms) {
    const std::string& name = rf.name;
    const bool exact = name.starts_with("rcp.") || name.starts_with("rsqrt.") ||
                       name.starts_with("sqrt.") || name.starts_with("div.") ||
                       (name.starts_with("ex2.") && name.ends_with(".f32"));
    if (!exact) continue;  // the table-fitted forms of 2026-12-05: the next test
    const sfu::Form& form = *sfu::findForm(name);
    for (uint32_t chunk : {0x00u, 0x3Fu, 0xBFu, 0x7Eu}) {
      EXPECT_EQ(modelChunkHash(form, 24, chunk), rf.chunks[chunk]) << name << " chunk " << chunk;
    }
  }
}

// The forms made exact from the dense binades of 2026-12-05 (lg2, sin, cos, tanh), two chunks
// each: for lg2 subnormal/tiny operands (non-.ftz scaling, FADD -24) and [0.5, 2); for sin/cos
// [0.5, 2) (quadrants 0-1) and the negative [2, 8) (2-3, odd/even); for tanh the small binades
// (one to four segments, results one binade lower) and the negative [2, 8).
TEST(FastmathHashes, Lg2SinCosTanhMatchTheChipOnSampledChunks) {
  struct Case {
    const char* form;
    uint32_t chunks[2];
  };
  const RecordedHashes r = readRecordedHashes(fs::path(WARPSIM_SOURCE_DIR) / "tests" / "recorded" /
                                              "fastmath" / "chunk_hashes.txt");
  for (const Case& c :
       {Case{"lg2.approx.f32", {0x00, 0x3F}}, Case{"lg2.approx.ftz.f32", {0x3F, 0x7E}},
        Case{"sin.approx.f32", {0x3F, 0xC0}}, Case{"sin.approx.ftz.f32", {0x40, 0xBF}},
        Case{"cos.approx.f32", {0x3F, 0xC0}}, Case{"cos.approx.ftz.f32", {0x40, 0xBF}},
        Case{"tanh.approx.f32", {0x3C, 0xC0}}}) {
    const auto rf = std::find_if(r.forms.begin(), r.forms.end(),
                                 [&](const RecordedForm& f) { return f.name == c.form; });
    ASSERT_NE(rf, r.forms.end()) << c.form;
    for (uint32_t chunk : c.chunks)
      EXPECT_EQ(modelChunkHash(*sfu::findForm(c.form), 24, chunk), rf->chunks[chunk])
          << c.form << " chunk " << chunk;
  }
}

}  // namespace
}  // namespace warpsim::harness::approx
