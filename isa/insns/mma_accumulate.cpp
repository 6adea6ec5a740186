#include "isa/insns/mma_accumulate.h"

#include <algorithm>
#include <cmath>

namespace warpsim::isa::insns {
namespace {

double widen(uint64_t bits, fp::Format f) {
  return f.manBits == 23 ? double(fp::f32(uint32_t(bits))) : double(fp::f16ToF32(uint16_t(bits)));
}

// One block: terms[0..n) exact doubles (finite), summed as the model says.
double blockSum(const double* terms, unsigned n, const MmaAccumulation& m) {
  int emax = std::numeric_limits<int>::min();
  for (unsigned i = 0; i < n; ++i)
    if (terms[i] != 0) emax = std::max(emax, std::ilogb(terms[i]));
  if (emax == std::numeric_limits<int>::min()) {
    double s = 0;  // every term zero: the IEEE sum keeps the sign rules
    for (unsigned i = 0; i < n; ++i) s += terms[i];
    return s;
  }
  // Each term truncated toward zero to a multiple of q; the sum of such terms is exact in a
  // double (alignBits + log2(n) < 53 bits).
  const int qexp = emax - int(m.alignBits) + 1;
  double sum = 0;
  for (unsigned i = 0; i < n; ++i) sum += std::ldexp(std::trunc(std::ldexp(terms[i], -qexp)), qexp);
  return sum;
}

}  // namespace

uint64_t mmaDot(const double* a, const double* b, unsigned k, uint64_t c, fp::Format acc,
                const MmaAccumulation& m) {
  const double cv = widen(c, acc);
  // Specials: the exact sum in IEEE arithmetic (a product of finite f16/bf16/tf32 values is
  // exact in a double, and so is a sum of at most 17 of them that does not overflow).
  bool special = !std::isfinite(cv);
  for (unsigned i = 0; i < k && !special; ++i) special = !std::isfinite(a[i] * b[i]);
  if (special) {
    double s = cv;
    for (unsigned i = 0; i < k; ++i) s += a[i] * b[i];
    return std::isnan(s) ? acc.canonicalNaN()
                         : fp::convertBits(fp::kF64, acc, fp::bits(s), m.normalize);
  }
  const unsigned block = m.blockK ? m.blockK : k;
  double running = cv;
  for (unsigned k0 = 0; k0 < k; k0 += block) {
    double terms[65];
    unsigned n = 0;
    terms[n++] = running;
    for (unsigned i = k0; i < std::min(k, k0 + block); ++i) terms[n++] = a[i] * b[i];
    const double s = blockSum(terms, n, m);
    running = widen(fp::convertBits(fp::kF64, acc, fp::bits(s), m.normalize), acc);
  }
  return fp::convertBits(fp::kF64, acc, fp::bits(running), m.normalize);
}

}  // namespace warpsim::isa::insns
