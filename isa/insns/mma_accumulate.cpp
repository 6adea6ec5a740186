#include "isa/insns/mma_accumulate.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>

#include "isa/insns/matrix_elements.h"

#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace warpsim::isa::insns {
namespace {

// Calls f.template operator()<N>() with N = n where the vectorized paths are compiled for it (8,
// 16 or 32 elements), else with N = 0 (n read at run time).
template <class F>
decltype(auto) withTripCount(unsigned n, F&& f) {
  switch (n) {
    case 8:
      return f.template operator()<8>();
    case 16:
      return f.template operator()<16>();
    case 32:
      return f.template operator()<32>();
    default:
      return f.template operator()<0>();
  }
}

}  // namespace

namespace {

[[gnu::always_inline]] inline double widen(uint64_t bits, fp::Format f) {
  return f.manBits == 23 ? double(fp::f32(uint32_t(bits))) : double(fp::f16ToF32(uint16_t(bits)));
}

// The exponent the tensor core aligns by: the exponent field's, subnormals at emin. The answers
// that count are those for nonzero finite elements of formats at most as wide as f32, normal
// doubles: their exponent is the biased field less the bias (std::ilogb's answer, without the
// library call).
int fieldExponent(double x, fp::Format f) {
  return std::max(int((fp::bits(x) >> 52) & 0x7FF) - 1023, f.emin());
}

// 2^e as a double, for |e| within the normal range (e in [-1022, 1023]).
double pow2(int e) { return fp::f64(uint64_t(e + 1023) << 52); }

// The smallest normal f32's magnitude as a double's bits: the final rounding's fast path is
// for sums at least this large.
constexpr uint64_t kF32NormalBits = 0x3810000000000000;  // 0x1p-126
constexpr uint64_t kMagnitude = ~(uint64_t(1) << 63);

// The f32 result of a sum (bits b of a double) whose magnitude is at least 2^-126 (step 3):
// RZ to f32 keeps the first 24 significant bits and truncating again the first f32ResultBits,
// so the double cut there holds an f32, which the conversion gives exactly (one instruction
// instead of taking the bits apart); at or beyond 2^128 it gives infinity, as the chip does (the
// host rounds to nearest).
[[gnu::always_inline]] inline uint64_t normalF32Result(uint64_t b, int f32ResultBits) {
  const uint64_t cut = b & ~((uint64_t(1) << (53 - f32ResultBits)) - 1);
  return fp::bits(float(fp::f64(cut)));
}

// The final rounding of a finite sum (see the header, step 3).
[[gnu::always_inline]] inline uint64_t roundResult(double s, fp::Format d, int f32ResultBits) {
  if (d.manBits != 23) return fp::convertBits(fp::kF64, d, fp::bits(s), fp::Round::RN);
  const uint64_t b = fp::bits(s);
  if ((b & kMagnitude) >= kF32NormalBits) return normalF32Result(b, f32ResultBits);
  // Zero and the subnormal range (which holds no fp8 sum's 14-bit grid).
  const uint64_t keep = ~((uint64_t(1) << (24 - f32ResultBits)) - 1);
  return fp::convertBits(fp::kF64, d, b, fp::Round::RZ) & keep;
}

constexpr uint64_t kExponentField = 0x7FFull << 52;

bool isSpecial(double x) { return (fp::bits(x) & kExponentField) == kExponentField; }

// Below this, the largest alignment exponent of a dot is a sum with kMmaZeroExponent: every
// term is zero (real exponents are above -300).
constexpr int32_t kNoNonzeroTerm = kMmaZeroExponent / 2;

// The largest alignment exponent of c and the k products, and the sum of the terms truncated
// to multiples of 2^q for q = emax - sumBits + 1 (step 2). The loops have a constant trip count
// for the forms' k (8, 16, 32), so that the compiler vectorizes them: a product and its scaling
// are exact, and every scaled term is below 2^(sumBits + 1) <= 2^27, so its truncation through
// an int32 is the int64 one (the sum of 33 of them needs the int64).
template <unsigned K>
int32_t largestExponent(const int32_t* ea, const int32_t* eb, unsigned k, int32_t emax) {
  const unsigned n = K ? K : k;
  for (unsigned i = 0; i < n; ++i) emax = std::max(emax, ea[i] + eb[i]);
  return emax;
}

template <unsigned K>
int64_t truncatedUnits(const double* a, const double* b, unsigned k, double down, int64_t units) {
  const unsigned n = K ? K : k;
  for (unsigned i = 0; i < n; ++i) units += int32_t(a[i] * b[i] * down);
  return units;
}

// truncatedUnits' sum of the products alone, in an int32, where it cannot overflow: each term
// is below 2^(sumBits + 1) in magnitude, so a sum of n of them fits when n * 2^(sumBits + 1) <=
// 2^31 (k 16 of the 26-bit adder, 32 of the fp8 one). The vectorized loop then adds 32-bit
// lanes without widening each term; C (below 2^sumBits) is added in an int64 afterwards.
template <unsigned K>
int32_t truncatedProducts(const double* a, const double* b, unsigned k, double down) {
  const unsigned n = K ? K : k;
  int32_t units = 0;
  for (unsigned i = 0; i < n; ++i) units += int32_t(a[i] * b[i] * down);
  return units;
}

bool productsFitInt32(unsigned n, const MmaAdder& adder) {
  return (uint64_t(n) << (adder.sumBits + 1)) <= (uint64_t(1) << 31);
}

// truncatedProducts over the f32 copies (MmaVector::narrow), `down` an f32: each product and
// its scaling are exact as they are in doubles (a product of two such elements has at most 24
// significant bits and lies in f32's normal range; scaled, it is below 2^27 and either exact or,
// underflowing, below 1 and truncated to 0 as its exact value is).
template <unsigned K>
int32_t truncatedProductsF32(const float* a, const float* b, unsigned k, float down) {
  const unsigned n = K ? K : k;
  int32_t units = 0;
  for (unsigned i = 0; i < n; ++i) units += int32_t(a[i] * b[i] * down);
  return units;
}

// The result of a dot whose C and products, truncated to multiples of 2^q, sum to units * 2^q
// (step 3).
[[gnu::always_inline]] inline uint64_t finishDot(int64_t units, int q, const MmaAdder& adder,
                                                 fp::Format dFormat) {
  const double sum = double(units) * pow2(q);
  if (dFormat.manBits == 23 && (fp::bits(sum) & kMagnitude) >= kF32NormalBits)
    return normalF32Result(fp::bits(sum), adder.f32ResultBits);  // never zero
  // A nonzero sum too small for the result format comes out +0, whatever its sign (fresh
  // tiny-mode cases of device_mma.sh 700 1121: the chip gave +0 where rounding gave -0).
  const uint64_t r = roundResult(sum, dFormat, adder.f32ResultBits);
  return (r & ~dFormat.signBit()) == 0 ? 0 : r;
}

template <unsigned K>
[[gnu::always_inline]] inline uint64_t dot(const MmaVector& a, const MmaVector& b, unsigned k,
                                           const MmaAdder& adder, double c, int32_t cExponent,
                                           fp::Format dFormat) {
  const int32_t emax = largestExponent<K>(a.exponents, b.exponents, k, cExponent);
  if (emax < kNoNonzeroTerm) {
    double sum = 0;  // all zero: IEEE signed-zero rules, in the order of the terms
    sum += c;
    for (unsigned i = 0; i < k; ++i) sum += a.values[i] * b.values[i];
    return roundResult(sum, dFormat, adder.f32ResultBits);
  }
  // Scaling by a power of two is exact here (the scaled terms stay normal doubles: the smallest
  // term is above 2^-300, |q| < 300), the conversion to an integer truncates toward zero, and a
  // zero sum is +0 as the sum of doubles starting at +0.
  const int q = emax - adder.sumBits + 1;
  const double down = pow2(-q);
  int64_t units;
  if (!productsFitInt32(K ? K : k, adder))
    units = truncatedUnits<K>(a.values, b.values, k, down, int32_t(c * down));
  else if (a.narrow && b.narrow && q >= -126 && q <= 126)  // 2^-q a normal f32
    units =
        int64_t(int32_t(c * down)) + truncatedProductsF32<K>(a.narrow, b.narrow, k, float(down));
  else
    units = int64_t(int32_t(c * down)) + truncatedProducts<K>(a.values, b.values, k, down);
  return finishDot(units, q, adder, dFormat);
}

}  // namespace

