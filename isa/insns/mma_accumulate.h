// How a tensor core sums a row of A times a column of B into the accumulator, for the
// floating-point mma forms whose inputs are narrower than their accumulator (f16, bf16, tf32
// into f32 or f16). NVIDIA does not document it; this is the one place that decides it, so the
// model can be swapped once the H200 has been measured (scripts/device_mma.sh; docs/FIDELITY.md,
// "Tensor cores").
//
// The model (after the published measurements of earlier tensor cores: Fasi, Higham, Mikaitis
// and Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021): every product is
// exact; the products of a block of `blockK` consecutive k and the running accumulator are
// aligned to the largest of their exponents and truncated below `alignBits` bits under its
// leading bit, added exactly, and the sum is rounded to the accumulator's format with
// `normalize` (RZ: truncation). Blocks follow each other in k order. NaN or infinity anywhere
// gives the IEEE sum of the exact values (inf - inf is NaN); NaN results are canonical.
#pragma once

#include <cstdint>

#include "isa/fp.h"

namespace warpsim::isa::insns {

struct MmaAccumulation {
  unsigned blockK = 16;                 // products summed in one step (0: all of k at once)
  unsigned alignBits = 24 + 3;          // significand bits kept after alignment to the largest term
  fp::Round normalize = fp::Round::RZ;  // the rounding of each block's sum
};

// The model warpsim uses (unmeasured: see docs/FIDELITY.md).
inline constexpr MmaAccumulation kH200Accumulation{};

// d = c + sum over i < k of a[i] * b[i], a and b exact values (f16/bf16/tf32 widened), c and the
// result in `accumulator` (kF32 or kF16) as bits.
uint64_t mmaDot(const double* a, const double* b, unsigned k, uint64_t c, fp::Format accumulator,
                const MmaAccumulation& model = kH200Accumulation);

}  // namespace warpsim::isa::insns
