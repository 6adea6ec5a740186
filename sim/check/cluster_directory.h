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

}  // namespace warpsim::check
