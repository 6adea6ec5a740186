// Runs every CTA of a launch: in parallel on the host's cores through TBB, or one at a time
// in order (serial mode). A race-free kernel gives the same result either way.
#pragma once

#include "sim/func/cta.h"

namespace warpsim::sim {

// Runs the launch described by `ctx` and returns its statistics, printf text and first fault
// (the fault of the lowest-numbered faulting CTA, so that reports are deterministic).
LaunchResult runGrid(LaunchContext& ctx);

}  // namespace warpsim::sim
