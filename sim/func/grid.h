// The functional driver: runs every CTA of a launch, in parallel on the host's cores through TBB
// or one at a time in order (serial mode), warps round-robin within a CTA. A race-free kernel
// gives the same result either way.
#pragma once

#include "sim/func/cta.h"

namespace warpsim::sim {

// Runs the launch described by `ctx` and returns its printf text and first fault (the fault of
// the lowest-numbered faulting CTA, so that reports are deterministic). Each factory makes an
// observer per CTA and receives it back, in CTA order, when the CTA is done.
LaunchResult runGrid(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories);

}  // namespace warpsim::sim
