// The cluster barrier's counting, and the hand-off that wakes the member CTAs' waiting warps.
#include "sim/func/cluster.h"

#include "sim/func/cta.h"

namespace warpsim::sim {

void Cluster::reset(std::span<Cta* const> members) {
  members_.assign(members.begin(), members.end());
  live_ = arrived_ = 0;
  phase_ = 0;
  for (const Cta* c : members_) live_ += c->info().threads;
}

void Cluster::arrive(uint32_t threads) {
  arrived_ += threads;
  tryComplete();
}

void Cluster::exited(uint32_t threads, uint32_t arrivedAmong) {
  live_ -= threads;
  arrived_ -= arrivedAmong;
  tryComplete();
}

void Cluster::tryComplete() {
  // A phase nobody arrived in does not complete when the last threads exit.
  if (arrived_ == 0 || arrived_ < live_) return;
  arrived_ = 0;
  ++phase_;
  for (Cta* c : members_) c->releaseClusterWaiters(phase_);
}

std::string Cluster::progress() const {
  return std::to_string(arrived_) + " of " + std::to_string(live_) +
         " live threads of the cluster's " + std::to_string(size()) + " CTAs arrived";
}

}  // namespace warpsim::sim
