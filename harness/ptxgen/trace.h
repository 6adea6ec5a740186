// Tracing a generated program to the instruction where two backends part: every instruction
// of the body stores the pool registers it reads just before it runs and the ones it writes
// just after, into words past the program's own output words. Run on the GPU and in the
// simulator, the first trace word that differs names one instruction, its operands (on which
// both still agreed) and both results: the root cause of a difference that the final outputs
// only show after it has spread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/backend.h"
#include "harness/ptxgen/isa_case.h"

namespace warpsim::ptxgen {

struct TraceEntry {
  unsigned line;     // the instruction's line in the original PTX (0-based)
  std::string insn;  // the instruction line
  std::string reg;   // the register stored
  bool result;       // after the instruction (a destination) or before it (an operand)
};

struct TracedProgram {
  std::string ptx;
  unsigned words = 0;   // the program's own words per thread
  unsigned stride = 0;  // words per thread of the traced program: words + entries
  std::vector<TraceEntry> entries;
};

// The traced variant of a generated program's PTX (which has `words` words per thread).
TracedProgram traceProgram(const std::string& ptx, unsigned words);

// Runs the traced variant on both backends (the same inputs, padded to its stride) and
// describes the first trace word that differs: thread, instruction, operand values, both
// results. Empty when the traces agree everywhere. Throws what runIsa throws.
std::string firstDivergence(harness::Backend& gpu, harness::Backend& simulator,
                            const std::string& ptx, const IsaCase& c,
                            const std::vector<uint8_t>& inputs);

}  // namespace warpsim::ptxgen
