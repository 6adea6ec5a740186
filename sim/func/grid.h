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

// The host threads that run a launch whose CTAs run `ctasTogether` at a time on each (one for
// runGrid, a group's CTAs for runGroups): one in serial mode, and one when the kernel calls
// malloc or free or launches kernels, so that heap addresses and the order of child grids do
// not depend on the host thread count (device_heap.h, device_launch.h); else the options' count
// or the host's cores. Each CTA in flight holds its threads' .local memory on the host (up to
// 512 KiB a thread), so no more run side by side than the device memory holds: the host memory
// a launch takes does not grow with the host's cores.
unsigned launchHostThreads(const LaunchContext& ctx, uint64_t ctasTogether);

}  // namespace warpsim::sim
