// Schedule exploration: the orders the programming model leaves open, chosen from a seed instead
// of the functional driver's fixed ones. A correct kernel gives the same bytes under every
// schedule; one whose output changes has a race (or an order-dependent atomic) somewhere.
//
// What a schedule chooses, each a legal execution of the PTX on the hardware:
//  - the order in which a launch's CTAs run (one at a time, so that one CTA's writes land before
//    the next one reads: the order, not the host's threads, decides who wins);
//  - within a CTA, the order of the ready warps in each round and how many instructions each
//    runs before the next is picked (1 .. maxSlice): fine interleavings between barriers;
//  - which side of a divergent branch runs first (both meet at the reconvergence point, so the
//    order between them is not defined by the program);
//  - the order in which warps released by a barrier resume (they are ready in the same round,
//    and the round's order is drawn again).
// Schedule seed 0 is the driver's fixed order; LaunchOptions::schedule unset is that too, at no
// cost. Every draw comes from a generator seeded by (seed, CTA index), so a schedule is the same
// whatever the host thread count, and `--schedule-seed X` reproduces it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace warpsim::sim {

struct SchedulePolicy {
  uint64_t seed = 0;       // never 0 in a policy: seed 0 is the fixed order, with no policy
  uint32_t maxSlice = 64;  // the longest run of one warp before another is picked
};

// The seed of schedule `index` (1, 2, ...) of an exploration seeded by `explorationSeed`: never
// 0, below 2^53 (JSON readers hold it exactly).
uint64_t scheduleSeed(uint64_t explorationSeed, uint64_t index);

// The order in which the `count` CTAs starting at `first` run under `policy` (a permutation).
std::vector<uint64_t> ctaOrder(const SchedulePolicy& policy, uint64_t first, uint64_t count);

// One CTA's draws: a splitmix64 stream seeded by the policy's seed and the CTA's index.
class CtaSchedule {
 public:
  CtaSchedule(const SchedulePolicy& policy, uint64_t ctaLinear);
  // Shuffles `order` (the warps of the next round).
  void shuffle(std::vector<unsigned>& order);
  // Instructions the next warp runs before the next one is picked: half the time 1 to 4 (a
  // race window is often a load and a store a few instructions apart), else up to maxSlice.
  uint32_t slice() {
    const uint64_t r = next();
    return 1 + uint32_t((r >> 1) % ((r & 1) ? std::min<uint32_t>(4, maxSlice_) : maxSlice_));
  }
  // Whether the taken side of a divergent branch runs first (as in the fixed order).
  bool takenFirst() { return (next() & 1) != 0; }

 private:
  uint64_t next();
  uint64_t state_;
  uint32_t maxSlice_;
};

}  // namespace warpsim::sim
