// HBM as one queue: requests are served in arrival order at `bytesPerCycle`, each after the
// load-to-use latency; a burst of misses waits its turn (bandwidth), a lone miss pays latency.
#pragma once

#include <cstdint>

namespace warpsim::sim::timing {

class Dram {
 public:
  Dram(uint32_t latency, double bytesPerCycle) : latency_(latency), bytesPerCycle_(bytesPerCycle) {}
  // A read of `bytes` asked for at `now`: the cycle its data reaches the SM.
  uint64_t read(uint64_t now, uint32_t bytes);
  // A write-back of `bytes` at `now`: it takes bandwidth, nobody waits for it.
  void write(uint64_t now, uint32_t bytes);

 private:
  double serve(uint64_t now, uint32_t bytes);
  uint32_t latency_;
  double bytesPerCycle_;
  double nextFree_ = 0;
};

}  // namespace warpsim::sim::timing
