#include "sim/timing/l1.h"

#include <algorithm>
#include <cmath>

#include "sim/observers/access_cost.h"
#include "sim/timing/memory_order.h"

namespace warpsim::sim::timing {

L1::L1(const TimingConfig& c, uint64_t capacity, uint32_t l2Partition)
    : c_(c), cache_(capacity, c.l1LineBytes, c.l1Ways), l2Partition_(l2Partition) {}

AccessTiming L1::access(const MemoryEvent& e, isa::Space landed, uint64_t localKey, uint64_t now,
                        L2& l2, MemoryCounters& m, uint64_t* drainAt) {
  // The distinct sectors, in lane order. Local memory is interleaved by the hardware so that
  // the same offset of a warp's 32 threads is contiguous: lane l's word at offset o lands at
  // o * 32 + l * bytes of the warp's own region.
  sectors_.clear();
  sectorBytes_.clear();
  for (uint32_t mask = e.mask; mask; mask &= mask - 1) {
    const unsigned lane = unsigned(__builtin_ctz(mask));
    uint64_t a = e.addresses[lane];
    // Each warp's region starts an odd number of lines from the next (2^24 + 3 lines), not a
    // power of two apart: the caches' set hash must not fold every warp's stack onto the same
    // few sets (at << 40 all of them fell into three of the L2's 24576 sets).
    if (landed == isa::Space::Local)
      a = localKey * ((uint64_t(1) << 24) + 3) * 128 + (a / e.bytes) * (32ull * e.bytes) +
          lane * e.bytes;
    addrs_[lane] = a;
    for (uint64_t s = a / kSectorBytes; s <= (a + e.bytes - 1) / kSectorBytes; ++s) {
      const uint64_t lo = std::max(a, s * kSectorBytes);
      const uint64_t hi = std::min(a + e.bytes, (s + 1) * kSectorBytes);
      auto it = std::find(sectors_.begin(), sectors_.end(), s);
      if (it == sectors_.end()) {
        sectors_.push_back(s);
        sectorBytes_.push_back(0);
        it = sectors_.end() - 1;
      }
      sectorBytes_[size_t(it - sectors_.begin())] += unsigned(hi - lo);  // lanes write apart
    }
  }
  const uint64_t n = sectors_.size();
  // The request in the L1 (tests/recorded/timing/h100_l1.tsv, micro_l1_lines): the tag stage
  // takes l1.tag_lines_per_cycle of its lines a cycle, and a load's data leaves the 32 banks of
  // 4 bytes one wavefront a cycle (the lanes' distinct words in one bank a wavefront each, as
  // in shared memory). The LSU is busy for the longer; the load's data comes later by a cycle a
  // tag cycle past the first, or by l1.wavefront_latency a wavefront past the first, the larger.
  const uint64_t perLine = std::max<uint64_t>(1, c_.l1LineBytes / kSectorBytes);
  uint64_t lines = 0;
  for (size_t i = 0; i < sectors_.size(); ++i) {
    bool first = true;
    for (size_t j = 0; j < i && first; ++j) first = sectors_[j] / perLine != sectors_[i] / perLine;
    lines += first;
  }
  const uint64_t tagCycles = (lines + c_.l1TagLinesPerCycle - 1) / c_.l1TagLinesPerCycle;
  // The L2 serves it, and the L1 keeps no copy: a strong load beyond the SM, or an access whose
  // cache operator is .cg (ld.global.cg, cp.async.cg: LDGSTS.BYPASS in SASS; st.global.cg).
  const bool strong = strongBeyondTheSm(e) || (e.inst && e.inst->skipsL1);
  // A load through the L1 reads its banks; anything else (a store, an atomic, a load that
  // bypasses the L1) moves its sectors across the same 128-byte path, four a cycle.
  const bool banked = e.kind == AccessKind::Load && !strong;
  const uint64_t wavefronts = banked ? sharedAccessCost(addrs_, e.mask, e.bytes).wavefronts : 1;
  const uint64_t pathCycles = banked ? 0 : (n * kSectorBytes + 127) / 128;
  const uint64_t start = std::max(now, lsuFree_);
  lsuFree_ = start + std::max<uint64_t>({1, tagCycles, wavefronts, pathCycles});
  const uint64_t hitLatency =
      c_.l1HitLatency +
      (banked ? std::max<uint64_t>(
                    tagCycles ? tagCycles - 1 : 0,
                    uint64_t(std::llround(double(wavefronts - 1) * c_.l1WavefrontLatency)))
              : 0);
  AccessTiming r{start + hitLatency, Stall::LongScoreboard};
  if (e.kind == AccessKind::Fence) return r;
  if (e.kind == AccessKind::Load) {
    ++m.globalLoadRequests;
    m.globalLoadSectors += n;
  } else if (e.kind == AccessKind::Store) {
    ++m.globalStoreRequests;
    m.globalStoreSectors += n;
  } else {
    ++m.globalAtomicRequests;
  }
  uint64_t ready = start + hitLatency;
  for (size_t i = 0; i < sectors_.size(); ++i) {
    const uint64_t addr = sectors_[i] * kSectorBytes;
    if (e.kind == AccessKind::Load && strong) {
      ++m.l1Misses;
      ready = std::max(ready, l2.access(addr, L2Op::Read, start, m, 1, l2Partition_));
    } else if (e.kind == AccessKind::Load) {
      const uint64_t hit = cache_.lookup(addr, start);
      if (hit != ~0ull) {
        ++m.l1Hits;
        ready = std::max(ready, std::max(hit, start + hitLatency));
        continue;
      }
      ++m.l1Misses;
      const uint64_t back = l2.access(addr, L2Op::Read, start, m, 1, l2Partition_);
      cache_.fill(addr, back, false, start);
      ready = std::max(ready, back);
    } else if (e.kind == AccessKind::Store) {
      // A partial sector takes one slot and its share of one more, l2.partial_write_slots - 1,
      // with the request's other sectors in its line: transpose_naive's rows (a sector alone in
      // its line) take 2, calls_recursive's frames and micro_store_pitch at pitch 8 (four of a
      // line) 1.25 (tests/recorded/timing/h100_pitch.tsv: 1.55x the rate of the first).
      double slots = 1.0;
      if (sectorBytes_[i] < kSectorBytes) {
        const uint64_t perLine = std::max<uint64_t>(1, c_.l2LineBytes / kSectorBytes);
        const uint64_t line = sectors_[i] / perLine;
        const auto inLine = std::count_if(sectors_.begin(), sectors_.end(),
                                          [&](uint64_t s) { return s / perLine == line; });
        slots = 1.0 + (c_.l2PartialWriteSlots - 1.0) / double(inLine);
      }
      ready = std::max(ready, l2.access(addr, L2Op::Write, start, m, slots, l2Partition_));
      // Local memory is the thread's own: the L1 keeps what it writes, whole sector or not (a
      // spill or a saved frame is read back by the lanes that wrote it: calls_recursive's
      // frames, a few lanes' words a sector, read 2,867 sectors from the L2 on the chip at 2048
      // threads against 916,287 written). A global store allocates the sectors it writes whole
      // (l1.store_allocate): softmax_fast's third pass reloads the row it stored in the second
      // and hits the L1 on the chip (h100_newer.tsv: 2 of its 3 passes' load sectors hit); a
      // .cg store (cached at the L2 only) does not.
      if (landed == isa::Space::Local ||
          (c_.l1StoreAllocate && !strong && sectorBytes_[i] >= kSectorBytes))
        cache_.fill(addr, start + c_.l1HitLatency, false, start);
    }
  }
  // Atomics execute at the L2 one lane at a time; the lanes of this request on one address
  // go together (l2.cpp: they replay there, one after another).
  if (e.kind == AccessKind::Atomic) {
    atomics_.clear();
    for (uint32_t mask = e.mask; mask; mask &= mask - 1) {
      const uint64_t a = e.addresses[unsigned(__builtin_ctz(mask))];
      auto it = std::find_if(atomics_.begin(), atomics_.end(),
                             [a](const std::pair<uint64_t, uint32_t>& p) { return p.first == a; });
      if (it == atomics_.end())
        atomics_.push_back({a, 1});
      else
        ++it->second;
    }
    for (const auto& [a, lanes] : atomics_) ready = std::max(ready, l2.atomic(a, lanes, start, m));
  }
  *drainAt = std::max(*drainAt, ready);
  r.ready = ready;
  return r;
}

}  // namespace warpsim::sim::timing
