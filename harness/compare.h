// Comparing output buffers: bit for bit by default, within N ULP where a card says a PTX
// .approx operation allows it. Reports the first mismatches with both values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/card.h"

namespace warpsim::harness {

struct Mismatch {
  size_t buffer = 0;
  uint64_t index = 0;
  uint64_t expected = 0, actual = 0;  // raw bits of the element
  uint64_t ulp = 0;                   // ULP distance (floats), |difference| (integers)
};

struct Comparison {
  uint64_t compared = 0;    // elements compared
  uint64_t mismatches = 0;  // elements outside the tolerance
  uint64_t maxUlp = 0;      // the largest distance seen (floats)
  std::vector<Mismatch> first;
  bool ok() const { return mismatches == 0; }
};

// Compares the output buffers (isOutput) of `actual` against `expected` (same layout).
Comparison compareOutputs(const std::vector<kernels::HostBuffer>& expected,
                          const std::vector<kernels::HostBuffer>& actual, uint32_t maxUlp,
                          size_t keep = 10);

// Distance in units in the last place between two values of a float type (0 when the bits are
// equal, or both are NaN; UINT64_MAX across NaN/number); |a-b| for integers.
uint64_t ulpDistance(kernels::ElemType t, uint64_t a, uint64_t b);
uint64_t elementBits(const kernels::HostBuffer& b, uint64_t index);
// "0x3f800000 (1)" - hex bits and the decimal value.
std::string formatElement(kernels::ElemType t, uint64_t bits);

}  // namespace warpsim::harness
