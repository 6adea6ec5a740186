#include "sim/timing/l2.h"

#include <algorithm>

namespace warpsim::sim::timing {

L2::L2(const TimingConfig& c)
    : cache_(uint64_t(c.l2SizeKb) * 1024, c.l2LineBytes, c.l2Ways),
      dram_(c.dramLatency, c.dramBytesPerCycle),
      hitLatency_(c.l2HitLatency),
      atomicLatency_(c.atomicL2Latency),
      bytesPerCycle_(c.l2BytesPerCycle),
      sameAddressCycles_(c.atomicL2SameAddressCycles),
      laneCycles_(c.atomicL2LaneCycles) {}

uint64_t L2::atomic(uint64_t addr, uint32_t lanes, uint64_t now, MemoryCounters& m) {
  uint64_t& free = atomicFree_[addr];
  uint64_t at = std::max(now, free), ready = 0;
  for (uint32_t k = 0; k < lanes; ++k, at += laneCycles_) {
    ++m.l2AtomicOps;
    ready = std::max(ready, access(addr / 32 * 32, L2Op::Atomic, at, m));
  }
  free = at - laneCycles_ + sameAddressCycles_;
  return ready;
}

uint64_t L2::access(uint64_t sector, L2Op op, uint64_t now, MemoryCounters& m, uint32_t slots) {
  // The slice's bandwidth: sectors are served in arrival order.
  const double start = std::max(double(now), nextFree_);
  nextFree_ = start + 32.0 * slots / bytesPerCycle_;
  const uint64_t at = uint64_t(start);  // the cycle its turn comes
  const uint64_t extra = op == L2Op::Atomic ? atomicLatency_ : 0;
  (op == L2Op::Read ? m.l2ReadSectors : op == L2Op::Write ? m.l2WriteSectors : m.l2AtomicSectors)++;
  const uint64_t ready = cache_.lookup(sector, at);
  if (ready != ~0ull) {
    ++m.l2Hits;
    if (op != L2Op::Read) cache_.fill(sector, std::max(ready, at), true, at);
    return std::max(at + hitLatency_, ready) + extra;
  }
  ++m.l2Misses;
  uint64_t done;
  if (op == L2Op::Write) {
    done = at + hitLatency_;  // a full-sector write allocates without reading DRAM
  } else {
    done = dram_.read(at, 32);
    m.dramReadBytes += 32;
  }
  const uint32_t writeBacks = cache_.fill(sector, done, op != L2Op::Read, at);
  if (writeBacks) {
    dram_.write(at, 32 * writeBacks);
    m.dramWriteBytes += 32ull * writeBacks;
  }
  return done + extra;
}

}  // namespace warpsim::sim::timing
