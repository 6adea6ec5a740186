// ptxas's if-conversion: a short forward branch over a straight-line body becomes predicated
// code in SASS (scan_blelloch's and the interleaved/sequential reductions' `if (tid < d)`
// levels: `@!P LDS; @!P LDS; @!P IADD; @!P STS` with no BRA, cuobjdump -sass of their cubins).
// So the chip has no branch to resolve there, and a warp whose lanes all skip the body still
// issues it, its lanes off: its shared loads and stores take MIO slots without wavefronts and
// its consumers wait for them (ncu: 2.8-5x the PTX warps' shared load instructions, the
// wavefronts only those of the lanes on).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "isa/program.h"

namespace warpsim::sim::timing {

// Whether ptxas predicates `f`'s branch at `pc`: a guarded forward branch whose body (the
// instructions up to its target) has 1..maxBody instructions, none of them a branch, call,
// return, exit, barrier or warp-synchronous instruction, no other branch into it, and whose
// target is not a return or exit (that branch becomes a predicated EXIT).
bool ifConverted(const isa::FunctionCode& f, uint32_t pc, uint32_t maxBody);

// The branches of `f` that ptxas predicates (ifConverted), by address, each with the pcs of
// its body that are SASS instructions (what folds.h folds away left out).
using PredicatedBodies = std::unordered_map<const isa::Inst*, std::vector<uint32_t>>;
void addIfConverted(const isa::FunctionCode& f, uint32_t maxBody, PredicatedBodies& out);

}  // namespace warpsim::sim::timing
