// Tracing a generated program to the instruction where two backends part: every instruction
// of the body stores the pool registers it reads just before it runs and the ones it writes
// just after, into words past the program's own output words. Run on the GPU and in the
// simulator, the first trace word that differs names one instruction, its operands (on which
// both still agreed) and both results: the root cause of a difference that the final outputs
// only show after it has spread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
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

// Runs the traced variant `t` of case `c`'s program on a backend, with the case's inputs padded
// to the traced stride. Throws what runIsa throws.
IsaRun runTraced(harness::Backend& backend, const TracedProgram& t, const IsaCase& c,
                 const std::vector<uint8_t>& inputs);
// Trace word `entry` of global thread `thread` in a traced run's output.
uint64_t traceWord(const TracedProgram& t, const std::vector<uint8_t>& out, unsigned thread,
                   size_t entry);

// Where two runs part, and whether that is one of the known ways the driver's compilation of
// a PTX program decides bits that PTX leaves open or gets wrong (FIDELITY.md): `category` is
// empty when the divergence is unexplained.
//   nan-bits        both results are NaNs, which differ in payload or sign: ptxas' choice of
//                   instructions decides those (operand order, modifiers folded into neighbours)
//   guard-ignored   a guarded instruction whose guard is false wrote its destination on the GPU
//   immediate-field bfi with an immediate length >= 32 inserts length mod 32 bits; bfe.s32
//                   with an immediate position >= 32 gives -1 (ptxas encodes 5-bit fields)
//   context-dependent  the instruction, run alone on the GPU with the same operand values
//                   (isolate.h), gives the simulator's result: the program's difference comes
//                   from how ptxas compiled the instruction's context
//   byte-store-of-half  a byte read back from shared memory is the half-precision value its
//                   partner thread stored with st.shared.b8, converted to an 8-bit integer
//                   (the JIT's miscompilation; scripts/probes/campaign/halfregs.ptx)
//   branch-ignored  the GPU ran an instruction that a forward branch before it skips, by the
//                   branch predicate's traced value (found as an operand that differs with
//                   no write in between)
//   not-reproduced  the traced variant agrees: the difference needs the untraced compilation
struct Divergence {
  std::string text;      // empty when the traces agree everywhere
  std::string category;  // see above; empty: unexplained
};

// Runs the traced variant on both backends (the same inputs, padded to its stride) and
// describes the first trace word that differs: thread, instruction, operand values, both
// results. Throws what runIsa throws.
Divergence firstDivergence(harness::Backend& gpu, harness::Backend& simulator,
                           const std::string& ptx, const IsaCase& c,
                           const std::vector<uint8_t>& inputs);

// A program that differs between `gpu` and the simulator, explained: firstDivergence with a
// fresh one-thread simulator, "not-reproduced" when the traced variant agrees. Never throws
// (a traced program that does not run is an unexplained divergence saying so).
Divergence explainDifference(harness::Backend& gpu, const std::string& ptx, const IsaCase& c,
                             const std::vector<uint8_t>& inputs);

// The category of a divergence at instruction `insn` (a result entry), from the operand
// values (register -> value, as both backends had them) and both results.
std::string classifyDivergence(const std::string& insn, const std::string& reg,
                               const std::vector<std::pair<std::string, uint64_t>>& operands,
                               uint64_t gpu, uint64_t sim);

}  // namespace warpsim::ptxgen
