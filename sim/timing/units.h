// Which unit an instruction class issues to, its dependent-issue latency and how long it holds
// the unit (initiation interval). ALU units are per sub-partition; the load/store pipes (LSU for
// global/local, MIO for shared and warp shuffles) are per SM.
#pragma once

#include <cstdint>

#include "isa/program.h"
#include "sim/timing/config.h"

namespace warpsim::sim::timing {

enum class Unit : uint8_t { Fp32, Int, Fp64, Sfu, Tensor, Branch, Lsu, Mio, None, Count_ };
const char* unitName(Unit u);

struct ClassTiming {
  Unit unit = Unit::None;
  uint32_t latency = 0;   // cycles until a def may be used (memory classes: computed per access)
  uint32_t interval = 1;  // cycles the unit stays busy (LSU/MIO: computed per access)
  bool memory = false;    // latency comes from the memory system
};

// One row per isa::InsnClass, from the config.
struct ClassTable {
  explicit ClassTable(const TimingConfig& c);
  const ClassTiming& operator[](isa::InsnClass k) const { return rows[size_t(k)]; }
  ClassTiming rows[size_t(isa::InsnClass::Count_)];
};

}  // namespace warpsim::sim::timing
