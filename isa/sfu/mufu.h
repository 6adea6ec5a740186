// The H200's MUFU f32 functions, bit for bit: what one MUFU.RCP / RSQ / SQRT / EX2 instruction
// returns for a 32-bit operand. MUFU flushes subnormal operands and results to signed zero and
// returns the canonical NaN for NaN (and invalid) operands; the PTX forms (approx.cpp) add the
// FMUL scaling that ptxas puts around it for the non-.ftz variants.
//
// The method (scripts/fit_mufu.py fits it to the chip's dense binades; docs/FIDELITY.md):
// a table of {C0, C1, C2} per segment of the reduced argument's fraction, evaluated in integer
// arithmetic as (C0 + C1 j + C2 S(j)) >> G, where j is the offset in the segment and S(j) is
// j^2 from an array squarer that drops the partial-product bits of its low columns.
#pragma once

#include <cstdint>

namespace warpsim::isa::sfu {

uint32_t mufuRcp(uint32_t a);
uint32_t mufuRsq(uint32_t a);
uint32_t mufuSqrt(uint32_t a);
uint32_t mufuEx2(uint32_t a);

// The interpolation itself, for the tests: the 24-bit significand (2^23 <= Y <= 2^24) that
// the tables give for a fraction of `bits` bits (rcp, ex2: 23; rsq, sqrt: 24, the exponent's
// parity above the mantissa).
uint32_t mufuRcpSignificand(uint32_t fraction);
uint32_t mufuRsqSignificand(uint32_t fraction);
uint32_t mufuSqrtSignificand(uint32_t fraction);
uint32_t mufuEx2Significand(uint32_t fraction);
// MUFU.TANH of 1.m (x in [1, 2), its one measured binade): the significand of tanh(x) in
// [0.5, 1) times 2^24. The unit ignores the mantissa's 3 low bits; 8 segments of 2^17.
uint32_t mufuTanhSignificand1To2(uint32_t mantissa);

}  // namespace warpsim::isa::sfu
