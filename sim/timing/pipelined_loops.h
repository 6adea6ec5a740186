// ptxas's pipelining of a short loop with barriers: it unrolls the loop (sgemm_tiled's 63-PTX-
// instruction tile loop four times, cuobjdump -sass of tests/recorded/sass/h200_suite_sm90.tar.xz)
// and schedules the copies as one block, so each copy's read-only loads (LDG.E.CONSTANT) and
// their address arithmetic move up into the copy before, across its BAR.SYNCs: the next tile's
// LDGs issue during this tile's FFMAs. Only the block's own back edge stops them (the first
// copy's loads wait a whole round trip). Shared loads, and global loads that are not read-only,
// stay after the barrier (it orders them).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "isa/program.h"

namespace warpsim::sim::timing {

struct PipelinedLoops {
  // Every instruction of such a loop's body, by address: its trip's length in PTX instructions
  // (how far back a result of it may count from, across the body's barriers).
  std::unordered_map<const isa::Inst*, uint32_t> body;
  // Such loops' back edges: every `copies`-th trip taken ends an unrolled block (a floor).
  std::unordered_set<const isa::Inst*> backEdges;
  // The read-only global loads (ld.global.nc) of their bodies.
  std::unordered_set<const isa::Inst*> readOnlyLoads;
};

// Adds `f`'s loops that ptxas pipelines: an innermost loop closed by a guarded backward branch
// whose body is one straight-line block (no other branch, call, return or exit in it) of at most
// `maxBody` PTX instructions, holding a barrier and a read-only global load (ld.global.nc), and
// whose induction variable steps by an immediate (`notUnrolled` holds the back edges of the
// loops that step by a register: ptxas does not unroll those).
void addPipelinedLoops(const isa::FunctionCode& f, uint32_t maxBody,
                       const std::unordered_set<const isa::Inst*>& notUnrolled,
                       PipelinedLoops& out);

}  // namespace warpsim::sim::timing
