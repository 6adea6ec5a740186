// The models of the hardware approximations (.approx, div.full): one function per PTX form,
// on raw bit patterns. The instruction handlers (isa/insns/float_sfu.cpp) and the fast-math
// verifier (isa/sfu/forms.h, `warpsim fastmath-verify`) call the same functions, so what the
// verifier proves against the H200's chunk hashes is what the simulator executes.
#pragma once

#include <cstdint>

namespace warpsim::isa::sfu {

// f32 forms; ftz selects the .ftz variant.
uint32_t ex2ApproxF32(uint32_t a, bool ftz);
uint32_t lg2ApproxF32(uint32_t a, bool ftz);
uint32_t sinApproxF32(uint32_t a, bool ftz);
uint32_t cosApproxF32(uint32_t a, bool ftz);
uint32_t tanhApproxF32(uint32_t a, bool ftz);
uint32_t rcpApproxF32(uint32_t a, bool ftz);
uint32_t rsqrtApproxF32(uint32_t a, bool ftz);
uint32_t sqrtApproxF32(uint32_t a, bool ftz);
uint32_t divApproxF32(uint32_t a, uint32_t b, bool ftz);
uint32_t divFullF32(uint32_t a, uint32_t b, bool ftz);
// div.approx{.ftz}.f32 / div.full{.ftz}.f32 with the add or sub that consumes the quotient, as
// ptxas contracts them (isa/contract.h): the quotient's last FMUL becomes one FFMA of the
// reciprocal, the scaled dividend (negated by negProduct) and c (negated by negAddend).
uint32_t divFmaF32(uint32_t a, uint32_t b, uint32_t c, bool full, bool ftz, bool negProduct,
                   bool negAddend);

// f64 forms.
uint64_t rcpApproxFtzF64(uint64_t a);
uint64_t rsqrtApproxFtzF64(uint64_t a);
uint64_t rsqrtApproxF64(uint64_t a);

// 16-bit forms, exact: the H200's MUFU.EX2.F16 / .BF16 and MUFU.TANH.F16 / .BF16 tabled over
// all 65,536 inputs (isa/sfu/half_tables.cpp).
uint16_t ex2ApproxF16(uint16_t h);
uint16_t ex2ApproxFtzBF16(uint16_t h);
uint16_t tanhApproxF16(uint16_t h);
uint16_t tanhApproxBF16(uint16_t h);

// The computed approximations the tables start from (the function in double, rounded to f32
// to nearest, then to the 16-bit format toward zero); the tables list where the chip differs.
uint16_t ex2ApproxF16Computed(uint16_t h);
uint16_t ex2ApproxFtzBF16Computed(uint16_t h);
uint16_t tanhApproxF16Computed(uint16_t h);
uint16_t tanhApproxBF16Computed(uint16_t h);

}  // namespace warpsim::isa::sfu
