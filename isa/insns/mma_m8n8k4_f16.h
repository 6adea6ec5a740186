// mma.sync.aligned.m8n8k4 with f16 A and B (PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f16
// floating point type"):
//   mma.sync.aligned.m8n8k4.{row,col}.{row,col}.{f16,f32}.f16.f16.{f16,f32}
// but f16 D from f32 C, which ptxas 13 refuses for sm_90 (".dtype must be '.f32' when .ctype is
// '.f32'"). Four independent 8x8x4 products, one per quad pair: lanes 4q..4q+3 hold rows
// (columns) 0..3 of pair q's matrices and lanes 4q+16..4q+19 rows (columns) 4..7.
//
// sm_90 has no tensor-core instruction of this shape (sm_70's): ptxas replaces it with a call
// to `__cuda_sm_8x_mma_<a>_<b>_<d>_f16_f16_<c>`, plain SASS that gathers the operands of other
// lanes with SHFL.IDX (the col layouts first transposed to row.col by `__cuda_sm_8x_mma_shfl_f16`)
// and computes every D element on the CUDA cores from the f16 elements widened to f32 exactly
// (HADD2.F32 -RZ, x), in round-to-nearest, with subnormals kept (no .FTZ):
//   f32 D:  s = FFMA(a3,b3, FFMA(a2,b2, FFMA(a1,b1, FFMA(a0,b0, +0)))),  d = FADD(c, s)
//   f16 D:  lo = FFMA(a1,b1, FMUL(a0,b0)), hi = FFMA(a3,b3, FMUL(a2,b2)),
//           d = F2FP.F16.F32(FADD(FADD(c, lo), hi))   (an f32 sum rounded again to f16)
// with c widened from f16 the same way when C is f16. Read from nvdisasm of ptxas 13 for all 12
// forms (scripts/probes/mma/m8n8k4_sass.py evaluates each routine symbolically per lane and
// checks every D element against this model and these layouts); the layouts are the chip's
// (scripts/probes/mma/m8n8k4_probe.h200.txt, replayed by tests/driver/mma_probe_test.cpp).
#pragma once

#include "isa/program.h"

namespace warpsim::isa::insns {

// An element's place in its quad pair's matrix: A is 8x4 (row, k), B 4x8 (k, column), C and
// D 8x8 (row, column).
struct QuadPairPlace {
  unsigned row, col;
};

// The rows (columns) 4..7 of a quad pair sit in its lanes 16..31.
constexpr unsigned quadPairOf(unsigned lane) { return (lane >> 2) & 3; }
constexpr unsigned quadPairHalf(unsigned lane) { return lane >= 16 ? 4 : 0; }

// Element i (0..3: the low, then the high half of A's two f16x2 registers) of a lane's A.
constexpr QuadPairPlace m8n8k4A(bool colMajor, unsigned lane, unsigned i) {
  if (colMajor) return {i + quadPairHalf(lane), lane % 4};
  return {lane % 4 + quadPairHalf(lane), i};
}

// Element i (0..3) of a lane's B.
constexpr QuadPairPlace m8n8k4B(bool colMajor, unsigned lane, unsigned i) {
  if (colMajor) return {i, lane % 4 + quadPairHalf(lane)};
  return {lane % 4, i + quadPairHalf(lane)};
}

// Element i (0..7) of a lane's C or D: f16 (four f16x2 registers) holds a row, f32 (eight
// registers) two rows of two column pairs.
constexpr QuadPairPlace m8n8k4C(bool f16, unsigned lane, unsigned i) {
  if (f16) return {lane % 4 + quadPairHalf(lane), i};
  return {(lane & 1) + (i & 2) + quadPairHalf(lane), (i & 1) + (lane & 2) + (i & 4)};
}

// The handler of one form (its layouts and C's and D's types); dF16 needs cF16.
Handler mmaM8n8k4F16(bool aCol, bool bCol, bool cF16, bool dF16);

// One D element as ptxas's routine computes it from the row of A, the column of B (f16 bits in
// k order) and C (f16 or f32 bits); the result as f16 or f32 bits.
uint32_t m8n8k4Element(const uint16_t a[4], const uint16_t b[4], uint32_t c, bool cF16, bool dF16);

}  // namespace warpsim::isa::insns
