// The units an SM issues warp-instructions to. Per sub-partition: the ALU (integer logic,
// compares, shifts, IADD3, LEA: 16 lanes), the FMA pipe's two halves (heavy: FFMA, HFMA2 and the
// IMAD family; lite: FFMA and HFMA2 only; 16 lanes each), FP64, the SFU (ncu's XU), tensor and
// branch units. Per SM: the load/store pipes (LSU for global and local memory, MIO for shared
// memory and shuffles; ncu counts both as its lsu pipe).
#pragma once

#include <cstdint>

namespace warpsim::sim::timing {

enum class Unit : uint8_t {
  Alu,
  FmaHeavy,
  FmaLite,
  Fp64,
  Sfu,
  Tensor,
  Branch,
  Lsu,
  Mio,
  None,
  Count_
};

// Its name in reports: "alu", "fmaheavy", "fmalite", "fp64", "xu", "tensor", "branch", "lsu",
// "mio" (ncu's smsp__inst_executed_pipe_* names where ncu has the same pipe).
const char* unitName(Unit u);

}  // namespace warpsim::sim::timing
