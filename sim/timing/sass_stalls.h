// The SASS control codes' fixed stall counts (ncu's `wait`), charged to the PTX the model
// issues. ptxas sets, in each SASS instruction's control bits, how many cycles its warp waits
// before it issues the next one (1 to 15): at least 4 between two memory instructions, 6 after
// BAR.SYNC, 5-6 after a branch, the latency of a fixed-latency result its next instruction
// reads. The model issues PTX, which ptxas merges (sgemm_tiled's 32 shared loads per tile are
// 20 LDS), unrolls (its tile loop four times) and reorders, so the two sides meet where both say
// where they came from: the CUDA source line (PTX .loc, the SASS's line info with -lineinfo).
// Per (line, kind of instruction), the SASS's stall cycles are spread over the PTX instructions
// of that line and kind, less the copies ptxas's unrolling made (docs/TIMING_MODEL.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/program.h"

namespace warpsim::sim::timing {

// What a SASS or PTX instruction is, for grouping: its stalls are spread over its own kind.
enum class SassKind : uint8_t { Memory, Barrier, Control, Other, Count_ };

// One SASS instruction as the disassembler lists it.
struct SassInst {
  std::string file;   // the CUDA file of its line info ("" without one)
  uint32_t line = 0;  // 0 without line info
  SassKind kind = SassKind::Other;
  // An instruction whose count follows the PTX's one for one (BAR, LDG/STG/ATOMG/RED, FFMA,
  // DFMA): how many copies of a line ptxas's unrolling made.
  bool anchor = false;
  uint8_t stall = 1;  // cycles to the warp's next issue (control bits 41-44 of the second word)
};

// A module's SASS by function name.
using SassListing = std::map<std::string, std::vector<SassInst>>;

// Fixed point: a stall of q / kStallOne cycles.
inline constexpr uint32_t kStallOne = 256;

// Per pc of `f`: the cycles (x kStallOne) from its issue to its warp's next issue that the SASS
// of its line and kind gives it (0: no SASS for it; the model's own one cycle). `files`: the
// module's .file table, which the SASS's file names are matched against.
std::vector<uint32_t> fixedStalls(const isa::FunctionCode& f, const std::vector<SassInst>& sass,
                                  const std::map<int, std::string>& files);

// How the PTX instruction `in` groups: its kind, and whether it is an anchor (above).
SassKind sassKindOf(const isa::Inst& in);
bool isAnchor(const isa::Inst& in);

}  // namespace warpsim::sim::timing