namespace {

// mmaExponents' loop, with a constant trip count for the forms' k so that it vectorizes: on the
// bits, the exponent field less the bias (at least emin), zero for a zero element's test.
template <unsigned N>
bool exponentsOf(const double* values, unsigned n, int32_t emin, int32_t* exponents) {
  const unsigned count = N ? N : n;
  uint64_t special = 0;
  for (unsigned i = 0; i < count; ++i) {
    const uint64_t b = fp::bits(values[i]);
    const int32_t field = int32_t((b >> 52) & 0x7FF);
    special |= uint64_t(field == 0x7FF);
    const int32_t e = std::max(field - 1023, emin);
    exponents[i] = (b << 1) != 0 ? e : kMmaZeroExponent;
  }
  return special != 0;
}

// mmaVector for a format whose values are normal f32s: the f32 copies and the exponents read
// off them (eight to a host vector instead of four off the doubles; an f16 subnormal is a
// normal f32 whose exponent is below emin, as the double's is), with the same trip counts.
template <unsigned N>
bool narrowExponentsOf(const double* values, unsigned n, int32_t emin, int32_t* exponents,
                       float* narrow) {
  const unsigned count = N ? N : n;
  for (unsigned i = 0; i < count; ++i) narrow[i] = float(values[i]);
  uint32_t special = 0;
  for (unsigned i = 0; i < count; ++i) {
    const uint32_t b = fp::bits(narrow[i]);
    const int32_t field = int32_t((b >> 23) & 0xFF);
    special |= uint32_t(field == 0xFF);
    const int32_t e = std::max(field - 127, emin);
    exponents[i] = (b << 1) != 0 ? e : kMmaZeroExponent;
  }
  return special != 0;
}

}  // namespace

