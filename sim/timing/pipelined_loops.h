// ptxas's unrolling of short loops. One with barriers: it unrolls the loop (sgemm_tiled's 63-PTX-
// instruction tile loop four times, cuobjdump -sass of tests/recorded/sass/h200_suite_sm90.tar.xz)
// and schedules the copies as one block, so each copy's read-only loads (LDG.E.CONSTANT) and
// their address arithmetic move up into the copy before, across its BAR.SYNCs: the next tile's
// LDGs issue during this tile's FFMAs. Only the block's own back edge stops them (the first
// copy's loads wait a whole round trip). Shared loads, and global loads that are not read-only,
// stay after the barrier (it orders them). One without barriers, stores or atomics, whose trip
// count is not known (softmax_row's row loop): four copies, every copy's loads at the block's
// top, so four loads are in flight where the PTX has one.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "isa/program.h"

namespace warpsim::sim::timing {

struct PipelinedLoops {
  // Every instruction of such a loop's body, by address: how far back (PTX instructions) a
  // result of it may count from: a trip across the body's barriers, the whole unrolled block
  // in a loop without them.
  std::unordered_map<const isa::Inst*, uint32_t> body;
  // Such loops' back edges: every `copies`-th trip taken ends an unrolled block (a floor).
  std::unordered_set<const isa::Inst*> backEdges;
  // The read-only global loads (ld.global.nc) of their bodies.
  std::unordered_set<const isa::Inst*> readOnlyLoads;
};

// Adds `f`'s innermost loops that ptxas unrolls `copies` times and schedules as one block: a
// loop closed by a guarded backward branch whose body is one straight-line block (no other
// branch, call, return or exit in it) holding a read-only global load (ld.global.nc), whose
// induction variable steps by an immediate (`notUnrolled` holds the back edges of the loops that
// step by a register: ptxas does not unroll those) and that no `.pragma "nounroll"` keeps, and
// - either holds a barrier and has at most `maxBody` PTX instructions (sgemm_tiled's tile loop:
//   its next tile's loads move up a trip, across the barriers),
// - or holds no barrier, store or atomic and has at most `maxPlainBody` (softmax_row's,
//   gemv_warp's and layernorm_row's `for (c = lane; c < cols; c += 32)` loops of 9-12 PTX
//   instructions: four LDG.E.CONSTANT at the top of each unrolled trip in cuobjdump -sass;
//   sgemm_naive's 40-instruction loop, which nvcc already unrolled, stays as it is).
void addPipelinedLoops(const isa::FunctionCode& f, uint32_t maxBody, uint32_t maxPlainBody,
                       uint32_t copies, const std::unordered_set<const isa::Inst*>& notUnrolled,
                       PipelinedLoops& out);

// Whether a `.pragma "nounroll"` keeps the loop whose first instruction is `f.code[head]` as
// written: one in the function's header, or one between that instruction and the one before it
// (in the loop's header block, where nvcc writes it).
bool keptRolled(const isa::FunctionCode& f, uint32_t head);

// Whether ptxas leaves the loop that `f`'s backward branch at `pc` closes as written, one trip
// a trip, so that its back edge is a floor for the hoist window: the next trip's loads wait
// for the branch (micro_dram_inflight1's `#pragma unroll 1` loop, one LDG.E.CONSTANT a trip in
// tests/recorded/sass/h100_all_sm90.tar.xz, each waiting for the last trip's FADD). ptxas
// unrolls a counted loop with a constant stride (layernorm_row's c += 32: four LDGs per trip in
// SASS) but not one that a `.pragma "nounroll"` keeps (keptRolled), nor one whose induction
// variable (a register the branch's setp compares) is stepped by an add of a register (ddot's
// i += gridDim.x * 256: one LDG pair per trip, each waiting for the last), nor one that leaves
// on a combination of conditions, its guard an and/or of predicates (calls_noinline's collatz
// loop, `while (v != 1 && steps < limit)`: one trip of 39 stall cycles per SASS trip, two
// 13-cycle waits for its ISETPs), nor one whose body holds a tensor-core instruction
// (hgemm_wmma's k loop, `wmma.load` twice and `wmma.mma` with a constant stride: one trip a
// SASS trip in tests/recorded/sass, eight LDG.E, four MOVM and two HMMA, the next trip's loads
// after this trip's HMMAs; hgemm_mma's and hgemm_wgmma's k loops likewise).
bool notUnrolledLoop(const isa::FunctionCode& f, uint32_t pc);

}  // namespace warpsim::sim::timing
