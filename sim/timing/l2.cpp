#include "sim/timing/l2.h"

#include <algorithm>

namespace warpsim::sim::timing {

L2::L2(const TimingConfig& c)
    : smCount_(c.smCount),
      lineBytes_(c.l2LineBytes),
      dram_(c.dramLatency, c.dramBytesPerCycle, c.dramBanks, c.dramBankCycles),
      hitLatency_(c.l2HitLatency),
      atomicLatency_(c.atomicL2Latency),
      bytesPerCycle_(c.l2BytesPerCycle),
      farLookupSlots_(c.l2FarLookupSlots),
      sameAddressCycles_(c.atomicL2SameAddressCycles),
      laneCycles_(c.atomicL2LaneCycles) {
  for (uint32_t p = 0; p < c.l2Partitions; ++p)
    parts_.emplace_back(uint64_t(c.l2SizeKb) * 1024 / c.l2Partitions, c.l2LineBytes, c.l2Ways);
}

uint32_t L2::nearPartition(uint32_t sm) const {
  return uint32_t(uint64_t(sm) * parts_.size() / std::max(1u, smCount_));
}

uint32_t L2::homeOf(uint64_t sector) const {
  // The parity of the line number's bits: neighbouring lines, and lines a power of two apart,
  // alternate homes (a hardware-style XOR hash; NVIDIA's is not published).
  return parts_.size() == 1 ? 0
                            : uint32_t(__builtin_popcountll(sector / lineBytes_) % parts_.size());
}

void L2::writeBack(uint32_t sectors, uint64_t at, MemoryCounters& m) {
  if (!sectors) return;
  dram_.write(at, 32 * sectors);
  m.dramWriteBytes += 32ull * sectors;
}

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

uint64_t L2::access(uint64_t sector, L2Op op, uint64_t now, MemoryCounters& m, double slots,
                    uint32_t near) {
  // The slice's bandwidth: sectors are served in arrival order, each taking its slots of it
  // (an access from the far half that its near half cannot serve is looked up in both).
  const double start = std::max(double(now), nextFree_);
  const uint64_t at = uint64_t(start);  // the cycle its turn comes
  const uint64_t extra = op == L2Op::Atomic ? atomicLatency_ : 0;
  (op == L2Op::Read ? m.l2ReadSectors : op == L2Op::Write ? m.l2WriteSectors : m.l2AtomicSectors)++;
  const uint32_t h = homeOf(sector);
  const bool far = near != kHome && near != h;
  if (op != L2Op::Read || !far) {
    nextFree_ = start + 32.0 * slots * (far ? farLookupSlots_ : 1.0) / bytesPerCycle_;
    return home(parts_[h], sector, op, at, m) + extra;
  }
  // A read from the other partition: its near copy, else the home's data, copied near.
  SectorCache& copy = parts_[near];
  const uint64_t ready = copy.lookup(sector, at);
  if (ready != ~0ull) {
    nextFree_ = start + 32.0 * slots / bytesPerCycle_;
    ++m.l2Hits;
    return std::max(at + hitLatency_, ready);
  }
  nextFree_ = start + 32.0 * slots * farLookupSlots_ / bytesPerCycle_;
  const uint64_t done = home(parts_[h], sector, op, at, m);
  writeBack(copy.fill(sector, done, false, at), at, m);
  return done;
}

uint64_t L2::home(SectorCache& cache, uint64_t sector, L2Op op, uint64_t at, MemoryCounters& m) {
  const uint64_t ready = cache.lookup(sector, at);
  if (ready != ~0ull) {
    ++m.l2Hits;
    if (op != L2Op::Read) cache.fill(sector, std::max(ready, at), true, at);
    return std::max(at + hitLatency_, ready);
  }
  ++m.l2Misses;
  uint64_t done;
  if (op == L2Op::Write) {
    done = at + hitLatency_;  // a full-sector write allocates without reading DRAM
  } else {
    done = dram_.read(at, 32);
    m.dramReadBytes += 32;
  }
  writeBack(cache.fill(sector, done, op != L2Op::Read, at), at, m);
  return done;
}

}  // namespace warpsim::sim::timing
