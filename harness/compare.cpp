#include "harness/compare.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "isa/fp.h"
#include "isa/types.h"

namespace warpsim::harness {

using kernels::ElemType;

namespace {

bool isFloat(ElemType t) {
  return t == ElemType::F16 || t == ElemType::BF16 || t == ElemType::F32 || t == ElemType::F64;
}

bool isSignedInt(ElemType t) {
  return t == ElemType::S8 || t == ElemType::S16 || t == ElemType::S32 || t == ElemType::S64;
}

// Maps float bits of `width` bits onto a line where adjacent floats differ by one.
int64_t ordered(uint64_t bits, unsigned width) {
  const uint64_t sign = 1ull << (width - 1);
  const uint64_t mag = bits & (sign - 1);
  return (bits & sign) ? -int64_t(mag) : int64_t(mag);
}

bool isNaNBits(ElemType t, uint64_t b) {
  switch (t) {
    case ElemType::F16:
      return (b & 0x7C00) == 0x7C00 && (b & 0x3FF);
    case ElemType::BF16:
      return (b & 0x7F80) == 0x7F80 && (b & 0x7F);
    case ElemType::F32:
      return (b & 0x7F800000) == 0x7F800000 && (b & 0x7FFFFF);
    case ElemType::F64:
      return (b & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (b & 0xFFFFFFFFFFFFFull);
    default:
      return false;
  }
}

}  // namespace

uint64_t elementBits(const kernels::HostBuffer& b, uint64_t index) {
  const unsigned n = kernels::elemBytes(b.type);
  uint64_t v = 0;
  std::memcpy(&v, b.bytes.data() + index * n, n);
  return v;
}

uint64_t ulpDistance(ElemType t, uint64_t a, uint64_t b) {
  if (a == b) return 0;
  if (isFloat(t)) {
    const bool na = isNaNBits(t, a), nb = isNaNBits(t, b);
    if (na && nb) return 0;
    if (na || nb) return std::numeric_limits<uint64_t>::max();
    const unsigned w = kernels::elemBytes(t) * 8;
    const int64_t d = ordered(a, w) - ordered(b, w);
    return uint64_t(d < 0 ? -d : d);
  }
  const unsigned w = kernels::elemBytes(t) * 8;
  if (isSignedInt(t)) {
    const __int128 d = __int128(isa::signExtend(a, w)) - isa::signExtend(b, w);
    return uint64_t(d < 0 ? -d : d);
  }
  return a > b ? a - b : b - a;
}

std::string formatElement(ElemType t, uint64_t bits) {
  char buf[96];
  const unsigned w = kernels::elemBytes(t) * 2;
  switch (t) {
    case ElemType::F16:
      std::snprintf(buf, sizeof buf, "0x%0*llx (%.9g)", w, (unsigned long long)bits,
                    double(fp::f16ToF32(uint16_t(bits))));
      break;
    case ElemType::BF16:
      std::snprintf(buf, sizeof buf, "0x%0*llx (%.9g)", w, (unsigned long long)bits,
                    double(fp::bf16ToF32(uint16_t(bits))));
      break;
    case ElemType::F32:
      std::snprintf(buf, sizeof buf, "0x%0*llx (%.9g)", w, (unsigned long long)bits,
                    double(fp::f32(uint32_t(bits))));
      break;
    case ElemType::F64:
      std::snprintf(buf, sizeof buf, "0x%0*llx (%.17g)", w, (unsigned long long)bits,
                    fp::f64(bits));
      break;
    default:
      if (isSignedInt(t))
        std::snprintf(buf, sizeof buf, "0x%0*llx (%lld)", w, (unsigned long long)bits,
                      (long long)isa::signExtend(bits, w * 4));
      else
        std::snprintf(buf, sizeof buf, "0x%0*llx (%llu)", w, (unsigned long long)bits,
                      (unsigned long long)bits);
  }
  return buf;
}

Comparison compareOutputs(const std::vector<kernels::HostBuffer>& expected,
                          const std::vector<kernels::HostBuffer>& actual, uint32_t maxUlp,
                          size_t keep) {
  Comparison c;
  for (size_t bi = 0; bi < expected.size() && bi < actual.size(); ++bi) {
    const kernels::HostBuffer& e = expected[bi];
    if (!e.isOutput) continue;
    const uint64_t n = e.count();
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t eb = elementBits(e, i), ab = elementBits(actual[bi], i);
      ++c.compared;
      if (eb == ab) continue;
      const uint64_t d = ulpDistance(e.type, eb, ab);
      if (isFloat(e.type) && d != std::numeric_limits<uint64_t>::max())
        c.maxUlp = std::max(c.maxUlp, d);
      const bool within = maxUlp > 0 && isFloat(e.type) && d <= maxUlp;
      if (within) continue;
      ++c.mismatches;
      if (c.first.size() < keep) c.first.push_back({bi, i, eb, ab, d});
    }
  }
  return c;
}

}  // namespace warpsim::harness
