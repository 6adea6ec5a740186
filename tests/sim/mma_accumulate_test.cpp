// mmaDot (isa/insns/mma_accumulate.cpp) computes the tensor core's summation with bit operations
// and integer sums for speed; this checks it bit for bit against the model written plainly with
// the math library (std::ilogb, std::ldexp, std::trunc: the form it had when it was fitted to the
// H200), over random inputs of every format mma, wmma and wgmma feed it: subnormals, zeros,
// infinities, NaNs, exponents clustered so that the alignment's truncation and cancellation
// matter, and the fp8 forms' narrower adder.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <random>
#include <vector>

#include "isa/fp.h"
#include "isa/insns/matrix_elements.h"
#include "isa/insns/mma_accumulate.h"

namespace warpsim {
namespace {

// The model as fitted (mma_accumulate.h), with the math library.
uint64_t referenceRound(double s, fp::Format d, int f32ResultBits) {
  if (d.manBits != 23) return fp::convertBits(fp::kF64, d, fp::bits(s), fp::Round::RN);
  if (std::fabs(s) >= 0x1p128) return (s < 0 ? d.signBit() : 0) | d.infBits();
  const uint64_t r = fp::convertBits(fp::kF64, d, fp::bits(s), fp::Round::RZ);
  return r & ~((uint64_t(1) << (24 - f32ResultBits)) - 1);
}

uint64_t referenceDot(const double* a, const double* b, unsigned k, fp::Format af, fp::Format bf,
                      const isa::insns::MmaAdder& adder, uint64_t c, fp::Format cf, fp::Format df) {
  auto fieldExponent = [](double x, fp::Format f) { return std::max(std::ilogb(x), f.emin()); };
  const unsigned n = k + 1;
  double terms[33];
  terms[0] = cf.manBits == 23 ? double(fp::f32(uint32_t(c))) : double(fp::f16ToF32(uint16_t(c)));
  bool special = !std::isfinite(terms[0]);
  for (unsigned i = 0; i < k; ++i) {
    terms[i + 1] = a[i] * b[i];
    special = special || !std::isfinite(terms[i + 1]);
  }
  if (special) {
    double s = 0;
    for (unsigned i = 0; i < n; ++i) s += terms[i];
    return std::isnan(s) ? df.canonicalNaN() : referenceRound(s, df, adder.f32ResultBits);
  }
  int emax = INT_MIN;
  if (terms[0] != 0) emax = fieldExponent(terms[0], cf);
  for (unsigned i = 0; i < k; ++i)
    if (terms[i + 1] != 0) emax = std::max(emax, fieldExponent(a[i], af) + fieldExponent(b[i], bf));
  double sum = 0;
  if (emax == INT_MIN) {
    for (unsigned i = 0; i < n; ++i) sum += terms[i];
    return referenceRound(sum, df, adder.f32ResultBits);
  }
  const int q = emax - adder.sumBits + 1;
  for (unsigned i = 0; i < n; ++i) sum += std::ldexp(std::trunc(std::ldexp(terms[i], -q)), q);
  const uint64_t r = referenceRound(sum, df, adder.f32ResultBits);
  return (r & ~df.signBit()) == 0 ? 0 : r;
}

// The value of raw bits of a format (IEEE layout: the all-ones exponent is inf or NaN).
double decode(fp::Format f, uint64_t raw) {
  const uint64_t frac = raw & f.fracMask();
  const int e = int((raw >> f.manBits) & uint64_t(f.maxBiased()));
  const bool neg = (raw >> (f.expBits + f.manBits)) & 1;
  double v;
  if (e == f.maxBiased())
    v = frac ? std::nan("") : INFINITY;
  else if (e == 0)
    v = std::ldexp(double(frac), f.emin() - f.manBits);
  else
    v = std::ldexp(double(frac | (1ull << f.manBits)), e - f.bias() - f.manBits);
  return neg ? -v : v;
}

// Raw bits whose exponent is usually near `center` (cancellation and truncation at the adder's
// width), sometimes anywhere (subnormals, zeros, infinities, NaNs).
uint64_t drawRaw(std::mt19937_64& rng, fp::Format f, int center) {
  const uint64_t r = rng();
  const uint64_t sign = (r >> 63) << (f.expBits + f.manBits), frac = (r >> 8) & f.fracMask();
  if ((r & 7) == 0) return (r >> 11) & (f.signBit() | f.infBits() | f.fracMask());
  if ((r & 7) == 1) return sign;  // a zero
  const int e = std::clamp(center + int((r >> 3) & 7) - 3, 0, f.maxBiased() - 1);
  return sign | uint64_t(e) << f.manBits | frac;
}

struct Case {
  fp::Format a, b;
  isa::insns::MmaAdder adder;
  unsigned k;
};

TEST(MmaAccumulate, BitOperationsGiveTheLibraryModelsBits) {
  const fp::Format kE4M3{4, 3}, kE5M2{5, 2};
  const Case cases[] = {
      {fp::kF16, fp::kF16, isa::insns::kMmaAdder, 16},
      {fp::kF16, fp::kF16, isa::insns::kMmaAdder, 8},
      {fp::kBF16, fp::kBF16, isa::insns::kMmaAdder, 16},
      {fp::kTF32, fp::kTF32, isa::insns::kMmaAdder, 8},
      {kE4M3, kE5M2, isa::insns::kFp8Adder, 32},
      {kE5M2, kE5M2, isa::insns::kFp8Adder, 32},
      // k outside 8, 16, 32: the loops without a constant trip count (mma_accumulate.cpp).
      {fp::kF16, fp::kF16, isa::insns::kMmaAdder, 12},
      {fp::kBF16, fp::kBF16, isa::insns::kMmaAdder, 4},
  };
  std::mt19937_64 rng(20261204);
  uint64_t checked = 0;
  for (const Case& cs : cases)
    for (fp::Format cf : {fp::kF32, fp::kF16})
      for (int iter = 0; iter < 20000; ++iter) {
        double a[32], b[32];
        // Each case clusters around one exponent of each format (low, middle or high).
        const int ca = int(rng() % uint64_t(cs.a.maxBiased())),
                  cb = int(rng() % uint64_t(cs.b.maxBiased()));
        for (unsigned i = 0; i < cs.k; ++i) {
          a[i] = decode(cs.a, drawRaw(rng, cs.a, ca));
          b[i] = decode(cs.b, drawRaw(rng, cs.b, cb));
        }
        const int cc = (iter & 1) ? int(rng() % uint64_t(cf.maxBiased())) : ca + cb - cs.a.bias();
        const uint64_t c = drawRaw(rng, cf, std::clamp(cc, 0, cf.maxBiased() - 1));
        const fp::Format df = (iter & 2) ? fp::kF16 : cf;
        const uint64_t want = referenceDot(a, b, cs.k, cs.a, cs.b, cs.adder, c, cf, df);
        const uint64_t got = isa::insns::mmaDot(a, b, cs.k, cs.a, cs.b, cs.adder, c, cf, df);
        ASSERT_EQ(got, want) << "k " << cs.k << " a format e" << cs.a.expBits << "m" << cs.a.manBits
                             << " c 0x" << std::hex << c << " iteration " << std::dec << iter;
        ++checked;
      }
  EXPECT_EQ(checked, 8u * 2u * 20000u);
}

TEST(MmaAccumulate, MmaGridDotsGiveEachCellsMmaDot) {
  // The grid (mmaGridDots: eight columns at a time in host vectors, the rest and the dots off
  // its path through the single dot) against mmaDot per cell, for every k the forms use (and
  // one without a constant trip count), every C/D format pair and grids of 8, 12, 16 and 3
  // columns. The grid's rows and columns carry their f32 copies where the format has them
  // (mmaVector: f16, fp8), the single dots' do not. Most vectors are finite (the vectorized
  // path); one in six keeps drawRaw's infinities and NaNs, one row in six is zeros, and C's
  // exponent ranges over its whole format (with a zero row, a q outside f32's range).
  const fp::Format kE4M3{4, 3};
  const Case cases[] = {{fp::kF16, fp::kF16, isa::insns::kMmaAdder, 16},
                        {fp::kF16, fp::kF16, isa::insns::kMmaAdder, 8},
                        {fp::kBF16, fp::kBF16, isa::insns::kMmaAdder, 16},
                        {fp::kTF32, fp::kTF32, isa::insns::kMmaAdder, 8},
                        {kE4M3, kE4M3, isa::insns::kFp8Adder, 32},
                        {fp::kF16, fp::kF16, isa::insns::kMmaAdder, 12}};
  std::mt19937_64 rng(20261205);
  const auto finiteRaw = [&](fp::Format f, int center, bool anything) {
    for (;;) {
      const uint64_t raw = drawRaw(rng, f, center);
      if (anything || ((raw >> f.manBits) & uint64_t(f.maxBiased())) != uint64_t(f.maxBiased()))
        return raw;
    }
  };
  unsigned checked = 0, cells = 0;
  for (const Case& cs : cases)
    for (fp::Format cf : {fp::kF32, fp::kF16})
      for (fp::Format df : {fp::kF32, fp::kF16})
        for (unsigned cols : {8u, 12u, 16u, 3u})
          for (int iter = 0; iter < 12; ++iter) {
            constexpr unsigned kRows = 6, kMaxCols = 16;
            double a[kRows][32], b[kMaxCols][32];
            int32_t ea[kRows][32], eb[kMaxCols][32];
            float na[kRows][32], nb[kMaxCols][32];
            isa::insns::MmaVector rowV[kRows], colV[kMaxCols];
            const int ca = int(rng() % uint64_t(cs.a.maxBiased()));
            for (unsigned r = 0; r < kRows; ++r) {
              // A row of zeros leaves C alone: a tiny one puts q below f32's range.
              const uint64_t mode = rng() % 6;
              for (unsigned i = 0; i < cs.k; ++i)
                a[r][i] = mode == 1 ? 0.0 : decode(cs.a, finiteRaw(cs.a, ca, mode == 0));
              rowV[r] = isa::insns::mmaVector(a[r], cs.k, cs.a, ea[r], na[r]);
            }
            for (unsigned c = 0; c < cols; ++c) {
              const bool anything = rng() % 6 == 0;
              for (unsigned i = 0; i < cs.k; ++i)
                b[c][i] = decode(cs.b, finiteRaw(cs.b, ca, anything));
              colV[c] = isa::insns::mmaVector(b[c], cs.k, cs.b, eb[c], nb[c]);
            }
            uint64_t C[kRows * kMaxCols], got[kRows * kMaxCols];
            for (unsigned e = 0; e < kRows * cols; ++e) {
              const int cc =
                  (e & 3) == 0 ? int(rng() % uint64_t(cf.maxBiased())) : 2 * ca - cs.a.bias();
              C[e] = finiteRaw(cf, std::clamp(cc, 0, cf.maxBiased() - 1), (e & 7) == 1);
            }
            isa::insns::mmaGridDots(rowV, kRows, colV, cols, cs.k, cs.adder, cf, df, C, got);
            for (unsigned r = 0; r < kRows; ++r)
              for (unsigned c = 0; c < cols; ++c) {
                isa::insns::MmaVector row = rowV[r], col = colV[c];
                EXPECT_EQ(row.narrow != nullptr, cs.a.expBits <= 5);  // f16, fp8: not bf16, tf32
                row.narrow = col.narrow = nullptr;
                const uint64_t want =
                    isa::insns::mmaDot(row, col, cs.k, cs.adder, C[r * cols + c], cf, df);
                ASSERT_EQ(got[r * cols + c], want)
                    << "k " << cs.k << " row " << r << " column " << c << " of " << cols
                    << " iteration " << iter << " c 0x" << std::hex << C[r * cols + c];
                ++checked;
              }
            ++cells;
          }
  EXPECT_EQ(checked, 6u * 4u * 12u * 6u * (8u + 12u + 16u + 3u));
  EXPECT_EQ(cells, 6u * 4u * 4u * 12u);
}

TEST(MmaAccumulate, MmaGridDotsF16ReadsBInItsRowsAsEachCellsMmaDot) {
  // The f16 grid that takes B as its k rows of bits (mmaGridDotsF16: each group of eight
  // columns decoded straight into k-major host vectors, the columns' vectors built only for the
  // dots off the vectorized path) against mmaDot per cell on vectors built from the values,
  // without f32 copies: wmma's shapes (n 16, 8, 32; k 16 and 8), wgmma's warp grids (16 rows,
  // n 64 and the widest, 256), n off a multiple of eight (every dot through the columns'
  // vectors) and a grid of eight groups of k 8. One column in five
  // may hold infinities and NaNs (its group leaves the vectorized path), one row in six is
  // zeros, one in five may hold infinities and NaNs, and C's exponent ranges over its format.
  struct Shape {
    unsigned m, n, k;
  };
  const Shape shapes[] = {{16, 16, 16}, {32, 8, 16}, {8, 32, 16},  {16, 16, 8},
                          {6, 12, 16},  {4, 64, 8},  {16, 64, 16}, {16, 256, 16}};
  std::mt19937_64 rng(20261207);
  const auto finiteRaw = [&](int center, bool anything) {
    for (;;) {
      const uint64_t raw = drawRaw(rng, fp::kF16, center);
      if (anything || ((raw >> 10) & 0x1F) != 0x1F) return uint16_t(raw);
    }
  };
  // An infinity or NaN put in at random in half of the vectors that may hold them.
  const uint16_t kSpecials[] = {0x7C00, 0xFC00, 0x7E00, 0x7C01};
  const auto maybeSpecial = [&](uint16_t* v, unsigned k, unsigned step) {
    if (rng() % 2) v[(rng() % k) * step] = kSpecials[rng() % 4];
  };
  unsigned checked = 0, offPath = 0;
  for (const Shape& sh : shapes)
    for (fp::Format cf : {fp::kF32, fp::kF16})
      for (fp::Format df : {fp::kF32, fp::kF16})
        for (int iter = 0; iter < 10; ++iter) {
          std::vector<uint16_t> a(sh.m * sh.k), b(sh.k * sh.n);
          const int ca = int(rng() % 31);
          for (unsigned r = 0; r < sh.m; ++r) {
            const uint64_t mode = rng() % 30;  // 0-4: any encoding; 5-9: zeros
            for (unsigned i = 0; i < sh.k; ++i)
              a[r * sh.k + i] = mode >= 5 && mode < 10 ? 0 : finiteRaw(ca, mode < 5);
            if (mode < 5) maybeSpecial(&a[r * sh.k], sh.k, 1);
          }
          for (unsigned c = 0; c < sh.n; ++c) {
            const bool anything = rng() % 5 == 0;
            for (unsigned i = 0; i < sh.k; ++i) b[i * sh.n + c] = finiteRaw(ca, anything);
            if (anything) maybeSpecial(&b[c], sh.k, sh.n);
          }
          std::vector<uint64_t> C(sh.m * sh.n), got(sh.m * sh.n);
          for (unsigned e = 0; e < sh.m * sh.n; ++e) {
            const int cc = (e & 3) == 0 ? int(rng() % uint64_t(cf.maxBiased()))
                                        : 2 * ca - fp::kF16.bias() + cf.bias();
            C[e] = drawRaw(rng, cf, std::clamp(cc, 0, cf.maxBiased() - 1));
            if ((e & 7) != 1)
              while (((C[e] >> cf.manBits) & uint64_t(cf.maxBiased())) == uint64_t(cf.maxBiased()))
                C[e] = drawRaw(rng, cf, std::clamp(cc, 0, cf.maxBiased() - 1));
          }
          isa::insns::mmaGridDotsF16(a.data(), sh.m, b.data(), sh.n, sh.k, isa::insns::kMmaAdder,
                                     cf, df, C.data(), got.data());
          for (unsigned r = 0; r < sh.m; ++r)
            for (unsigned c = 0; c < sh.n; ++c) {
              double av[16], bv[16];
              int32_t ae[16], be[16];
              float an[16], bn[16];
              for (unsigned i = 0; i < sh.k; ++i) {
                av[i] = isa::insns::f16Exact(a[r * sh.k + i]);
                bv[i] = isa::insns::f16Exact(b[i * sh.n + c]);
              }
              isa::insns::MmaVector row = isa::insns::mmaVector(av, sh.k, fp::kF16, ae, an),
                                    col = isa::insns::mmaVector(bv, sh.k, fp::kF16, be, bn);
              offPath += row.special || col.special;
              row.narrow = col.narrow = nullptr;
              const uint64_t want = isa::insns::mmaDot(row, col, sh.k, isa::insns::kMmaAdder,
                                                       C[r * sh.n + c], cf, df);
              ASSERT_EQ(got[r * sh.n + c], want)
                  << "m" << sh.m << "n" << sh.n << "k" << sh.k << " row " << r << " column " << c
                  << " iteration " << iter << " c 0x" << std::hex << C[r * sh.n + c];
              ++checked;
            }
        }
  EXPECT_EQ(checked, 4u * 10u * (256u + 256u + 256u + 256u + 72u + 256u + 1024u + 4096u));
  EXPECT_GT(offPath, checked / 20);  // the columns' vectors were built and read
}

TEST(MmaAccumulate, MmaVectorsExponentsAndCopiesAreEveryElementsOwn) {
  // mmaVector reads an f16 or fp8 vector's exponents off its f32 copies: for every encoding of
  // those formats (subnormals, zeros, infinities, NaNs: the IEEE layout of decode), the
  // exponents mmaExponents reads off the doubles, the same special flag, and copies equal to
  // the values.
  const fp::Format kE4M3{4, 3}, kE5M2{5, 2};
  for (fp::Format f : {fp::kF16, kE4M3, kE5M2}) {
    const uint32_t count = 1u << (1 + f.expBits + f.manBits);
    for (uint32_t first = 0; first < count; first += 16) {
      double values[16];
      for (uint32_t i = 0; i < 16; ++i) values[i] = decode(f, first + i);
      int32_t want[16], got[16];
      float copies[16];
      const bool special = isa::insns::mmaExponents(values, 16, f, want);
      const isa::insns::MmaVector v = isa::insns::mmaVector(values, 16, f, got, copies);
      ASSERT_EQ(v.narrow, copies);
      ASSERT_EQ(v.special, special) << std::hex << first;
      for (uint32_t i = 0; i < 16; ++i) {
        if (std::isnan(values[i])) {
          ASSERT_TRUE(std::isnan(copies[i]));
          continue;
        }
        ASSERT_EQ(double(copies[i]), values[i]);
        // An infinite element's exponent is never read (the dot takes its special path).
        if (std::isfinite(values[i])) {
          ASSERT_EQ(got[i], want[i])
              << "e" << f.expBits << "m" << f.manBits << std::hex << " 0x" << first + i;
        }
      }
    }
  }
}

TEST(MmaAccumulate, MmaVectorsAreEachVectorsMmaVector) {
  // The batched preparation (rows at a stride, k a constant or not) gives each vector what
  // mmaVector gives it alone: the same pointers, special flag, exponents and copies, for the
  // formats with f32 copies and those without, with a special element in some vectors only.
  const fp::Format kE4M3{4, 3};
  std::mt19937 rng(8);
  for (fp::Format f : {fp::kF16, fp::kBF16, fp::kTF32, kE4M3}) {
    const uint32_t encodings = 1u << (1 + f.expBits + f.manBits);
    for (unsigned n : {8u, 12u, 16u, 32u}) {
      constexpr unsigned kCount = 5, kStride = 40;
      double values[kCount * kStride];
      for (unsigned j = 0; j < kCount; ++j)
        for (unsigned i = 0; i < n; ++i) values[j * kStride + i] = decode(f, rng() % encodings);
      int32_t e[kCount * kStride], want[kStride];
      float copies[kCount * kStride], wantCopies[kStride];
      isa::insns::MmaVector got[kCount];
      isa::insns::mmaVectors(values, kStride, kCount, n, f, e, copies, got);
      for (unsigned j = 0; j < kCount; ++j) {
        const isa::insns::MmaVector v =
            isa::insns::mmaVector(values + j * kStride, n, f, want, wantCopies);
        ASSERT_EQ(got[j].values, values + j * kStride);
        ASSERT_EQ(got[j].exponents, e + j * kStride);
        ASSERT_EQ(got[j].special, v.special);
        ASSERT_EQ(got[j].narrow != nullptr, v.narrow != nullptr);
        if (got[j].narrow) {
          ASSERT_EQ(got[j].narrow, copies + j * kStride);
        }
        for (unsigned i = 0; i < n; ++i) {
          ASSERT_EQ(e[j * kStride + i], want[i]) << n << " " << j << " " << i;
          if (v.narrow && !std::isnan(wantCopies[i])) {
            ASSERT_EQ(fp::bits(copies[j * kStride + i]), fp::bits(wantCopies[i]));
          }
        }
      }
    }
  }
}

TEST(MmaAccumulate, MmaVectorsF16IsMmaVectorsOfEveryF16sValue) {
  // The f16 vectors decoded from their bits (F16C where the host has it, and the loop after
  // the last eight: three 12-element vectors end off a multiple of eight) against f16Exact's values
  // given to mmaVectors, every encoding: the same values and copies (a NaN for a NaN), the same
  // exponents for every finite element and the same special flag.
  for (unsigned n : {8u, 12u, 16u, 32u}) {
    constexpr unsigned count = 3;  // 36 elements for n = 12: a tail after the last eight
    std::vector<uint16_t> bits(count * n);
    std::vector<double> values(count * n), want(count * n);
    std::vector<int32_t> e(count * n), wantE(count * n);
    std::vector<float> copies(count * n), wantCopies(count * n);
    for (uint32_t first = 0; first < 0x10000; first += count * n) {
      for (unsigned i = 0; i < count * n; ++i) {
        bits[i] = uint16_t(first + i);
        want[i] = isa::insns::f16Exact(bits[i]);
      }
      isa::insns::MmaVector got[count], ref[count];
      isa::insns::mmaVectorsF16(bits.data(), count, n, values.data(), e.data(), copies.data(), got);
      isa::insns::mmaVectors(want.data(), n, count, n, fp::kF16, wantE.data(), wantCopies.data(),
                             ref);
      for (unsigned j = 0; j < count; ++j) {
        ASSERT_EQ(got[j].values, values.data() + j * n);
        ASSERT_EQ(got[j].exponents, e.data() + j * n);
        ASSERT_EQ(got[j].narrow, copies.data() + j * n);
        ASSERT_EQ(got[j].special, ref[j].special) << std::hex << first;
      }
      for (unsigned i = 0; i < count * n; ++i) {
        if (std::isnan(want[i])) {
          ASSERT_TRUE(std::isnan(values[i]) && std::isnan(copies[i]));
          continue;
        }
        ASSERT_EQ(fp::bits(values[i]), fp::bits(want[i])) << std::hex << bits[i];
        ASSERT_EQ(fp::bits(copies[i]), fp::bits(wantCopies[i])) << std::hex << bits[i];
        if (std::isfinite(want[i])) {
          ASSERT_EQ(e[i], wantE[i]) << std::hex << bits[i];
        }
      }
    }
  }
}

TEST(MatrixElements, F16ExactIsEveryF16sValue) {
  // The branch-free decoder of the fragments' f16 elements against fp::f16ToF32, every
  // encoding: the same value and sign (zeros, subnormals, infinities), and a NaN for each NaN
  // (its payload is never seen: mmaDot's NaN result is canonical).
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const double got = isa::insns::f16Exact(uint16_t(h));
    const double want = double(fp::f16ToF32(uint16_t(h)));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << h;
      continue;
    }
    ASSERT_EQ(fp::bits(got), fp::bits(want)) << std::hex << h;
  }
}

}  // namespace
}  // namespace warpsim
