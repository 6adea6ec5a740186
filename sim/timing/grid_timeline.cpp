#include "sim/timing/grid_timeline.h"

#include <algorithm>

namespace warpsim::sim::timing {

void GridTimeline::place(uint32_t depth, uint64_t cycles, uint64_t latency,
                         std::vector<Launch> launches) {
  const uint64_t run = cycles > latency ? cycles - latency : 0;
  Level grid;
  grid.children.assign(launches.begin(), launches.end());
  if (depth == 0 || levels_.size() < depth) {
    levels_.clear();
    grid.origin = latency;
  } else {
    Level& parent = levels_[depth - 1];
    Launch made{0, true};  // a child the parent did not record: after it
    if (!parent.children.empty()) {
      made = parent.children.front();
      parent.children.pop_front();
    }
    const uint64_t launchedAt = made.afterParent ? parent.end : parent.origin + made.at;
    grid.origin = launchedAt + deviceLatency_;
  }
  grid.end = grid.origin + run;
  levels_.resize(depth);
  levels_.push_back(std::move(grid));
  // Its ancestors end no sooner than it does.
  for (uint32_t d = depth; d-- > 0;) levels_[d].end = std::max(levels_[d].end, levels_[depth].end);
}

}  // namespace warpsim::sim::timing
