// A thread-block cluster in flight: the CTAs that run together (by rank), their shared memory
// seen from one another (distributed shared memory) and the cluster barrier
// (barrier.cluster.arrive / .wait). The co-scheduled group driver (group.h) makes one per
// cluster and steps its CTAs on one host thread; an ordinary launch gives each CTA a cluster of
// one, its own, so that mapa, getctarank and barrier.cluster mean what they do on the chip
// without cluster dimensions.
//
// Addresses. A shared::cta address (0 .. the CTA's shared bytes) is also the shared::cluster
// address of the executing CTA's own variable; the address of offset o in the CTA of rank r is
// (r + 1) * 2^24 + o (a CTA has at most 227 KiB of shared memory, far below 2^24). A generic
// address into another CTA's shared memory is that address in the shared window
// (kSharedWindow + address), as mapa on a generic address returns it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/func/geometry.h"

namespace warpsim::sim {

class Cta;

inline constexpr unsigned kClusterRankShift = 24;
inline constexpr uint64_t kClusterOffsetMask = (uint64_t(1) << kClusterRankShift) - 1;

// The shared::cluster address of offset `offset` of the CTA of rank `rank`.
inline uint64_t clusterAddress(unsigned rank, uint64_t offset) {
  return (uint64_t(rank) + 1) << kClusterRankShift | (offset & kClusterOffsetMask);
}
// Whether a shared::cluster address names a rank (else it is the executing CTA's own).
inline bool namesRank(uint64_t address) { return address > kClusterOffsetMask; }
inline unsigned rankOfClusterAddress(uint64_t address) {
  return unsigned((address >> kClusterRankShift) - 1);
}

// The rank of the CTA at `ctaid` in clusters of shape `cluster` (x fastest), and its position.
inline ThreadPos clusterPosition(const Dim3& cluster, const ThreadPos& ctaid) {
  return {ctaid.x % cluster.x, ctaid.y % cluster.y, ctaid.z % cluster.z};
}
inline unsigned clusterRank(const Dim3& cluster, const ThreadPos& ctaid) {
  const ThreadPos p = clusterPosition(cluster, ctaid);
  return unsigned(p.x + uint64_t(p.y) * cluster.x + uint64_t(p.z) * cluster.x * cluster.y);
}

class Cluster {
 public:
  // Makes the cluster of `members` (by rank; each started) with barrier phase 0. The members'
  // list keeps its storage: every CTA of an ordinary launch resets its cluster of one.
  void reset(std::span<Cta* const> members);
  unsigned size() const { return unsigned(members_.size()); }
  Cta& member(unsigned rank) const { return *members_[rank]; }

  // The cluster barrier: phases complete one after another; a warp that arrived during phase
  // p waits until phase() > p.
  uint32_t phase() const { return phase_; }
  // `threads` threads arrive; when every live thread of the cluster has, the phase completes
  // and the members' warps waiting for it are made ready.
  void arrive(uint32_t threads);
  // `threads` threads exited, `arrivedAmong` of them after arriving in the current phase: they
  // are no longer waited for.
  void exited(uint32_t threads, uint32_t arrivedAmong);
  // "N of M threads of the cluster arrived" for the wait report.
  std::string progress() const;

 private:
  void tryComplete();
  std::vector<Cta*> members_;
  uint64_t live_ = 0, arrived_ = 0;
  uint32_t phase_ = 0;
};

}  // namespace warpsim::sim
