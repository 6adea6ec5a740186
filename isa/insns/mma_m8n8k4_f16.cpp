// mma.sync.aligned.m8n8k4 with f16 A and B: the arithmetic of ptxas's __cuda_sm_8x_mma_*
// routines for sm_90 (see the header).
#include "isa/insns/mma_m8n8k4_f16.h"

#include <array>

#include "isa/exec.h"
#include "isa/fp.h"

namespace warpsim::isa::insns {

uint32_t m8n8k4Element(const uint16_t a[4], const uint16_t b[4], uint32_t c, bool cF16, bool dF16) {
  constexpr fp::Round kRN = fp::Round::RN;
  // HADD2.F32 -RZ, x: the f16 element widened exactly (a NaN comes out NaN; every later step
  // makes it the canonical one).
  float av[4], bv[4];
  for (unsigned k = 0; k < 4; ++k) {
    av[k] = fp::f16ToF32(a[k]);
    bv[k] = fp::f16ToF32(b[k]);
  }
  const float cv = cF16 ? fp::f16ToF32(uint16_t(c)) : fp::f32(c);
  if (!dF16) {
    // One FFMA per k from +0 (RZ: a -0 product gives +0), then FADD of C.
    float s = 0.0f;
    for (unsigned k = 0; k < 4; ++k) s = fp::fma(av[k], bv[k], s, kRN);
    return fp::bits(fp::add(cv, s, kRN));
  }
  // Two pairs, each an FMUL and an FFMA, added to C one after the other (FADD), then F2FP
  // rounds the f32 sum to f16 (a second rounding).
  const float lo = fp::fma(av[1], bv[1], fp::mul(av[0], bv[0], kRN), kRN);
  const float hi = fp::fma(av[3], bv[3], fp::mul(av[2], bv[2], kRN), kRN);
  return fp::f32ToF16(fp::add(fp::add(cv, lo, kRN), hi, kRN), kRN);
}

namespace {

const uint64_t* operandReg(const Exec& x, const Opnd& o, unsigned reg) {
  return x.reg(o.kind == OpndKind::Vec ? o.elems[reg] : o);
}

template <bool ACol, bool BCol, bool CF16, bool DF16>
void run(Exec& x, const Inst& in) {
  if (x.mask != ~0u) x.machine->warpSyncFault(in, ~0u, x.mask);
  const Opnd &dOp = in.ops[0], &aOp = in.ops[1], &bOp = in.ops[2], &cOp = in.ops[3];
  // Every quad pair's matrices, gathered whole before D is written (D may name C's registers).
  uint16_t A[4][8][4], Bt[4][8][4];  // [pair][row][k], [pair][column][k]
  uint32_t C[4][8][8];
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned q = quadPairOf(lane);
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned shift = (i % 2) * 16;
      const QuadPairPlace pa = m8n8k4A(ACol, lane, i), pb = m8n8k4B(BCol, lane, i);
      A[q][pa.row][pa.col] = uint16_t(operandReg(x, aOp, i / 2)[lane] >> shift);
      Bt[q][pb.col][pb.row] = uint16_t(operandReg(x, bOp, i / 2)[lane] >> shift);
    }
    for (unsigned i = 0; i < 8; ++i) {
      const QuadPairPlace pc = m8n8k4C(CF16, lane, i);
      const uint64_t reg = operandReg(x, cOp, CF16 ? i / 2 : i)[lane];
      C[q][pc.row][pc.col] = CF16 ? uint32_t(reg >> (i % 2) * 16) & 0xFFFF : uint32_t(reg);
    }
  }
  std::array<std::array<uint64_t, kWarpSize>, 8> D;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    const unsigned q = quadPairOf(lane);
    for (unsigned i = 0; i < 8; ++i) {
      const QuadPairPlace pd = m8n8k4C(DF16, lane, i);
      D[i][lane] = m8n8k4Element(A[q][pd.row], Bt[q][pd.col], C[q][pd.row][pd.col], CF16, DF16);
    }
  }
  if constexpr (DF16) {
    for (unsigned reg = 0; reg < 4; ++reg) {
      uint64_t* out = x.reg(dOp.elems[reg]);
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        out[lane] = D[2 * reg][lane] | D[2 * reg + 1][lane] << 16;
    }
  } else {
    for (unsigned i = 0; i < 8; ++i) {
      uint64_t* out = x.reg(dOp.elems[i]);
      for (unsigned lane = 0; lane < kWarpSize; ++lane) out[lane] = D[i][lane];
    }
  }
}

}  // namespace

Handler mmaM8n8k4F16(bool aCol, bool bCol, bool cF16, bool dF16) {
  // The 12 forms (f16 D from f32 C excepted), indexed by aCol, bCol and the accumulators.
  static constexpr Handler kByAccumulators[3][4] = {
      {run<false, false, false, false>, run<false, true, false, false>,
       run<true, false, false, false>, run<true, true, false, false>},
      {run<false, false, true, false>, run<false, true, true, false>, run<true, false, true, false>,
       run<true, true, true, false>},
      {run<false, false, true, true>, run<false, true, true, true>, run<true, false, true, true>,
       run<true, true, true, true>}};
  const unsigned accumulators = dF16 ? 2 : cF16 ? 1 : 0;
  return kByAccumulators[accumulators][(aCol ? 2 : 0) + (bCol ? 1 : 0)];
}

}  // namespace warpsim::isa::insns
