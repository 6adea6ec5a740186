// Floating-point operations per instruction, for the roofline: add, sub and mul count 1 per
// lane, fma and mad 2 (ncu's convention: sm__sass_thread_inst_executed_op_ffma counts twice);
// a packed half2/bf16x2 instruction does two per lane; an mma/wmma is 2*M*N*K per warp. Other
// instructions (div, sqrt, SFU, conversions, integer) count none, as ncu's FLOP metrics do.
#pragma once

#include <cstdint>

#include "isa/program.h"

namespace warpsim::sim::timing {

enum class FlopKind : uint8_t { None, Fp32, Fp64, Fp16, Tensor };
inline constexpr unsigned kFlopKinds = 4;  // Fp32..Tensor, indexed from 0
const char* flopKindName(FlopKind k);      // "fp32"

struct FlopWeight {
  FlopKind kind = FlopKind::None;
  uint32_t perLane = 0;  // FLOP per executed lane (Fp32/Fp64/Fp16)
  uint64_t perWarp = 0;  // FLOP per warp-instruction (Tensor)
};

FlopWeight flopWeight(const isa::Inst& in);

}  // namespace warpsim::sim::timing