bool mmaExponents(const double* values, unsigned n, fp::Format f, int32_t* exponents) {
  return withTripCount(
      n, [&]<unsigned N>() { return exponentsOf<N>(values, n, f.emin(), exponents); });
}

namespace {

// Products exact in f32 and normal there: at most 12 significant bits an element, and the
// smallest subnormal and the largest finite value at most 2^63 apart from 1 (f16: 2^-24, 2^16).
bool narrowProducts(fp::Format f) {
  return f.manBits <= 11 && f.emin() - f.manBits >= -63 && f.maxBiased() - 1 - f.bias() < 62;
}

// mmaVectors with the trip count N (0: n) a constant.
template <unsigned N>
void vectorsOf(const double* values, size_t stride, unsigned count, unsigned n, fp::Format f,
               int32_t* exponents, float* narrow, MmaVector* out) {
  const int32_t emin = f.emin();
  if (!narrowProducts(f)) {
    for (unsigned j = 0; j < count; ++j, values += stride, exponents += stride)
      out[j] = {values, exponents, exponentsOf<N>(values, n, emin, exponents)};
    return;
  }
  for (unsigned j = 0; j < count; ++j, values += stride, exponents += stride, narrow += stride)
    out[j] = {values, exponents, narrowExponentsOf<N>(values, n, emin, exponents, narrow), narrow};
}

}  // namespace

void mmaVectorsF16(const uint16_t* bits, unsigned count, unsigned n, double* values,
                   int32_t* exponents, float* narrow, MmaVector* out) {
  const size_t total = size_t(count) * n;
  size_t i = 0;
#if defined(__F16C__)
  for (; i + 8 <= total; i += 8) {
    const __m256 f = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + i)));
    _mm256_storeu_ps(narrow + i, f);
    _mm256_storeu_pd(values + i, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
    _mm256_storeu_pd(values + i + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
  }
#endif
  for (; i < total; ++i) {
    values[i] = f16Exact(bits[i]);
    narrow[i] = float(values[i]);
  }
  // The exponents off the copies, as mmaVectors reads them (narrowExponentsOf).
  auto each = [&]<unsigned N>() {
    for (unsigned j = 0; j < count; ++j) {
      const size_t at = size_t(j) * n;
      uint32_t special = 0;
      for (unsigned e = 0; e < N; ++e) {
        const uint32_t b = fp::bits(narrow[at + e]);
        const int32_t field = int32_t((b >> 23) & 0xFF);
        special |= uint32_t(field == 0xFF);
        const int32_t x = std::max(field - 127, fp::kF16.emin());
        exponents[at + e] = (b << 1) != 0 ? x : kMmaZeroExponent;
      }
      out[j] = {values + at, exponents + at, special != 0, narrow + at};
    }
  };
  if (n == 8 || n == 16 || n == 32) return withTripCount(n, each);
  for (unsigned j = 0; j < count; ++j)
    out[j] = {values + size_t(j) * n, exponents + size_t(j) * n,
              narrowExponentsOf<0>(values + size_t(j) * n, n, fp::kF16.emin(),
                                   exponents + size_t(j) * n, narrow + size_t(j) * n),
              narrow + size_t(j) * n};
}

