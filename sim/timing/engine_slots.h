// The engine's records of CTAs and clusters in flight (engine.cpp, engine_clusters.cpp).
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/func/cluster.h"
#include "sim/func/cta.h"
#include "sim/timing/engine.h"

namespace warpsim::sim::timing {

// A CTA in flight: its functional state, the observers the launch asked for, and the probe
// through which the engine sees its events.
struct Engine::CtaSlot {
  std::unique_ptr<Cta> cta;
  uint64_t index = 0;
  uint32_t sm = 0;
  std::vector<uint32_t> warps;  // WarpCtx index per warp of the CTA
  unsigned live = 0;
  uint64_t issued = 0;  // warp-instructions, against the watchdog's budget for the CTA
  std::vector<std::unique_ptr<Observer>> observers;  // one per factory
  std::unique_ptr<Probe> probe;
  std::unique_ptr<ObserverList> list;
  ClusterRun* run = nullptr;  // its cluster, in a launch of clusters of more than one CTA
  bool finished = false;      // its warps are done (a cluster's CTAs are kept until all are)
  // Its mbarriers (by shared offset) that bulk copies complete: when their bytes have landed
  // (Engine::bulkAccess), which an mbarrier wait on them waits for.
  std::unordered_map<uint64_t, uint64_t> bulkLanded;
};

// A cluster of more than one CTA in flight: its CTAs' slots by rank, joined in one Cluster.
struct Engine::ClusterRun {
  uint64_t index = 0;  // the cluster's, in cluster order over the grid
  Cluster cluster;
  std::vector<uint32_t> slots;
  unsigned live = 0;   // CTAs not finished
  uint32_t phase = 0;  // the cluster barrier's phase when its waiters were last released
  // When that phase's waiters go on: a warp whose barrier.cluster.wait comes after the phase
  // completed does not wait at all in the functional core, but no sooner than this here.
  uint64_t releasedAt = 0;
};

}  // namespace warpsim::sim::timing
