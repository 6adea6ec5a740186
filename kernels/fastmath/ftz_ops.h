// Host models of the f32 operations that nvcc emits under --use_fast_math, one function per
// PTX operation, for the references of kernels/fastmath: `.ftz` arithmetic (subnormal operands
// read as zero of their sign, a result still subnormal after rounding written as zero) and the
// special-function unit's `.approx` forms, which are the simulator's MUFU models (isa/sfu/),
// proven bit for bit against the H200 on all 2^32 inputs (docs/FIDELITY.md, "Fast math").
#pragma once

#include <cmath>

#include "isa/sfu/approx.h"
#include "kernels/emulate.h"

namespace warpsim::kernels::ftz {

inline float flush(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
inline float add(float a, float b) { return flush(flush(a) + flush(b)); }
inline float sub(float a, float b) { return flush(flush(a) - flush(b)); }
inline float mul(float a, float b) { return flush(flush(a) * flush(b)); }
inline float fma(float a, float b, float c) {
  return flush(std::fmaf(flush(a), flush(b), flush(c)));
}
// max.ftz.f32 of two non-NaN values (the kernels' inputs hold none): -0 < +0 as on the chip.
inline float max(float a, float b) {
  a = flush(a), b = flush(b);
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// The special-function forms, through the simulator's bit-exact MUFU models.
template <uint32_t (*F)(uint32_t, bool)>
float sfu(float a, bool flushes) {
  return bitsToFloat(F(floatToBits(a), flushes));
}
inline float ex2(float a) { return sfu<isa::sfu::ex2ApproxF32>(a, true); }       // ex2.approx.ftz
inline float lg2(float a) { return sfu<isa::sfu::lg2ApproxF32>(a, true); }       // lg2.approx.ftz
inline float rcp(float a) { return sfu<isa::sfu::rcpApproxF32>(a, true); }       // rcp.approx.ftz
inline float sqrt(float a) { return sfu<isa::sfu::sqrtApproxF32>(a, true); }     // sqrt.approx.ftz
inline float tanh(float a) { return sfu<isa::sfu::tanhApproxF32>(a, false); }    // tanh.approx.f32
inline float rsqrt(float a) { return sfu<isa::sfu::rsqrtApproxF32>(a, false); }  // rsqrt.approx.f32
inline float div(float a, float b) {  // div.approx.ftz.f32
  return bitsToFloat(isa::sfu::divApproxF32(floatToBits(a), floatToBits(b), true));
}

}  // namespace warpsim::kernels::ftz
