// Tests of isa/insns/half_arith.cpp: add sub mul fma neg abs min max on .f16 .f16x2 .bf16
// .bf16x2, with .ftz .sat .relu .oob .NaN .xorsign.abs. The reference rounds exact values
// (held as double pairs) to the 16-bit formats with the compiler's _Float16 conversion and a
// bit-level bf16 rounding written here, both after a round-to-odd step so that they round once.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cmath>
#include <cstring>

#include "tests/isa/float_test_util.h"

namespace warpsim::test {
namespace {

constexpr uint16_t kNaN16 = 0x7FFF;
uint16_t h1(const std::string& op, uint32_t a) { return uint16_t(exec1(op, a)); }
uint16_t h2(const std::string& op, uint32_t a, uint32_t b) { return uint16_t(exec2(op, a, b)); }
uint16_t h3(const std::string& op, uint32_t a, uint32_t b, uint32_t c) {
  return uint16_t(exec3(op, a, b, c));
}

TEST(HalfArith, AddRoundsToNearestEven) {
  EXPECT_EQ(0x4000, h2("add.f16", 0x3C00, 0x3C00));
  EXPECT_EQ(0x3C00, h2("add.rn.f16", 0x3C00, 0x1000));  // 1 + 2^-11: a tie, to even
  EXPECT_EQ(0x3C01, h2("add.f16", 0x3C00, 0x1200));     // 1 + 0.75 ulp: up
  EXPECT_EQ(0x7C00, h2("add.f16", 0x7BFF, 0x7BFF));     // overflow
  EXPECT_EQ(kNaN16, h2("add.f16", 0x7C00, 0xFC00));
  EXPECT_EQ(kNaN16, h2("add.f16", 0x7E12, 0x3C00));
  EXPECT_EQ(0x0000, h2("sub.f16", 0x3C00, 0x3C00));
  EXPECT_EQ(0x8000, h2("add.f16", 0x8000, 0x8000));
  EXPECT_EQ(0x3F80, h2("add.rn.bf16", 0x3F80, 0x3B80));  // 1 + 2^-8: a tie, to even
  EXPECT_EQ(0x4000, h2("add.bf16", 0x3F80, 0x3F80));
  EXPECT_EQ(0x0001, h2("add.bf16", 0x0001, 0x0000));  // bf16 keeps subnormals
  EXPECT_EQ(0xBF80, h2("sub.bf16", 0x3F80, 0x4000));
}

TEST(HalfArith, MulFtzSat) {
  EXPECT_EQ(0x4600, h2("mul.f16", 0x4000, 0x4200));      // 2 * 3
  EXPECT_EQ(0x0200, h2("mul.f16", 0x0400, 0x3800));      // 2^-14 / 2: subnormal
  EXPECT_EQ(0x0000, h2("mul.ftz.f16", 0x0400, 0x3800));  // flushed
  EXPECT_EQ(0x8000, h2("mul.ftz.f16", 0x8400, 0x3800));
  EXPECT_EQ(0x0000, h2("add.ftz.f16", 0x0001, 0x0000));  // flushed input
  EXPECT_EQ(0x0001, h2("add.f16", 0x0001, 0x0000));
  EXPECT_EQ(0x3C00, h2("add.sat.f16", 0x3C00, 0x3C00));
  EXPECT_EQ(0x0000, h2("add.sat.f16", 0xBC00, 0x3800));
  EXPECT_EQ(0x0000, h2("mul.sat.f16", 0x7C00, 0x0000));  // NaN -> +0
  EXPECT_EQ(0x3800, h2("sub.sat.f16", 0x3C00, 0x3800));
  EXPECT_EQ(0x40C0, h2("mul.bf16", 0x4000, 0x4040));
  EXPECT_EQ(0x7FFF, h2("mul.rn.bf16", 0x0000, 0x7F80));
}

TEST(HalfArith, FmaFusedReluOob) {
  // (1 + 2^-10)(1 - 2^-10) - 1 = -2^-20, an f16 subnormal (0x8010); unfused it would be 0.
  EXPECT_EQ(0x8010, h3("fma.rn.f16", 0x3C01, 0x3BFE, 0xBC00));
  EXPECT_EQ(0x8000, h3("fma.rn.ftz.f16", 0x3C01, 0x3BFE, 0xBC00));
  EXPECT_EQ(0x3C00, h3("fma.rn.sat.f16", 0x4000, 0x4000, 0x0000));
  EXPECT_EQ(0x0000, h3("fma.rn.relu.f16", 0xBC00, 0x3C00, 0x0000));  // negative -> 0
  EXPECT_EQ(0x0000, h3("fma.rn.relu.f16", 0x8000, 0x3C00, 0x8000));  // -0 -> +0
  EXPECT_EQ(0x4000, h3("fma.rn.relu.f16", 0x3C00, 0x3C00, 0x3C00));
  EXPECT_EQ(kNaN16, h3("fma.rn.relu.f16", 0x7E01, 0x3C00, 0x0000));  // NaN -> canonical
  EXPECT_EQ(0x0000, h3("fma.rn.relu.bf16", 0xBF80, 0x3F80, 0x0000));
  EXPECT_EQ(0x3F81, h3("fma.rn.bf16", 0x3F81, 0x3F80, 0x0000));
  // .oob: the OOB-NaN is 0x7FF7 (either sign; measured on the H200): as a multiplicand it
  // forces +0, as the addend it is a NaN; other NaNs are NaNs.
  EXPECT_EQ(0x0000, h3("fma.rn.oob.f16", 0x7FF7, 0x3C00, 0x3C00));
  EXPECT_EQ(0x0000, h3("fma.rn.oob.f16", 0x3C00, 0xFFF7, 0x3C00));
  EXPECT_EQ(kNaN16, h3("fma.rn.oob.f16", 0x3C00, 0x3C00, 0x7FF7));
  EXPECT_EQ(kNaN16, h3("fma.rn.oob.f16", 0x7FFF, 0x3C00, 0x3C00));
  EXPECT_EQ(kNaN16, h3("fma.rn.f16", 0x7FF7, 0x3C00, 0x3C00));  // only with .oob
  EXPECT_EQ(0x0000, h3("fma.rn.oob.bf16", 0x7FF7, 0x3F80, 0x3F80));
  EXPECT_EQ(kNaN16, h3("fma.rn.oob.bf16", 0x7FC0, 0x3F80, 0x3F80));
  EXPECT_EQ(0x4000, h3("fma.rn.oob.relu.f16", 0x3C00, 0x3C00, 0x3C00));
  EXPECT_EQ(0x3C00, h3("fma.rn.oob.sat.f16", 0x4000, 0x3C00, 0x3C00));
  EXPECT_EQ(0x3C000000u, exec3("fma.rn.oob.f16x2", 0x3C007FF7, 0x3C003C00, 0x00003C00));
  // bf16 fma takes the directed roundings too (ptxas accepts them): 1 + 2^-8 * 1.5.
  EXPECT_EQ(0x3F81, h3("fma.rn.bf16", 0x3F80, 0x3F80, 0x3BC0));
  EXPECT_EQ(0x3F80, h3("fma.rz.bf16", 0x3F80, 0x3F80, 0x3BC0));
  EXPECT_EQ(0x3F81, h3("fma.rp.bf16", 0x3F80, 0x3F80, 0x3BC0));
  EXPECT_EQ(0xBF81, h3("fma.rm.bf16", 0xBF80, 0x3F80, 0xBBC0));
}

// Runs `op` (an x2 fma) on whole and partial warps over the triples (a, b, c) of 16-bit values,
// two to a lane, and checks each executing lane against `ref` on each half and each idle lane
// untouched. The generated triples: a, b near 1 and c a small correction (sums that land near
// midpoints), and any bits.
template <class Ref>
void checkPackedFmaOverWarps(const std::string& op, std::vector<std::array<uint16_t, 3>> all,
                             uint16_t one, Ref ref) {
  uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
  const uint16_t frac = one == 0x3C00 ? 0x3FF : 0x7F;
  while (all.size() < 64 * 400) {
    all.push_back({uint16_t(one | (next() >> 8 & frac)), uint16_t(one | (next() >> 8 & frac)),
                   uint16_t(next() >> 16 & (0x8000 | (one - 1)))});
    all.push_back({uint16_t(next() >> 16), uint16_t(next() >> 16), uint16_t(next() >> 16)});
  }
  for (const uint32_t mask : {~0u, 0x0000FFF0u, 0x80000001u, 0x00000100u}) {
    for (size_t base = 0; base + 64 <= all.size(); base += 64) {
      ExecHarness h(op, {R(1), R(2), R(3), R(4)});
      for (unsigned l = 0; l < 32; ++l) {
        const auto& lo = all[base + 2 * l];
        const auto& hi = all[base + 2 * l + 1];
        for (unsigned k = 0; k < 3; ++k) h.set(2 + k, l, lo[k] | uint32_t(hi[k]) << 16);
        h.set(1, l, 0xDEADBEEFDEADBEEFull);
      }
      h.run(mask);
      for (unsigned l = 0; l < 32; ++l) {
        const auto& lo = all[base + 2 * l];
        const auto& hi = all[base + 2 * l + 1];
        const uint64_t want =
            (mask >> l) & 1 ? ref(lo[0], lo[1], lo[2]) | uint32_t(ref(hi[0], hi[1], hi[2])) << 16
                            : 0xDEADBEEFDEADBEEFull;
        ASSERT_EQ(want, h.get(1, l)) << op << ", lane " << l << " of the cases from " << base;
      }
    }
  }
}

// fma.rn.f16x2 and fma.rn{.relu}.bf16x2 take the host's f32 fma and round its result to the
// 16-bit format: they must give fp's once-rounded halves, also where they hand a half back to
// fp: f32 results on a 16-bit midpoint that the exact value is not on (rounding twice would
// go the wrong way), overflow, NaN.
TEST(HalfArith, PackedFmaOverWarpsRoundsOnce) {
  // (1 + 3*2^-10)(1 + 171*2^-10) - 15*2^-24 = 1.17041021585...: f32 rounds it down onto the
  // midpoint 1.1704101562 of 0x3CAE and 0x3CAF; the exact value is above it.
  EXPECT_EQ(0x3CAF, h3("fma.rn.f16x2", 0x3C03, 0x3CAB, 0x800F));
  EXPECT_EQ(0x3CAF0000u, exec3("fma.rn.f16x2", 0x3C030000, 0x3CAC0000, 0x80410000));  // f32 above
  EXPECT_EQ(0x3CB1, h3("fma.rn.f16x2", 0x3C03, 0x3CAD, 0x806F));
  // (1 + 2^-7) * 1.5 - 2^-31: f32 drops the 2^-31 onto the midpoint of 0x3FC1 and 0x3FC2.
  EXPECT_EQ(0x3FC1, h3("fma.rn.bf16x2", 0x3F81, 0x3FC0, 0xB000));
  EXPECT_EQ(0x3FC1, h3("fma.rn.relu.bf16x2", 0x3F81, 0x3FC0, 0xB001));
  EXPECT_EQ(0x0000, h3("fma.rn.relu.bf16x2", 0xBF81, 0x3FC0, 0x3000));
  checkPackedFmaOverWarps("fma.rn.f16x2",
                          {
                              {0x3C03, 0x3CAB, 0x800F},  // the three traps above
                              {0x3C03, 0x3CAC, 0x8041},
                              {0x3C03, 0x3CAD, 0x806F},
                              {0x3C00, 0x3C00, 0x1000},  // 1 + 2^-11: an exact tie, to even
                              {0x3C01, 0x3C00, 0x1000},  // 1 + 2^-10 + 2^-11: to even
                              {0x3C01, 0x3BFE, 0xBC00},  // -2^-20: a subnormal f16
                              {0x7BFF, 0x3C00, 0x5000},  // 65504 + 32: overflow to infinity
                              {0x7BFF, 0x3C00, 0x4F00},  // 65504 + 28: stays 65504
                              {0x7C00, 0x0000, 0x3C00},  // inf * 0: NaN
                              {0x7E01, 0x3C00, 0x3C00},  // NaN in: canonical NaN
                              {0xFC00, 0x3C00, 0x3C00},  // -inf
                              {0x8000, 0x3C00, 0x8000},  // -0 * 1 + -0 = -0
                              {0x0001, 0x0001, 0x0000},  // 2^-48: +0
                              {0x8001, 0x0001, 0x0000},  // -2^-48: -0
                          },
                          0x3C00, [](uint16_t a, uint16_t b, uint16_t c) {
                            return fp::fmaF16(a, b, c, fp::Round::RN);
                          });
  const std::vector<std::array<uint16_t, 3>> bf = {
      {0x3F81, 0x3FC0, 0xB000},  // the trap above, and two more of its kind
      {0x3F81, 0x3FC0, 0xB001}, {0x3F81, 0x3FC0, 0xB002},
      {0x3F80, 0x3F80, 0x3B80},  // 1 + 2^-8: an exact tie, to even
      {0x0001, 0x3F00, 0x0000},  // the smallest subnormal halved: a tie, to +0
      {0x0003, 0x3F00, 0x0000},  // 1.5 subnormal ulps: a tie, to even (2 ulps)
      {0x7F7F, 0x3F80, 0x7B00},  // the largest finite plus a little: stays or overflows
      {0x7F7F, 0x3F80, 0x7C00},  // ... half an ulp: a tie at the top, to infinity
      {0x7F80, 0x0000, 0x3F80},  // inf * 0: NaN
      {0x7FC1, 0x3F80, 0x3F80},  // NaN in
      {0xFF80, 0x3F80, 0x3F80},  // -inf
      {0x8000, 0x3F80, 0x8000},  // -0
      {0xBF80, 0x3F80, 0x3F80},  // -1 + 1 = +0
  };
  checkPackedFmaOverWarps("fma.rn.bf16x2", bf, 0x3F80, [](uint16_t a, uint16_t b, uint16_t c) {
    return fp::fmaBF16(a, b, c, fp::Round::RN);
  });
  checkPackedFmaOverWarps("fma.rn.relu.bf16x2", bf, 0x3F80, [](uint16_t a, uint16_t b, uint16_t c) {
    return uint16_t(exec3("fma.rn.relu.bf16", a, b, c));
  });
}

TEST(HalfArith, PackedHalvesAreIndependent) {
  // (1, 2) + (1, 2) = (2, 4): element 0 in bits 0..15.
  EXPECT_EQ(0x44004000u, exec2("add.f16x2", 0x40003C00, 0x40003C00));
  EXPECT_EQ(0x7FFF4000u, exec2("add.f16x2", 0x7C003C00, 0xFC003C00));
  EXPECT_EQ(0x40803F80u, exec2("mul.bf16x2", 0x40003F80, 0x40003F80));
  EXPECT_EQ(0x00003C00u, exec3("fma.rn.relu.f16x2", 0xBC003C00, 0x3C003C00, 0x00000000));
  // high: sat(2 + 0) = 1; low: sat(2^-24 - 1) = +0.
  EXPECT_EQ(0x3C000000u, exec2("add.sat.f16x2", 0x40000001, 0x0000BC00));
  EXPECT_EQ(0x80003C00u, exec1("neg.f16x2", 0x0000BC00));
  EXPECT_EQ(0x3F800000u, exec1("abs.bf16x2", 0xBF808000));
  // The scalar forms read the low half only and write a 16-bit value.
  EXPECT_EQ(0x4000u, exec2("add.f16", 0xFFFF3C00, 0x12343C00));
}

TEST(HalfArith, NegAbs) {
  EXPECT_EQ(0xBC00, h1("neg.f16", 0x3C00));
  EXPECT_EQ(0x8000, h1("neg.f16", 0x0000));
  EXPECT_EQ(0x3C00, h1("abs.f16", 0xBC00));
  EXPECT_EQ(0x8001, h1("neg.f16", 0x0001));
  EXPECT_EQ(0x8000, h1("neg.ftz.f16", 0x0001));
  EXPECT_EQ(0x0000, h1("abs.ftz.f16", 0x83FF));
  EXPECT_EQ(kNaN16, h1("neg.f16", 0x7E01));
  EXPECT_EQ(kNaN16, h1("abs.f16", 0xFC01));
  EXPECT_EQ(0x3F80, h1("abs.bf16", 0xBF80));
  EXPECT_EQ(0x8001, h1("neg.bf16", 0x0001));
  EXPECT_EQ(kNaN16, h1("neg.bf16", 0xFFC1));
}

TEST(HalfArith, MinMax) {
  EXPECT_EQ(0x8000, h2("min.f16", 0x0000, 0x8000));  // -0 < +0
  EXPECT_EQ(0x0000, h2("max.f16", 0x8000, 0x0000));
  EXPECT_EQ(0x3C00, h2("min.f16", 0x7E00, 0x3C00));
  EXPECT_EQ(kNaN16, h2("min.f16", 0x7E00, 0xFE00));
  EXPECT_EQ(kNaN16, h2("min.NaN.f16", 0x7E00, 0x3C00));
  EXPECT_EQ(0x8000, h2("min.ftz.f16", 0x8001, 0x0001));
  EXPECT_EQ(0x8001, h2("min.f16", 0x8001, 0x0001));
  EXPECT_EQ(0xC000, h2("min.xorsign.abs.f16", 0xC000, 0x4200));  // |min| 2, signs differ
  EXPECT_EQ(0x4200, h2("max.xorsign.abs.f16", 0xC000, 0xC200));
  EXPECT_EQ(0xC200, h2("min.xorsign.abs.f16", 0xFE00, 0x4200));  // NaN sign still counts
  EXPECT_EQ(0x3F80, h2("max.bf16", 0x3F80, 0xBF80));
  EXPECT_EQ(kNaN16, h2("max.NaN.bf16", 0x3F80, 0x7FC1));
  EXPECT_EQ(0xC000u, exec2("min.xorsign.abs.bf16x2", 0xC000, 0x4040) & 0xFFFF);
  EXPECT_EQ(0x3C00BC00u, exec2("max.f16x2", 0x3C00BC00, 0xBC00BC00));
}

TEST(HalfArith, RejectsInvalidForms) {
  for (const char* op :
       {"add.rz.f16", "add.rm.bf16", "add.ftz.bf16", "add.sat.bf16x2", "add.relu.f16",
        "mul.oob.f16", "sub.rni.f16", "neg.ftz.bf16", "neg.rn.f16", "abs.sat.f16", "min.ftz.bf16",
        "min.xorsign.f16", "min.abs.f16", "max.rn.f16", "add.f16.f16"})
    EXPECT_FALSE(
        bindMessage(op, std::string(op).rfind("neg", 0) == 0 || std::string(op).rfind("abs", 0) == 0
                            ? 2
                            : 3)
            .empty())
        << op;
  for (const char* op : {"fma.rn.sat.relu.f16", "fma.rn.oob.ftz.f16", "fma.rm.f16", "fma.f16",
                         "fma.bf16x2", "fma.rn.ftz.bf16", "fma.rn.sat.bf16", "fma.rna.bf16"})
    EXPECT_FALSE(bindMessage(op, 4).empty()) << op;
  EXPECT_FALSE(bindMessage("fma.rn.f16", 3).empty());
}

TEST(HalfArith, AcceptsEveryListedForm) {
  for (const char* t : {"f16", "f16x2"})
    for (const char* m : {"", ".rn", ".ftz", ".sat", ".rn.ftz.sat"})
      for (const char* o : {"add", "sub", "mul"})
        EXPECT_EQ("", bindMessage(std::string(o) + m + "." + t, 3)) << o << m << t;
  for (const char* t : {"bf16", "bf16x2"})
    for (const char* o : {"add", "sub", "mul", "add.rn", "mul.rn"})
      EXPECT_EQ("", bindMessage(std::string(o) + "." + t, 3));
  for (const char* op :
       {"fma.rn.f16", "fma.rn.ftz.sat.f16x2", "fma.rn.ftz.relu.f16", "fma.rn.relu.bf16x2",
        "fma.rn.oob.f16", "fma.rn.oob.relu.bf16", "fma.rn.oob.relu.f16x2", "fma.rn.bf16"})
    EXPECT_EQ("", bindMessage(op, 4)) << op;
  for (const char* op : {"neg.ftz.f16", "abs.f16x2", "neg.bf16", "abs.bf16x2"})
    EXPECT_EQ("", bindMessage(op, 2)) << op;
  for (const char* op : {"min.ftz.NaN.xorsign.abs.f16", "max.NaN.f16x2", "min.NaN.xorsign.abs.bf16",
                         "max.xorsign.abs.bf16x2"})
    EXPECT_EQ("", bindMessage(op, 3)) << op;
}

TEST(HalfArith, EveryCombinationBindsOrExplains) { EXPECT_GT(sweepFamily("half_arith"), 100u); }

// ---- reference ---------------------------------------------------------------------------
double toDouble(uint16_t h, bool bf) {
  if (bf) return double(fp::f32(uint32_t(h) << 16));
  _Float16 f;
  std::memcpy(&f, &h, 2);
  return double(f);
}
bool isNaN16(uint16_t h, bool bf) { return bf ? fp::isNaNBF16(h) : fp::isNaN16(h); }

// Rounds the exact value s + e (|e| tiny against s) to the nearest 16-bit value, ties to even:
// first to odd in double (enough bits: 53 >= 11 + 2), then once to the format.
uint16_t roundHalf(double s, double e, bool bf) {
  if (e != 0 && (db(s) & 1) == 0) s = std::nextafter(s, e > 0 ? INFINITY : -INFINITY);
  if (bf) {  // double -> float to odd, then float -> bf16 to nearest even on the bits
    float f = float(s);
    if (std::fabs(double(f)) > std::fabs(s)) f = std::nextafter(f, 0.0f);
    uint32_t u = fp::bits(f);
    if (double(f) != s) u |= 1;
    if ((u & 0x7F800000) == 0x7F800000) return uint16_t(u >> 16);  // inf
    u += 0x7FFF + ((u >> 16) & 1);
    return uint16_t(u >> 16);
  }
  const _Float16 f = _Float16(s);
  uint16_t h;
  std::memcpy(&h, &f, 2);
  return h;
}

void twoSum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

uint16_t flush16(uint16_t h, bool bf) {
  const uint16_t exp = bf ? 0x7F80 : 0x7C00;
  return (h & exp) == 0 ? uint16_t(h & 0x8000) : h;
}

// op: 0 add, 1 sub, 2 mul, 3 fma. Flags as the instruction's.
uint16_t refArith(int op, uint16_t a, uint16_t b, uint16_t c, bool bf, bool ftz, bool sat,
                  bool relu) {
  if (ftz) a = flush16(a, bf), b = flush16(b, bf), c = flush16(c, bf);
  const double x = toDouble(a, bf), y = toDouble(b, bf), z = toDouble(c, bf);
  double s, e = 0;
  if (op == 0)
    twoSum(x, y, s, e);
  else if (op == 1)
    twoSum(x, -y, s, e);
  else if (op == 2)
    s = x * y;
  else
    twoSum(x * y, z, s, e);
  uint16_t r;
  if (std::isnan(s)) {
    r = kNaN16;
  } else if (std::isinf(s) || !std::isfinite(x) || !std::isfinite(y) ||
             (op == 3 && !std::isfinite(z))) {
    r = roundHalf(s, 0, bf);
  } else if (s == 0 && e == 0) {  // exact zero: the sign of an IEEE sum
    const double p = op == 0 ? x : op == 1 ? x : x * y, q = op == 0 ? y : op == 1 ? -y : z;
    if (op == 2)
      r = roundHalf(s, 0, bf);
    else
      r = (p == 0 && q == 0 && std::signbit(p) && std::signbit(q)) ? 0x8000 : 0x0000;
  } else {
    r = roundHalf(s, e, bf);
    // .ftz: tiny after rounding (to 11 bits, unbounded exponent: below 2^-14 unless the value
    // reaches the midpoint 2^-14 - 2^-26, which rounds up to the even 2^-14).
    if (ftz &&
        sgn((std::fabs(s) - (std::ldexp(1.0, -14) - std::ldexp(1.0, -26))) + (s < 0 ? -e : e)) < 0)
      r = std::signbit(s) ? 0x8000 : 0x0000;
  }
  if (sat) {
    if (isNaN16(r, bf) || (r & 0x8000))
      r = 0;
    else if (toDouble(r, bf) > 1)
      r = bf ? 0x3F80 : 0x3C00;
  }
  if (relu) {
    if (isNaN16(r, bf))
      r = kNaN16;
    else if (r & 0x8000)
      r = 0;
  }
  return r;
}

RC_GTEST_PROP(HalfArithProps, ArithmeticMatchesReference, ()) {
  const uint16_t a = *genH16(), b = *genH16(), c = *genH16();
  for (bool bf : {false, true}) {
    const std::string t = bf ? ".bf16" : ".f16";
    for (unsigned f = 0; f < (bf ? 1u : 4u); ++f) {
      const bool ftz = f & 1, sat = f & 2;
      const std::string m = std::string(ftz ? ".ftz" : "") + (sat ? ".sat" : "");
      RC_ASSERT(refArith(0, a, b, 0, bf, ftz, sat, false) == h2("add" + m + t, a, b));
      RC_ASSERT(refArith(1, a, b, 0, bf, ftz, sat, false) == h2("sub" + m + t, a, b));
      RC_ASSERT(refArith(2, a, b, 0, bf, ftz, sat, false) == h2("mul.rn" + m + t, a, b));
      RC_ASSERT(refArith(3, a, b, c, bf, ftz, sat, false) == h3("fma.rn" + m + t, a, b, c));
    }
    RC_ASSERT(refArith(3, a, b, c, bf, false, false, true) == h3("fma.rn.relu" + t, a, b, c));
  }
  RC_ASSERT(refArith(3, a, b, c, false, true, false, true) == h3("fma.rn.ftz.relu.f16", a, b, c));
}

RC_GTEST_PROP(HalfArithProps, PackedIsScalarOnEachHalf, ()) {
  const uint16_t a0 = *genH16(), a1 = *genH16(), b0 = *genH16(), b1 = *genH16();
  const uint16_t c0 = *genH16(), c1 = *genH16();
  const uint32_t a = a0 | (uint32_t(a1) << 16), b = b0 | (uint32_t(b1) << 16),
                 c = c0 | (uint32_t(c1) << 16);
  for (const char* op : {"add.ftz.sat", "sub", "mul.ftz", "min.NaN", "max.xorsign.abs"}) {
    const std::string s = std::string(op) + ".f16";
    RC_ASSERT(exec2(s + "x2", a, b) == (exec2(s, a0, b0) | (exec2(s, a1, b1) << 16)));
  }
  for (const char* op : {"add", "mul.rn", "min", "max.NaN.xorsign.abs"}) {
    const std::string s = std::string(op) + ".bf16";
    RC_ASSERT(exec2(s + "x2", a, b) == (exec2(s, a0, b0) | (exec2(s, a1, b1) << 16)));
  }
  RC_ASSERT(
      exec3("fma.rn.relu.bf16x2", a, b, c) ==
      (exec3("fma.rn.relu.bf16", a0, b0, c0) | (exec3("fma.rn.relu.bf16", a1, b1, c1) << 16)));
  RC_ASSERT(exec1("neg.ftz.f16x2", a) ==
            (exec1("neg.ftz.f16", a0) | (exec1("neg.ftz.f16", a1) << 16)));
}

uint16_t refMinMax(bool isMax, uint16_t a, uint16_t b, bool bf, bool ftz, bool nan, bool xa) {
  if (ftz) a = flush16(a, bf), b = flush16(b, bf);
  const uint16_t xs = (a ^ b) & 0x8000;
  if (xa) a &= 0x7FFF, b &= 0x7FFF;
  const double x = toDouble(a, bf), y = toDouble(b, bf);
  uint16_t d;
  if (std::isnan(x) && std::isnan(y))
    d = kNaN16;
  else if (nan && (std::isnan(x) || std::isnan(y)))
    d = kNaN16;
  else if (std::isnan(x))
    d = b;
  else if (std::isnan(y))
    d = a;
  else if (x == y)
    d = (std::signbit(x) != isMax) ? a : b;
  else
    d = ((x < y) != isMax) ? a : b;
  if (xa && !isNaN16(d, bf)) d = uint16_t((d & 0x7FFF) | xs);
  return d;
}

RC_GTEST_PROP(HalfArithProps, MinMaxNegAbsMatchReference, ()) {
  const uint16_t a = *genH16(), b = *genH16();
  for (bool bf : {false, true})
    for (bool isMax : {false, true})
      for (unsigned f = 0; f < 8; ++f) {
        const bool ftz = (f & 1) && !bf, nan = f & 2, xa = f & 4;
        const std::string op = std::string(isMax ? "max" : "min") + (ftz ? ".ftz" : "") +
                               (nan ? ".NaN" : "") + (xa ? ".xorsign.abs" : "") +
                               (bf ? ".bf16" : ".f16");
        RC_ASSERT(refMinMax(isMax, a, b, bf, ftz, nan, xa) == h2(op, a, b));
      }
  for (bool bf : {false, true}) {
    const std::string t = bf ? ".bf16" : ".f16";
    const bool nan = isNaN16(a, bf);
    RC_ASSERT((nan ? kNaN16 : uint16_t(a ^ 0x8000)) == h1("neg" + t, a));
    RC_ASSERT((nan ? kNaN16 : uint16_t(a & 0x7FFF)) == h1("abs" + t, a));
  }
  RC_ASSERT((fp::isNaN16(a) ? kNaN16 : uint16_t(flush16(a, false) ^ 0x8000)) ==
            h1("neg.ftz.f16", a));
}

}  // namespace
}  // namespace warpsim::test
