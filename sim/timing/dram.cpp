#include "sim/timing/dram.h"

#include <algorithm>

namespace warpsim::sim::timing {

namespace {

// The server of the `n`-th request: a full-avalanche mix (splitmix64's finalizer) of the
// count, so that requests meet their servers as random ones would, whatever their pattern (the
// chip's rate moves at most 9% with the pattern, FIDELITY "HBM against the number of streams
// read", while its latency grows with the load for every pattern; a hash of the address that
// spread neighbours perfectly left a stream with no wait at all). Not of the address: a
// prediction must not depend on where the buffers were allocated.
uint32_t serverOf(uint64_t n, size_t servers) {
  uint64_t h = n + 0x9e3779b97f4a7c15ull;
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  h ^= h >> 31;
  return uint32_t((h >> 32) * servers >> 32);
}

}  // namespace

Dram::Dram(uint32_t latency, double bytesPerCycle, uint32_t banks, double bankCycles)
    : latency_(latency),
      bytesPerCycle_(bytesPerCycle),
      bankCycles_(bankCycles),
      bankFree_(bankCycles > 0 ? banks : 0, 0.0) {}

double Dram::serve(uint64_t now, uint32_t bank, uint32_t bytes) {
  // The data path first, in arrival order (requests come in time order; a request that then
  // waits for its server does not hold the path for those behind it), then the server.
  double start = std::max(double(now), nextFree_);
  nextFree_ = start + bytes / bytesPerCycle_;
  if (!bankFree_.empty()) {
    double& free = bankFree_[bank];
    start = std::max(start, free);
    free = start + bankCycles_;
  }
  return start;
}

uint64_t Dram::read(uint64_t now, uint32_t bytes) {
  const uint32_t bank = bankFree_.empty() ? 0 : serverOf(requests_++, bankFree_.size());
  // A request starts in the cycle its turn comes (several share a cycle while bandwidth lasts).
  return uint64_t(serve(now, bank, bytes)) + latency_;
}

void Dram::write(uint64_t now, uint32_t bytes) {
  if (bankFree_.empty()) {
    serve(now, 0, bytes);
    return;
  }
  for (uint32_t done = 0; done < bytes; done += 32)
    serve(now, serverOf(requests_++, bankFree_.size()), std::min(32u, bytes - done));
}

}  // namespace warpsim::sim::timing
