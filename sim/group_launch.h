// The launch checks of clusters and cooperative launches (the chip's errors, by name), and the
// context fields they set for the group driver (sim/func/group.h).
#pragma once

#include "sim/func/cta.h"

namespace warpsim::sim {

// Throws LaunchError when the cluster shape or the cooperative grid is one the H200 refuses;
// otherwise sets ctx.cluster, ctx.explicitCluster and ctx.cooperative.
void configureGroups(const LaunchConfig& config, const isa::FunctionCode& fn,
                     const DeviceLimits& limits, LaunchContext& ctx);

}  // namespace warpsim::sim
