// The MUFU models (isa/sfu/mufu.h) that make the rcp, rsqrt, sqrt, ex2 and div forms the H200's:
// special values, the interpolation's edges, values read off the chip's dense binades and
// samples, every committed sample of the exact forms through the instruction handlers, and a
// sample of the recorded chunk hashes (all 2^32 inputs: `warpsim fastmath-verify`).
#include <gtest/gtest.h>

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

// MUFU.TANH's one measured binade: [1, 2) from the table, the 3 low mantissa bits ignored;
// values read off tests/recorded/fastmath/tanh_1_2.d2.xz.
TEST(Mufu, TanhOnOneToTwoIsTheChipsTable) {
  EXPECT_EQ(sfu::tanhApproxF32(0x3F800000u, false), 0x3F42F848u);
  EXPECT_EQ(sfu::tanhApproxF32(0x3F800007u, false), 0x3F42F848u);  // low bits ignored
  EXPECT_EQ(sfu::tanhApproxF32(0x3F800008u, false), 0x3F42F84Eu);
  EXPECT_EQ(sfu::tanhApproxF32(0x3F81E240u, false), 0x3F44882Fu);
  EXPECT_EQ(sfu::tanhApproxF32(0x3FFFFFFFu, false), 0x3F76CA58u);
  EXPECT_EQ(sfu::tanhApproxF32(0xBFFFFFFFu, false), 0xBF76CA58u);  // odd
}

// Every committed sample of the exact forms (binade and random inputs, measured on the H200),
// through the simulator's instruction handlers.
TEST(Mufu, EveryRecordedSampleOfTheExactFormsAgrees) {
  auto sim = makeSimulator();
  for (const char* name :
       {"rcp.approx.f32", "rcp.approx.ftz.f32", "rsqrt.approx.f32", "rsqrt.approx.ftz.f32",
        "sqrt.approx.f32", "sqrt.approx.ftz.f32", "ex2.approx.f32", "ex2.approx.ftz.f32",
        "div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32",
        "rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64", "rsqrt.approx.f64"}) {
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
    if (!exact) continue;
    const sfu::Form& form = *sfu::findForm(name);
    for (uint32_t chunk : {0x00u, 0x3Fu, 0xBFu, 0x7Eu}) {
      EXPECT_EQ(modelChunkHash(form, 24, chunk), rf.chunks[chunk]) << name << " chunk " << chunk;
    }
  }
}

}  // namespace
}  // namespace warpsim::harness::approx
