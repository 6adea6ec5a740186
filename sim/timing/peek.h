// The instruction a warp will issue next, read from its SIMT stack without changing it: what
// the scheduler checks the scoreboard and the units against before it steps the warp.
#pragma once

#include "sim/func/warp.h"

namespace warpsim::sim::timing {

// The path (SIMT entry) the warp's next instruction runs on; nullptr when the warp is done or
// about to return from a device function (its next pc is the caller's).
const SimtEntry* nextPath(const Warp& w);

// The instruction at `path`'s pc (nextPath's answer); nullptr for no path or a pc past the
// function's end.
const isa::Inst* instructionAt(const Warp& w, const SimtEntry* path);

// nullptr when the warp is done or about to return from a device function (its next pc is the
// caller's; the check is skipped for that one instruction).
inline const isa::Inst* nextInstruction(const Warp& w) { return instructionAt(w, nextPath(w)); }

}  // namespace warpsim::sim::timing
