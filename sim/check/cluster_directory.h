// The observers of the CTAs of each running cluster, by rank, so that a checker's observer can
// reach the shadow of another CTA of its cluster (distributed shared memory, and TMA multicast,
// write there). A cluster's CTAs run on one host thread (sim/func/group.h), so a member may
// read and write another's state without locks; only entering and leaving take the lock, since
// different clusters run on different threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "sim/func/cluster.h"
#include "sim/observer.h"

namespace warpsim::check {

// The cluster a CTA belongs to, as a key unique within its launch.
inline uint64_t clusterKeyOf(const sim::CtaInfo& c) {
  const uint64_t gx = c.grid.x / c.cluster.x, gy = c.grid.y / c.cluster.y;
  return (uint64_t(c.id.z / c.cluster.z) * gy + c.id.y / c.cluster.y) * gx + c.id.x / c.cluster.x;
}

template <class O>
class ClusterDirectory {
 public:
  // Enters `o` as the CTA of rank `rank` of cluster `key` (`size` CTAs); returns the members by
  // rank (null: not started or finished), which stays valid until every member has left.
  std::vector<O*>* join(uint64_t key, unsigned size, unsigned rank, O* o) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<O*>& members = clusters_[key];
    if (members.size() < size) members.resize(size, nullptr);
    members[rank] = o;
    return &members;  // stays put: unordered_map never moves its elements
  }
  void leave(uint64_t key, unsigned rank) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = clusters_.find(key);
    if (it == clusters_.end()) return;
    it->second[rank] = nullptr;
    if (std::all_of(it->second.begin(), it->second.end(), [](O* p) { return !p; }))
      clusters_.erase(it);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::vector<O*>> clusters_;
};

// One CTA's place in its cluster, as a checker's observer holds it: its rank, and while it runs
// the cluster's members by rank (taken when the CTA starts, left when it finishes).
template <class O>
class ClusterSeat {
 public:
  // Seats `self`, the observer of CTA `c`, in `directory` (null: other CTAs are not followed,
  // each CTA is alone).
  void take(ClusterDirectory<O>* directory, const sim::CtaInfo& c, O* self) {
    self_ = self;
    rank_ = sim::clusterRank(c.cluster, c.id);
    const unsigned size = unsigned(c.cluster.count());
    if (size > 1 && directory) {
      directory_ = directory;
      key_ = clusterKeyOf(c);
      members_ = directory->join(key_, size, rank_, self);
    }
  }
  void leave() {
    if (members_) directory_->leave(key_, rank_);
    members_ = nullptr;
  }
  unsigned rank() const { return rank_; }
  uint64_t key() const { return key_; }
  // Whether the CTA shares a cluster with others (and the directory follows them).
  bool inCluster() const { return members_ != nullptr; }
  // The observer of the CTA of rank `rank`: this one for its own rank, null for a CTA of the
  // cluster that has not started or has finished.
  O* member(unsigned rank) const {
    if (rank == rank_) return self_;
    return members_ && rank < members_->size() ? (*members_)[rank] : nullptr;
  }

 private:
  ClusterDirectory<O>* directory_ = nullptr;
  O* self_ = nullptr;
  std::vector<O*>* members_ = nullptr;
  uint64_t key_ = 0;
  unsigned rank_ = 0;
};

}  // namespace warpsim::check
