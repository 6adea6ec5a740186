// Which unit an instruction issues to, its dependent-issue latency and how long it holds the
// unit (initiation interval). ALU and FMA units are per sub-partition; the load/store pipes (LSU
// for global/local, MIO for shared and warp shuffles) are per SM.
#pragma once

#include <cstdint>

#include "isa/program.h"
#include "sim/timing/config.h"
#include "sim/timing/unit.h"

namespace warpsim::sim::timing {

struct ClassTiming {
  Unit unit = Unit::None;
  uint32_t latency = 0;   // cycles until a def may be used (memory classes: computed per access)
  uint32_t interval = 1;  // cycles the unit stays busy (LSU/MIO: computed per access)
  bool memory = false;    // latency comes from the memory system
};

// The units an instruction may issue to. ptxas picks among equivalent SASS forms to balance the
// pipes (an FFMA goes to either half of the FMA pipe; a 32-bit integer add becomes IADD3 on the
// ALU or IMAD.IADD on the FMA pipe's heavy half, a move MOV or IMAD.MOV): the timing model
// issues it to whichever of the two frees first, `first` on a tie. `second` is None when there
// is no choice.
struct PipeChoice {
  Unit first = Unit::None, second = Unit::None;
};

// Which of the two fixed-latency pipes ptxas puts an instruction on, where the PTX says: a result
// read by an instruction on the other one arrives latency.cross_pipe later (the ALU's and the
// FMA pipe's results forward within their pipe a cycle sooner). Unknown where ptxas picks
// either form (a register add: IADD3 or IMAD.IADD; a move: MOV or IMAD.MOV) or the instruction
// is on neither pipe; it is charged nothing.
enum class FixedPipe : uint8_t { Unknown, Alu, Fma };
FixedPipe fixedPipeOf(const isa::Inst& in);

// Whether `in` reads or writes the carry flag (add.cc, addc, ...): IADD3 with its carry out or
// in, which has no IMAD form, no addressing mode and no negated source stands for.
bool touchesCarry(const isa::Inst& in);

// One row per isa::InsnClass, from the config.
struct ClassTable {
  explicit ClassTable(const TimingConfig& c);
  const ClassTiming& operator[](isa::InsnClass k) const { return rows[size_t(k)]; }
  // The units `in` may issue to: its class's unit, refined for integer and FMA-pipe work by the
  // instruction's operation (issue.int_on_fma_heavy).
  PipeChoice pipesOf(const isa::Inst& in) const;
  uint32_t intervalOf(Unit u) const { return intervals[size_t(u)]; }
  ClassTiming rows[size_t(isa::InsnClass::Count_)];
  uint32_t intervals[size_t(Unit::Count_)] = {};
  bool intOnFmaHeavy = true;
};

}  // namespace warpsim::sim::timing
