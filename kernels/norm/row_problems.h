// The problems of the row-normalisation kernels, shared by the norm and fastmath families
// (their kernels differ, their inputs and launches do not): a 128-row matrix whose row length
// is the problem size, one warp per row, 4 warps per block.
#pragma once

#include <cstdint>

#include "kernels/card.h"

namespace warpsim::kernels {

inline constexpr uint32_t kNormRows = 128;

// x in [-8, 8) and y; the launch (x, y, rows, cols) of `entry`.
Problem makeSoftmaxRows(const char* entry, uint64_t cols, uint64_t seed);
enum SoftmaxRowsBuf : size_t { kSoftmaxX, kSoftmaxY };

// x in [-2, 3), gamma in [0.5, 1), beta in [2.5, 3.5) and y; the launch (x, gamma, beta, y,
// rows, cols, eps = 1e-5) of `entry`.
Problem makeLayernormRows(const char* entry, uint64_t cols, uint64_t seed);
enum LayernormRowsBuf : size_t { kLayernormX, kLayernormGamma, kLayernormBeta, kLayernormY };

}  // namespace warpsim::kernels
