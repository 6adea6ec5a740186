// A warp's cp.async copies in the timing model: when each of its commit groups lands in shared
// memory, so that cp.async.wait_group N holds the warp until all but its N newest groups have
// (the SASS's LDGDEPBAR closes a group, DEPBAR.LE SB0, N waits). PTX keeps the groups per thread;
// the warp's lanes commit and wait together in the code ptxas compiles (a uniform
// __pipeline_commit / __pipeline_wait_prior), so one warp-wide list stands for them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace warpsim::sim::timing {

class AsyncGroups {
 public:
  // A copy of the open group lands at cycle `at`.
  void copy(uint64_t at) { open_ = std::max(open_, at); }
  // commit_group: the open group (empty or not) becomes the newest closed one.
  void commit() {
    closed_.push_back(open_);
    open_ = 0;
  }
  // wait_group `pending`: the cycle by which every closed group but the `pending` newest has
  // landed (0 when none is left to wait for); those groups are done with.
  uint64_t wait(uint32_t pending) {
    if (closed_.size() <= pending) return 0;
    const auto last = closed_.end() - pending;
    const uint64_t at = *std::max_element(closed_.begin(), last);
    closed_.erase(closed_.begin(), last);
    return at;
  }
  // The warp starts (again) with nothing in flight.
  void clear() {
    open_ = 0;
    closed_.clear();
  }

 private:
  uint64_t open_ = 0;
  std::vector<uint64_t> closed_;  // oldest first
};

}  // namespace warpsim::sim::timing