MmaVector mmaVector(const double* values, unsigned n, fp::Format f, int32_t* exponents,
                    float* narrow) {
  MmaVector v;
  mmaVectors(values, n, 1, n, f, exponents, narrow, &v);
  return v;
}

void mmaVectors(const double* values, size_t stride, unsigned count, unsigned n, fp::Format f,
                int32_t* exponents, float* narrow, MmaVector* out) {
  withTripCount(
      n, [&]<unsigned N>() { vectorsOf<N>(values, stride, count, n, f, exponents, narrow, out); });
}

namespace {

// mmaDot with the trip count K (0: k) a constant, inlined where the formats are constants too.
template <unsigned K>
[[gnu::always_inline]] inline uint64_t dotOf(const MmaVector& a, const MmaVector& b, unsigned k,
                                             const MmaAdder& adder, uint64_t c, fp::Format cFormat,
                                             fp::Format dFormat) {
  const double cv = widen(c, cFormat);
  if (a.special || b.special || isSpecial(cv)) [[unlikely]] {
    // A finite product of narrow elements is finite, so a term is infinite or NaN exactly when
    // an element or C is: the sum of the exact terms is then the IEEE one.
    double s = 0;
    s += cv;
    for (unsigned i = 0; i < k; ++i) s += a.values[i] * b.values[i];
    return std::isnan(s) ? dFormat.canonicalNaN() : roundResult(s, dFormat, adder.f32ResultBits);
  }
  // C's alignment exponent; a zero tested on the bits (a comparison of doubles branches twice).
  const int32_t ce = (fp::bits(cv) << 1) != 0 ? fieldExponent(cv, cFormat) : 2 * kMmaZeroExponent;
  return dot<K>(a, b, k, adder, cv, ce, dFormat);
}

// Eight columns' values side by side, one host vector (AVX2: one register).
constexpr unsigned kGridLanes = 8;
using LanesI = int32_t __attribute__((vector_size(4 * kGridLanes)));
using LanesU = uint32_t __attribute__((vector_size(4 * kGridLanes)));
using LanesF = float __attribute__((vector_size(4 * kGridLanes)));
// The same read from where they may lie off a 32-byte boundary (a row of B at any offset).
using LanesIU = int32_t __attribute__((vector_size(4 * kGridLanes), aligned(4)));
using LanesFU = float __attribute__((vector_size(4 * kGridLanes), aligned(4)));
// Half of them as doubles (the sum's finish), and their int32s and floats.
using HalfD = double __attribute__((vector_size(8 * kGridLanes / 2)));
using HalfL = int64_t __attribute__((vector_size(8 * kGridLanes / 2)));
using HalfI = int32_t __attribute__((vector_size(4 * kGridLanes / 2)));
using HalfF = float __attribute__((vector_size(4 * kGridLanes / 2)));

// out[i][j] = cols[j][i] for i < K, j < 8: eight columns of K elements (4 bytes each) turned
// into K host vectors across them, an 8 x 8 block at a time in registers (three rounds of
// shuffles) where element by element took two loads and two stores each (a sixth of an
// m16n8k16's grid).
template <unsigned K, class T, class V>
[[gnu::always_inline]] inline void transposeColumns(const T* const* cols, V* out) {
  static_assert(sizeof(T) == 4 && sizeof(V) == 4 * kGridLanes && K % kGridLanes == 0);
#pragma GCC unroll 4
  for (unsigned i = 0; i < K; i += kGridLanes) {
    V r[kGridLanes];
#pragma GCC unroll 8
    for (unsigned j = 0; j < kGridLanes; ++j) std::memcpy(&r[j], cols[j] + i, sizeof(V));
    // Round 1: pairs of rows interleaved by element; 2: by pairs; 3: by halves.
    V a[kGridLanes], b[kGridLanes];
#pragma GCC unroll 8
    for (unsigned j = 0; j < kGridLanes; j += 2) {
      a[j] = __builtin_shufflevector(r[j], r[j + 1], 0, 8, 1, 9, 4, 12, 5, 13);
      a[j + 1] = __builtin_shufflevector(r[j], r[j + 1], 2, 10, 3, 11, 6, 14, 7, 15);
    }
#pragma GCC unroll 8
    for (unsigned j = 0; j < kGridLanes; j += 4)
#pragma GCC unroll 2
      for (unsigned h = 0; h < 2; ++h) {
        b[j + h] = __builtin_shufflevector(a[j + h], a[j + h + 2], 0, 1, 8, 9, 4, 5, 12, 13);
        b[j + h + 2] = __builtin_shufflevector(a[j + h], a[j + h + 2], 2, 3, 10, 11, 6, 7, 14, 15);
      }
    // b[j] for j = 0..3 holds, in its low half, element (0, 2, 1, 3)[j] of rows 0-3 and in its
    // high half element (4, 6, 5, 7)[j]; b[4..7] the same for rows 4-7.
    constexpr unsigned kLow[4] = {0, 2, 1, 3};
#pragma GCC unroll 4
    for (unsigned j = 0; j < 4; ++j) {
      out[i + kLow[j]] = __builtin_shufflevector(b[j], b[j + 4], 0, 1, 2, 3, 8, 9, 10, 11);
      out[i + kLow[j] + 4] = __builtin_shufflevector(b[j], b[j + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
  }
}

template <unsigned H>
HalfI half(LanesI v) {
  return __builtin_shufflevector(v, v, 4 * H, 4 * H + 1, 4 * H + 2, 4 * H + 3);
}

// finishDot for the lanes of an f32 D whose sum is at least 2^-126 (normalF32Result: the
// double cut, then converted), C's term int32(c * 2^-q) added to the products' in doubles
// (both below 2^31 in magnitude: exact, as their int64 sum is); `done` has bit j set for the
// lanes it wrote right (it writes all four).
template <unsigned H>
[[gnu::always_inline]] inline uint32_t finishNormalF32(const double* cd, LanesI q, LanesI units,
                                                       int f32ResultBits, uint64_t* out) {
  const HalfL q64 = __builtin_convertvector(half<H>(q), HalfL);
  const HalfD down = (HalfD)((1023 - q64) << 52), up = (HalfD)((1023 + q64) << 52);
  const HalfD c = {cd[4 * H], cd[4 * H + 1], cd[4 * H + 2], cd[4 * H + 3]};
  const HalfD cTerm = __builtin_convertvector(__builtin_convertvector(c * down, HalfI), HalfD);
  const HalfD sum = (cTerm + __builtin_convertvector(half<H>(units), HalfD)) * up;
  const HalfL bits = (HalfL)sum;
  const HalfL normal = (bits & int64_t(kMagnitude)) >= int64_t(kF32NormalBits);
  const HalfL cut = bits & ~((int64_t(1) << (53 - f32ResultBits)) - 1);
  const HalfI result = (HalfI) __builtin_convertvector((HalfD)cut, HalfF);
  uint32_t done = 0;
  for (unsigned j = 0; j < 4; ++j) {
    out[4 * H + j] = uint32_t(result[j]);
    done |= uint32_t(normal[j] & 1) << (4 * H + j);
  }
  return done;
}

// mmaGridDots with k and the formats constants. Eight columns at a time, with B's columns
// transposed once so that each k is one host vector across them: the largest exponent and the
// truncated products' sum are taken along k for the eight dots at once, where a dot alone ends
// each in a horizontal reduction (a third of its instructions). This is dot<K>'s f32 path (its
// conditions checked per dot: no special element or C, a nonzero term, 2^-q a normal f32, the
// sum of products inside an int32) with the same operations in the same order per column; a
// dot outside it, and the columns after the last eight, go through dotOf.
// Where gridOf reads B (a Columns): group(first) tells whether the eight columns from `first`
// take the vectorized path (each has its f32 copies and no infinite or NaN element) and, if so,
// points bt and et at their k-major f32 copies and exponents (K host vectors side by side);
// col(c) is column c's MmaVector, for the dots off that path.
//
// ColumnVectors: B as the MmaVectors of its columns, transposed a group at a time.
template <unsigned K>
struct ColumnVectors {
  explicit ColumnVectors(const MmaVector* columns) : cols(columns) {}
  const MmaVector* cols;
  LanesF bts[K ? K : 1];
  LanesI ets[K ? K : 1];
  const LanesFU* bt = bts;
  const LanesIU* et = ets;

  // Inlined into gridOf's loop over the groups, as the code was before it took a Columns.
  [[gnu::always_inline]] bool group(unsigned first) {
    const MmaVector* cv = cols + first;
    bool narrow = true;
    for (unsigned j = 0; j < kGridLanes; ++j) narrow &= cv[j].narrow && !cv[j].special;
    if (!narrow) return false;
    // The columns' pointers read once (a store to bts could alias them otherwise).
    const float* nb[kGridLanes];
    const int32_t* eb[kGridLanes];
    for (unsigned j = 0; j < kGridLanes; ++j) {
      nb[j] = cv[j].narrow;
      eb[j] = cv[j].exponents;
    }
    transposeColumns<K>(nb, bts);
    transposeColumns<K>(eb, ets);
    return true;
  }
  const MmaVector& col(unsigned c) { return cols[c]; }
};

template <unsigned K, bool kCF32, bool kDF32, class Columns>
void gridOf(const MmaVector* rows, unsigned m, Columns& B, unsigned n, unsigned k,
            const MmaAdder& adder, const uint64_t* C, uint64_t* D) {
  constexpr fp::Format cFormat = kCF32 ? fp::kF32 : fp::kF16, dFormat = kDF32 ? fp::kF32 : fp::kF16;
  const auto single = [&](unsigned r, unsigned c) {
    D[r * n + c] = dotOf<K>(rows[r], B.col(c), k, adder, C[r * n + c], cFormat, dFormat);
  };
  unsigned first = 0;  // of the columns left to dotOf
  if (K && productsFitInt32(K, adder)) {
    for (; first + kGridLanes <= n; first += kGridLanes) {
      if (!B.group(first)) {
        for (unsigned r = 0; r < m; ++r)
          for (unsigned j = 0; j < kGridLanes; ++j) single(r, first + j);
        continue;
      }
      const LanesFU* const bt = B.bt;
      const LanesIU* const et = B.et;
      for (unsigned r = 0; r < m; ++r) {
        const MmaVector& a = rows[r];
        if (!a.narrow || a.special) {
          for (unsigned j = 0; j < kGridLanes; ++j) single(r, first + j);
          continue;
        }
        const uint64_t* c = C + r * n + first;
        double cd[kGridLanes];
        LanesI emax;
        uint32_t dotOfLanes = 0;  // those that take dotOf
        if constexpr (kCF32) {
          // The same on the f32 bits, eight at once: the field less the bias is the double's
          // exponent for a normal C, a subnormal one (field 0) is at emin either way, and an
          // infinite or NaN C (field 0xFF) takes dotOf.
          LanesU b;
          for (unsigned j = 0; j < kGridLanes; ++j) b[j] = uint32_t(c[j]);
          const LanesI field = (LanesI)((b >> 23) & 0xFF), e = field - 127;
          const int32_t emin = cFormat.emin();
          emax = (b << 1) != 0 ? (e > emin ? e : emin) : 2 * kMmaZeroExponent;
          const LanesI special = field == 0xFF;
          for (unsigned j = 0; j < kGridLanes; ++j) {
            cd[j] = double(fp::f32(b[j]));
            dotOfLanes |= uint32_t(special[j] & 1) << j;
          }
        } else {
          for (unsigned j = 0; j < kGridLanes; ++j) {
            cd[j] = widen(c[j], cFormat);
            dotOfLanes |= uint32_t(isSpecial(cd[j])) << j;
            emax[j] =
                (fp::bits(cd[j]) << 1) != 0 ? fieldExponent(cd[j], cFormat) : 2 * kMmaZeroExponent;
          }
        }
#pragma GCC unroll 32
        for (unsigned i = 0; i < K; ++i) {
          const LanesI e = a.exponents[i] + et[i];
          emax = emax > e ? emax : e;
        }
        const LanesI q = emax - (adder.sumBits - 1);
        // Lanes off the f32 path compute garbage here (q clamped so that nothing traps) and
        // take dotOf below.
        const LanesI qc = q < -126 ? -126 : q > 126 ? 126 : q;
        const LanesF down = (LanesF)((127 - qc) << 23);  // 2^-q, exact
        LanesI units = {};
#pragma GCC unroll 32
        for (unsigned i = 0; i < K; ++i)
          units += __builtin_convertvector(a.narrow[i] * bt[i] * down, LanesI);
        // An all-zero dot (emax below kNoNonzeroTerm) has q far below -126: off the path too.
        const LanesI onPath = q == qc;
        for (unsigned j = 0; j < kGridLanes; ++j) dotOfLanes |= uint32_t(onPath[j] == 0) << j;
        uint64_t* d = D + r * n + first;
        uint32_t done = 0;
        if constexpr (kDF32) {
          done = finishNormalF32<0>(cd, qc, units, adder.f32ResultBits, d) |
                 finishNormalF32<1>(cd, qc, units, adder.f32ResultBits, d);
        }
        for (uint32_t rest = (dotOfLanes | ~done) & 0xFF; rest; rest &= rest - 1) {
          const unsigned j = unsigned(std::countr_zero(rest));
          if (dotOfLanes >> j & 1) {
            single(r, first + j);
            continue;
          }
          const int64_t sum = int64_t(int32_t(cd[j] * pow2(-q[j]))) + units[j];
          d[j] = finishDot(sum, q[j], adder, dFormat);
        }
      }
    }
  }
  for (unsigned r = 0; r < m; ++r)
    for (unsigned c = first; c < n; ++c) single(r, c);
}

template <unsigned K, class Columns>
void gridOf(const MmaVector* rows, unsigned m, Columns& B, unsigned n, unsigned k,
            const MmaAdder& adder, fp::Format cFormat, fp::Format dFormat, const uint64_t* C,
            uint64_t* D) {
  const bool cF32 = cFormat.manBits == 23, dF32 = dFormat.manBits == 23;
  if (cF32 && dF32) return gridOf<K, true, true>(rows, m, B, n, k, adder, C, D);
  if (!cF32 && !dF32) return gridOf<K, false, false>(rows, m, B, n, k, adder, C, D);
  if (cF32) return gridOf<K, true, false>(rows, m, B, n, k, adder, C, D);
  return gridOf<K, false, true>(rows, m, B, n, k, adder, C, D);
}

template <unsigned K>
void gridOf(const MmaVector* rows, unsigned m, const MmaVector* cols, unsigned n, unsigned k,
            const MmaAdder& adder, fp::Format cFormat, fp::Format dFormat, const uint64_t* C,
            uint64_t* D) {
  ColumnVectors<K> B(cols);
  gridOf<K>(rows, m, B, n, k, adder, cFormat, dFormat, C, D);
}

// The largest operands mmaGridDotsF16 takes (mma_accumulate.h): A m x k of at most kMaxF16A
// elements (wmma's m32n8k16), m at most 64; B k x n of at most kMaxF16B (wgmma's n256 k16),
// n at most kMaxF16Columns.
constexpr unsigned kMaxF16A = 512, kMaxF16Rows = 64, kMaxF16B = 4096, kMaxF16Columns = 256;

// A Columns for gridOf from B's k rows of f16 bits side by side (row-major): a group's k-major
// copies and exponents are its eight columns of each row, decoded straight into the group's
// own k host vectors (group g's at g * k), where ColumnVectors transposes B's columns back
// after the caller transposed them (two passes over B per instruction). The elements' f32 copies
// and exponents are mmaVectorsF16's (the same conversion and field arithmetic); the columns'
// MmaVectors, for the dots off the vectorized path (a group with an infinite or NaN element, a C or
// q off it), are built from the transposed bits by mmaVectorsF16 itself, the first time one is
// asked for.
template <unsigned K>
struct RowsF16 {
  const uint16_t* bits;
  unsigned n, k;
  const LanesFU* bt = nullptr;
  const LanesIU* et = nullptr;
  alignas(32) float narrow[kMaxF16B];
  alignas(32) int32_t exponents[kMaxF16B];
  bool specialGroup[kMaxF16Columns / kGridLanes];
  // The columns' vectors, allocated the first time a dot off the vectorized path needs one.
  struct ColumnsOfB {
    uint16_t bits[kMaxF16B];
    double values[kMaxF16B];
    int32_t exponents[kMaxF16B];
    float narrow[kMaxF16B];
    MmaVector cols[kMaxF16Columns];
  };
  std::unique_ptr<ColumnsOfB> columns;

  RowsF16(const uint16_t* b, unsigned columns, unsigned depth) : bits(b), n(columns), k(depth) {
    if (n % kGridLanes) return;  // every dot through col(): group() declines
    for (unsigned g = 0; g < n / kGridLanes; ++g) {
      LanesI special = {};
      for (unsigned i = 0; i < k; ++i) {
        const uint16_t* from = bits + i * n + g * kGridLanes;
        const unsigned at = (g * k + i) * kGridLanes;
        LanesF f;
#if defined(__F16C__)
        f = (LanesF)_mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from)));
#else
        for (unsigned j = 0; j < kGridLanes; ++j) f[j] = float(f16Exact(from[j]));
#endif
        std::memcpy(narrow + at, &f, sizeof f);
        // mmaVectorsF16's exponents: the field less the bias, at least emin; zero's apart.
        const LanesU u = (LanesU)f;
        const LanesI field = (LanesI)((u >> 23) & 0xFF), e = field - 127;
        const int32_t emin = fp::kF16.emin();
        const LanesI x = (u << 1) != 0 ? (e > emin ? e : emin) : kMmaZeroExponent;
        std::memcpy(exponents + at, &x, sizeof x);
        special |= field == 0xFF;
      }
      bool any = false;
      for (unsigned j = 0; j < kGridLanes; ++j) any |= special[j] != 0;
      specialGroup[g] = any;
    }
  }

  bool group(unsigned first) {
    if (n % kGridLanes || specialGroup[first / kGridLanes]) return false;
    bt = reinterpret_cast<const LanesFU*>(narrow + first * k);
    et = reinterpret_cast<const LanesIU*>(exponents + first * k);
    return true;
  }
  const MmaVector& col(unsigned c) {
    if (!columns) {
      columns = std::make_unique<ColumnsOfB>();
      ColumnsOfB& v = *columns;
      for (unsigned i = 0; i < k; ++i)
        for (unsigned j = 0; j < n; ++j) v.bits[j * k + i] = bits[i * n + j];
      mmaVectorsF16(v.bits, n, k, v.values, v.exponents, v.narrow, v.cols);
    }
    return columns->cols[c];
  }
};

template <unsigned K>
void gridOfF16(const MmaVector* rows, unsigned m, const uint16_t* bBits, unsigned n, unsigned k,
               const MmaAdder& adder, fp::Format cFormat, fp::Format dFormat, const uint64_t* C,
               uint64_t* D) {
  RowsF16<K> B(bBits, n, k);
  gridOf<K>(rows, m, B, n, k, adder, cFormat, dFormat, C, D);
}

}  // namespace

