// Where the grids of one host launch lie in time when its kernel launches grids from the device
// (dynamic parallelism). The functional core runs each child grid after its parent, one after
// another (sim/gpu.cpp); on the chip a child starts launch.device_latency after its parent's
// cudaLaunchDevice, alongside its parent and its siblings, and the host's launch ends when the
// last of them does. Each grid is timed alone (the SMs the others hold are not taken from it:
// cdp_quicksort's grids are one thread each); the timeline places them.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace warpsim::sim::timing {

class GridTimeline {
 public:
  explicit GridTimeline(uint64_t deviceLatency) : deviceLatency_(deviceLatency) {}
  // A grid launched from the device: made at `at` cycles of its parent's run (from its first
  // CTA's start), or, when `afterParent` (a tail launch, or a launch the model did not time),
  // once its parent and the children run before it have ended.
  struct Launch {
    uint64_t at = 0;
    bool afterParent = false;
  };
  // Places the next grid to run at `depth` (0: the host's, which starts a new timeline; n: the
  // next child of the last grid placed at depth n - 1, in the order the functional core runs
  // them). It ran `cycles` from its start, `latency` of them before its first CTA (the host
  // launch's; a child's is replaced by launch.device_latency), and made `launches` (in the
  // order the functional core will run them).
  void place(uint32_t depth, uint64_t cycles, uint64_t latency, std::vector<Launch> launches);
  // The host launch's end: its grid's and every descendant's.
  uint64_t end() const { return levels_.empty() ? 0 : levels_[0].end; }

 private:
  struct Level {
    uint64_t origin = 0;          // the absolute cycle of the grid's first CTA's start
    uint64_t end = 0;             // the grid's end, and its descendants' placed so far
    std::deque<Launch> children;  // its children not placed yet
  };
  uint64_t deviceLatency_;
  std::vector<Level> levels_;  // the grid last placed at each depth
};

}  // namespace warpsim::sim::timing
