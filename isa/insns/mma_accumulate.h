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
//   3. The sum is rounded once: to f32 toward zero (fp8 forms: to 14 significant bits), except that
//   a sum at or beyond 2^128 gives
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

#include <cstddef>
#include <cstdint>

#include "isa/fp.h"

namespace warpsim::isa::insns {

// The adder of one tensor-core step: `sumBits` bits kept from the largest term's exponent down
// (step 2), and the significant bits an f32 result keeps after its RZ rounding (step 3; an f16
// result is rounded to nearest straight from the sum, whatever the adder).
struct MmaAdder {
  int sumBits;
  int f32ResultBits;
};

// f16, bf16 and tf32 (mma.sync, wmma, wgmma; measured: 26 bits, a full f32 result).
inline constexpr MmaAdder kMmaAdder{26, 24};

// The fp8 forms of wgmma (e4m3, e5m2; measured 2026-12-04, `bash scripts/device_wgmma.sh 480
// 321`: all 120 fp8 programs): one step over the 32 products, 14 bits kept from the largest
// exponent down, and an f32 result truncated to 14 significant bits (1 + 13 fraction bits: the
// "FP22" accumulator that published H100/H800 measurements describe). A narrower or wider
// adder (13, 15), two steps of 16, RN for the f32 result, or the 14-bit step on an f16 result
// each break between 26 and 83 of the 120.
inline constexpr MmaAdder kFp8Adder{14, 14};

// One row of A or column of B prepared once per instruction, for the many dots that read it
// (each row of A meets every column of B): the elements' exact values, their alignment
// exponents (step 1) and whether any element is infinite or NaN (step 4); for the formats whose
// products are exact normal f32s (f16, e4m3, e5m2: mmaVector), the values as f32s too, so that
// a dot of two such vectors scales and truncates its products eight to a host vector, not four.
struct MmaVector {
  const double* values;
  const int32_t* exponents;
  bool special;
  const float* narrow = nullptr;
};

// The alignment exponent mmaDot gives a zero element: the sum of two of them, or of one and any
// finite element's, stays far below every nonzero product's, so a zero product never sets the
// largest exponent.
inline constexpr int32_t kMmaZeroExponent = -(1 << 28);

// Fills exponents[i] with the alignment exponent of values[i], an element of format f (i < n;
// zero: kMmaZeroExponent) and returns whether any element is infinite or NaN.
bool mmaExponents(const double* values, unsigned n, fp::Format f, int32_t* exponents);

// The vector of the n values of format f: their exponents written to `exponents` (mmaExponents)
// and, where f's products are exact normal f32s, the values to `narrow` (n of each).
MmaVector mmaVector(const double* values, unsigned n, fp::Format f, int32_t* exponents,
                    float* narrow);

// mmaVector of `count` vectors of n values each, vector j's values at values + j * stride and
// its exponents and copies at the same offsets of `exponents` and `narrow`, into out[j]: an
// operand's rows (columns) in one call, with f and n looked at once.
void mmaVectors(const double* values, size_t stride, unsigned count, unsigned n, fp::Format f,
                int32_t* exponents, float* narrow, MmaVector* out);

// mmaVectors of f16 elements given by their bits: `count` vectors of n elements, vector j's
// at bits + j * n, its values, exponents and f32 copies written at the same offsets of
// `values`, `exponents` and `narrow`. The same vectors as f16Exact's values given to mmaVectors
// (a NaN's payload aside, which no dot reads), with the f32 copies decoded first (F16C: eight
// to an instruction) and the doubles and exponents taken from them.
void mmaVectorsF16(const uint16_t* bits, unsigned count, unsigned n, double* values,
                   int32_t* exponents, float* narrow, MmaVector* out);

// d = c + sum over i < k of a.values[i] * b.values[i] under `adder` (k <= 32), c as bits of
// `cFormat` (kF32 or kF16), the result as bits of `dFormat` (kF32 or kF16). What the forms
// below compute; mma, wmma and wgmma call it with their operands prepared once.
uint64_t mmaDot(const MmaVector& a, const MmaVector& b, unsigned k, const MmaAdder& adder,
                uint64_t c, fp::Format cFormat, fp::Format dFormat);

// D[r * n + c] = mmaDot(rows[r], cols[c], k, adder, C[r * n + c], cFormat, dFormat) for r < m,
// c < n: an instruction's whole grid of dots, the columns taken eight at a time (the narrow
// forms' vectorized path, mma_accumulate.cpp's gridOf).
void mmaGridDots(const MmaVector* rows, unsigned m, const MmaVector* cols, unsigned n, unsigned k,
                 const MmaAdder& adder, fp::Format cFormat, fp::Format dFormat, const uint64_t* C,
                 uint64_t* D);

// mmaGridDots of f16 operands given by their bits, both row-major: A m x k (its rows) and B
// k x n (its columns side by side, as wmma's fragments and wgmma's MN-major units hold B);
// m * k at most 512 and m at most 64, k * n at most 4096 and n at most 256. The same D as
// mmaVectorsF16 of A's rows and of B's transposed columns given to mmaGridDots; B is read in
// its own layout, without the transposition.
void mmaGridDotsF16(const uint16_t* aBits, unsigned m, const uint16_t* bBits, unsigned n,
                    unsigned k, const MmaAdder& adder, fp::Format cFormat, fp::Format dFormat,
                    const uint64_t* C, uint64_t* D);

// d = c + sum over i < k of a[i] * b[i]: a and b the exact values of elements of format `input`
// (kF16, kBF16 or kTF32), c as bits of `cFormat` (kF32 or kF16), the result as bits of
// `dFormat` (kF32 or kF16). k <= 16.
uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format input, uint64_t c,
                fp::Format cFormat, fp::Format dFormat);

// The same model with A's and B's formats apart (fp8: e4m3 times e5m2), k <= 32 products and
// the adder as a parameter (wgmma.cpp: its fp8 forms).
uint64_t mmaDot(const double* a, const double* b, unsigned k, fp::Format aFormat,
                fp::Format bFormat, const MmaAdder& adder, uint64_t c, fp::Format cFormat,
                fp::Format dFormat);

}  // namespace warpsim::isa::insns