void mmaGridDotsF16(const uint16_t* aBits, unsigned m, const uint16_t* bBits, unsigned n,
                    unsigned k, const MmaAdder& adder, fp::Format cFormat, fp::Format dFormat,
                    const uint64_t* C, uint64_t* D) {
  double values[kMaxF16A];
  int32_t exponents[kMaxF16A];
  float narrow[kMaxF16A];
  MmaVector rows[kMaxF16Rows];
  mmaVectorsF16(aBits, m, k, values, exponents, narrow, rows);
  withTripCount(
      k, [&]<unsigned K>() { gridOfF16<K>(rows, m, bBits, n, k, adder, cFormat, dFormat, C, D); });
}

void mmaGridDots(const MmaVector* rows, unsigned m, const MmaVector* cols, unsigned n, unsigned k,
                 const MmaAdder& adder, fp::Format cFormat, fp::Format dFormat, const uint64_t* C,
                 uint64_t* D) {
  withTripCount(
      k, [&]<unsigned K>() { gridOf<K>(rows, m, cols, n, k, adder, cFormat, dFormat, C, D); });
}

uint64_t mmaDot(const MmaVector& a, const MmaVector& b, unsigned k, const MmaAdder& adder,
                uint64_t c, fp::Format cFormat, fp::Format dFormat) {
  return withTripCount(k,
                       [&]<unsigned K>() { return dotOf<K>(a, b, k, adder, c, cFormat, dFormat); });
}

uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format input, uint64_t c,
                fp::Format cFormat, fp::Format dFormat) {
  return mmaDot(a, b, k, input, input, kMmaAdder, c, cFormat, dFormat);
}

uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format aFormat,
                fp::Format bFormat, const MmaAdder& adder, uint64_t c, fp::Format cFormat,
                fp::Format dFormat) {
  int32_t ea[32], eb[32];
  float na[32], nb[32];
  const MmaVector va = mmaVector(a, k, aFormat, ea, na), vb = mmaVector(b, k, bFormat, eb, nb);
  return mmaDot(va, vb, k, adder, c, cFormat, dFormat);
}

}  // namespace warpsim::isa::insns
