// The co-scheduled group driver: CTAs that must be resident at once, because they wait for one
// another, run together. A group is one thread-block cluster (its CTAs see one another's shared
// memory and share barrier.cluster) or, for a cooperative launch, the whole grid (its CTAs
// spin on a grid-sync workspace in global memory). A group's CTAs are started together and
// stepped round-robin on one host thread, every ready warp of every CTA a slice in turn, until
// all finish; so a CTA that spins waiting for another yields to it after its slice and the
// group completes (a spin that never ends meets the watchdog, as in any CTA). When no warp of
// the group can go on, the group deadlocks, and the fault names every CTA's warps' waits.
// Groups run in parallel through TBB, like the CTAs of an ordinary launch, and the results do
// not depend on the host thread count: a group runs the same way on any thread.
#pragma once

#include "sim/func/cta.h"

namespace warpsim::sim {

// The linear index of the CTA of rank `rank` (x fastest within the cluster shape) of cluster
// `cluster` (x fastest over the grid of clusters).
uint64_t ctaOfCluster(const LaunchContext& ctx, uint64_t cluster, uint64_t rank);

// Reports a co-scheduled group of `members` (a cluster, or a cooperative grid) in which no warp
// can go on: a barrier-deadlock fault raised through its first unfinished CTA, naming every
// unfinished CTA's waits. The functional driver and the timing model report it alike.
[[noreturn]] void failGroupDeadlock(const std::vector<Cta*>& members, bool cooperative);

// Whether the launch needs co-scheduled groups (clusters of more than one CTA, or cooperative).
bool needsGroups(const LaunchContext& ctx);

// Runs the launch group by group. Printf text, the reported fault and the observers come out
// in group order and, within a group, in rank order (cluster order then rank for a
// cooperative launch with clusters): CTA order when clusters are one-dimensional.
LaunchResult runGroups(LaunchContext& ctx, const std::vector<ObserverFactory*>& factories);

}  // namespace warpsim::sim
