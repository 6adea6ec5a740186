// Hands thread-block clusters to GPCs. The CTAs of a cluster run at once on SMs of one GPC
// (CUDA programming guide, "Thread Block Clusters": "thread blocks in a cluster are guaranteed
// to be co-scheduled on a GPU Processing Cluster"), so a cluster starts only when one GPC has a
// free CTA slot for each of its CTAs. Clusters start in order; each goes to the GPC with the
// most free slots (the lowest on a tie), and its CTAs, rank by rank, to that GPC's SMs with the
// most free slots (the lowest SM on a tie): the first wave spreads over the GPCs and their SMs
// as CtaDispatcher's breadth-first order spreads single CTAs over the SMs. A finished CTA frees
// its slot at once; the next cluster waits until some GPC has room for all of its CTAs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace warpsim::sim::timing {

// The SMs of each GPC, in SM order (GPC g holds the next gpcs[g] SMs), from sm.gpcs' text
// "18,18,16,...". Throws ConfigError naming the key when a count is not a positive integer or
// the counts do not add up to `smCount`.
std::vector<uint32_t> parseGpcs(const std::string& text, uint32_t smCount);

class ClusterDispatcher {
 public:
  // `clusters` clusters of `clusterSize` CTAs; `gpcs`: SMs per GPC; `ctasPerSm`: the occupancy.
  ClusterDispatcher(uint64_t clusters, uint32_t clusterSize, std::vector<uint32_t> gpcs,
                    uint32_t ctasPerSm);
  // The next cluster, if it fits now: the SM of each of its CTAs, by rank (the slots taken).
  struct Placement {
    uint64_t cluster = 0;
    std::vector<uint32_t> sms;
  };
  std::optional<Placement> next();
  // A CTA on `sm` finished: its slot is free.
  void release(uint32_t sm);
  // How many clusters fit the chip at once (0: a cluster fits no GPC).
  uint64_t clustersAtOnce() const;
  // Waves of clusters the grid needs.
  uint64_t waves() const;

 private:
  uint64_t clusters_, next_ = 0;
  uint32_t size_, perSm_;
  std::vector<uint32_t> gpcFirst_, gpcSms_;  // each GPC's first SM and its SM count
  std::vector<uint32_t> freeSlots_;          // per SM
};

}  // namespace warpsim::sim::timing
