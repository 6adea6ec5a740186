// The H200's MUFU f32 functions, bit for bit: what one MUFU.RCP / RSQ / SQRT / EX2 / LG2 / SIN /
// COS / TANH instruction returns for a 32-bit operand. MUFU flushes subnormal operands and results
// to signed zero and returns the canonical NaN for NaN (and invalid) operands; the PTX forms
// (approx.cpp) add the FMUL scaling that ptxas puts around it for the non-.ftz variants.
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
// log2: the exponent plus log2(1.m) from the table, in fixed point with 36 fraction bits; a
// negative sum's magnitude is its one's complement; the magnitude truncated to 24 bits
// (log2(1) = 0 exactly).
uint32_t mufuLg2(uint32_t a);
// sin(2 pi t) and cos(2 pi t) of t in turns (ptxas scales x by 1/(2 pi) first, approx.cpp):
// |t|'s fraction truncated to 25 bits, its top 2 bits the quadrant, one table of sin over the
// quarter turn (the argument's one's complement in odd quadrants), the fixed-point value (40
// fraction bits) truncated to 24 bits; sin is odd, cos even.
uint32_t mufuSin(uint32_t t);
uint32_t mufuCos(uint32_t t);
// tanh: x itself below 2^-8 (subnormals kept), exactly +-1 from 8, odd; between, a table per
// binade of x (the unit ignores 2 to 6 low mantissa bits, fewer in the larger binades) whose
// fixed-point result is normalized: where it falls below the binade's top result exponent it
// keeps one more bit.
uint32_t mufuTanh(uint32_t a);

// The interpolation itself, for the tests: the 24-bit significand (2^23 <= Y <= 2^24) that
// the tables give for a fraction of `bits` bits (rcp, ex2: 23; rsq, sqrt: 24, the exponent's
// parity above the mantissa).
uint32_t mufuRcpSignificand(uint32_t fraction);
uint32_t mufuRsqSignificand(uint32_t fraction);
uint32_t mufuSqrtSignificand(uint32_t fraction);
uint32_t mufuEx2Significand(uint32_t fraction);
// S(j) of the squarer of `bits` = 16 (rcp: partial products of columns below 17 dropped) or 17
// bits (the others: below 19), for the tests: as the interpolation computes it, and row by row
// (the squarer's definition).
uint32_t mufuSquare(int bits, uint32_t j);
uint32_t mufuSquareByRows(int bits, uint32_t j);

}  // namespace warpsim::isa::sfu
