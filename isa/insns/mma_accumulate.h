// How a tensor core sums a row of A times a column of B into the accumulator, for the
// floating-point mma forms whose inputs are narrower than their accumulator (f16, bf16, tf32
// into f32 or f16). NVIDIA does not document it; this is the one place that decides it, fitted
// bit for bit to the H200 (scripts/device_mma.sh: 560 generated single-mma programs, 280 of
// them f16/bf16/tf32 forms; docs/FIDELITY.md, "Tensor cores"). The model:
//
//   1. Every product a[i] * b[i] is exact. Its exponent, for alignment, is the sum of the
//      operands' exponent fields (ea + eb, a subnormal operand counting as the format's emin),
//      not the normalized product's: a product of significands in [2, 4) sits one bit above it.
//      C's exponent is its own (a subnormal C counts as its format's emin; no recorded case
//      tells this apart from its true exponent yet: the probe's tiny mode will).
//   2. C and all k products (k = 8 or 16: one step, no blocks) are aligned to the largest of
//      these exponents, E, and each is truncated toward zero below bit E - 25 (26 bits from
//      2^E down), then added exactly.
//   3. The sum is rounded once: to f32 toward zero, except that a sum at or beyond 2^128 gives
//      infinity (the chip does not saturate to max-finite); to f16 (an f16 D) to nearest even
//      straight from the sum, without an f32 step in between (so an f16 accumulator is not
//      narrower inside: the same adder, one final RN rounding).
//   4. A NaN or infinite C or product gives the IEEE sum of the exact values (inf - inf and
//      0 * inf are NaN); a NaN result is the canonical NaN of D's format (0x7FFFFFFF, 0x7FFF).
//
// Each step is pinned by the recorded cases (changing it breaks agreeing ones; counts of the
// 360 floating-point programs, f64 included, that agree instead of all 360): the width by the
// large-c inputs (25 or 27 bits instead of 26: 225 or 236), the nominal product exponent by
// the spread inputs (the normalized one: 234), subnormal operands at emin by two m16n8k8 cases,
// RZ for f32 (RN: 171), one k step (blocks of 8: 291), infinity on overflow (max-finite: 331),
// direct RN to f16 (through an RZ f32: 358).
#pragma once

#include <cstdint>

#include "isa/fp.h"

namespace warpsim::isa::insns {

// The adder's width: bits kept from the largest term's exponent down (measured: 26).
inline constexpr int kMmaSumBits = 26;

// d = c + sum over i < k of a[i] * b[i]: a and b the exact values of elements of format `input`
// (kF16, kBF16 or kTF32), c as bits of `cFormat` (kF32 or kF16), the result as bits of
// `dFormat` (kF32 or kF16). k <= 16.
uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format input, uint64_t c,
                fp::Format cFormat, fp::Format dFormat);

// The same model with A's and B's formats apart (fp8: e4m3 times e5m2), k <= 32 products and
// the adder's width as a parameter (wgmma.cpp: its fp8 forms).
uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format aFormat,
                fp::Format bFormat, int sumBits, uint64_t c, fp::Format cFormat,
                fp::Format dFormat);

}  // namespace warpsim::isa::insns
