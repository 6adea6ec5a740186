#include "isa/insns/mma_accumulate.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace warpsim::isa::insns {
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
  const double sum = double(units) * pow2(q);
  if (dFormat.manBits == 23 && (fp::bits(sum) & kMagnitude) >= kF32NormalBits)
    return normalF32Result(fp::bits(sum), adder.f32ResultBits);  // never zero
  // A nonzero sum too small for the result format comes out +0, whatever its sign (fresh
  // tiny-mode cases of device_mma.sh 700 1121: the chip gave +0 where rounding gave -0).
  const uint64_t r = roundResult(sum, dFormat, adder.f32ResultBits);
  return (r & ~dFormat.signBit()) == 0 ? 0 : r;
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
  switch (n) {
    case 8:
      return exponentsOf<8>(values, n, f.emin(), exponents);
    case 16:
      return exponentsOf<16>(values, n, f.emin(), exponents);
    case 32:
      return exponentsOf<32>(values, n, f.emin(), exponents);
    default:
      return exponentsOf<0>(values, n, f.emin(), exponents);
  }
}

MmaVector mmaVector(const double* values, unsigned n, fp::Format f, int32_t* exponents,
                    float* narrow) {
  // Products exact in f32 and normal there: at most 12 significant bits an element, and the
  // smallest subnormal and the largest finite value at most 2^63 apart from 1 (f16: 2^-24, 2^16).
  const bool fits =
      f.manBits <= 11 && f.emin() - f.manBits >= -63 && f.maxBiased() - 1 - f.bias() < 62;
  if (!fits) return {values, exponents, mmaExponents(values, n, f, exponents)};
  bool special;
  switch (n) {
    case 8:
      special = narrowExponentsOf<8>(values, n, f.emin(), exponents, narrow);
      break;
    case 16:
      special = narrowExponentsOf<16>(values, n, f.emin(), exponents, narrow);
      break;
    case 32:
      special = narrowExponentsOf<32>(values, n, f.emin(), exponents, narrow);
      break;
    default:
      special = narrowExponentsOf<0>(values, n, f.emin(), exponents, narrow);
  }
  return {values, exponents, special, narrow};
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

// The jobs of mmaDots with k and the formats constants, and the adder too where it is the one
// the forms of this k use (its widths fold into the shifts and masks).
template <unsigned K, bool kCF32, bool kDF32>
void dotsOf(const MmaDotJob* jobs, unsigned n, unsigned k, const MmaAdder& adder, uint64_t* out) {
  constexpr fp::Format cFormat = kCF32 ? fp::kF32 : fp::kF16, dFormat = kDF32 ? fp::kF32 : fp::kF16;
  constexpr MmaAdder kUsual = K == 32 ? kFp8Adder : kMmaAdder;
  if (K && adder.sumBits == kUsual.sumBits && adder.f32ResultBits == kUsual.f32ResultBits) {
    for (unsigned j = 0; j < n; ++j)
      out[j] = dotOf<K>(*jobs[j].a, *jobs[j].b, k, kUsual, jobs[j].c, cFormat, dFormat);
    return;
  }
  for (unsigned j = 0; j < n; ++j)
    out[j] = dotOf<K>(*jobs[j].a, *jobs[j].b, k, adder, jobs[j].c, cFormat, dFormat);
}

template <unsigned K>
void dotsOf(const MmaDotJob* jobs, unsigned n, unsigned k, const MmaAdder& adder,
            fp::Format cFormat, fp::Format dFormat, uint64_t* out) {
  const bool cF32 = cFormat.manBits == 23, dF32 = dFormat.manBits == 23;
  if (cF32 && dF32) return dotsOf<K, true, true>(jobs, n, k, adder, out);
  if (!cF32 && !dF32) return dotsOf<K, false, false>(jobs, n, k, adder, out);
  if (cF32) return dotsOf<K, true, false>(jobs, n, k, adder, out);
  return dotsOf<K, false, true>(jobs, n, k, adder, out);
}

}  // namespace

uint64_t mmaDot(const MmaVector& a, const MmaVector& b, unsigned k, const MmaAdder& adder,
                uint64_t c, fp::Format cFormat, fp::Format dFormat) {
  switch (k) {
    case 8:
      return dotOf<8>(a, b, k, adder, c, cFormat, dFormat);
    case 16:
      return dotOf<16>(a, b, k, adder, c, cFormat, dFormat);
    case 32:
      return dotOf<32>(a, b, k, adder, c, cFormat, dFormat);
    default:
      return dotOf<0>(a, b, k, adder, c, cFormat, dFormat);
  }
}

void mmaDots(const MmaDotJob* jobs, unsigned n, unsigned k, const MmaAdder& adder,
             fp::Format cFormat, fp::Format dFormat, uint64_t* out) {
  switch (k) {
    case 8:
      return dotsOf<8>(jobs, n, k, adder, cFormat, dFormat, out);
    case 16:
      return dotsOf<16>(jobs, n, k, adder, cFormat, dFormat, out);
    case 32:
      return dotsOf<32>(jobs, n, k, adder, cFormat, dFormat, out);
    default:
      return dotsOf<0>(jobs, n, k, adder, cFormat, dFormat, out);
  }
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
