#include "sim/timing/dram.h"

#include <algorithm>

namespace warpsim::sim::timing {

double Dram::serve(uint64_t now, uint32_t bytes) {
  const double start = std::max(double(now), nextFree_);
  nextFree_ = start + bytes / bytesPerCycle_;
  return start;
}

uint64_t Dram::read(uint64_t now, uint32_t bytes) {
  // A request starts in the cycle its turn comes (several share a cycle while bandwidth lasts).
  return uint64_t(serve(now, bytes)) + latency_;
}

void Dram::write(uint64_t now, uint32_t bytes) { serve(now, bytes); }

}  // namespace warpsim::sim::timing
