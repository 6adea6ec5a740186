// The instruction a warp will issue next, read from its SIMT stack without changing it: what
// the scheduler checks the scoreboard and the units against before it steps the warp.
#pragma once

#include "sim/func/warp.h"

namespace warpsim::sim::timing {

// The path (SIMT entry) the warp's next instruction runs on; nullptr when the warp is done or
// about to return from a device function (its next pc is the caller's).
const SimtEntry* nextPath(const Warp& w);

// nullptr when the warp is done or about to return from a device function (its next pc is the
// caller's; the check is skipped for that one instruction).
const isa::Inst* nextInstruction(const Warp& w);

}  // namespace warpsim::sim::timing
