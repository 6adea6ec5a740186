// The memory components on their own: an L1 hit and miss at the capacity boundary, the L2 and
// DRAM latencies and DRAM bandwidth as a queue, exact to the cycle.
#include <gtest/gtest.h>

#include <vector>

#include "sim/timing/dram.h"
#include "sim/timing/l1.h"
#include "sim/timing/l2.h"

namespace warpsim::sim::timing {
namespace {

// A warp reading one full 128-byte line (32 lanes x 4 bytes).
struct LineLoad {
  uint64_t addrs[32];
  MemoryEvent e;
  explicit LineLoad(uint64_t base) {
    for (unsigned l = 0; l < 32; ++l) addrs[l] = base + 4 * l;
    e.kind = AccessKind::Load;
    e.space = e.landed = isa::Space::Global;
    e.mask = ~0u;
    e.addresses = addrs;
    e.bytes = 4;
  }
};

// Reads `lines` lines twice over; returns the latency of each access of the second pass.
std::vector<uint64_t> secondPass(const TimingConfig& c, uint64_t l1Bytes, unsigned lines) {
  L1 l1(c, l1Bytes);
  L2 l2(c);
  MemoryCounters m;
  uint64_t drain = 0, t = 0;
  for (unsigned i = 0; i < lines; ++i, t += 1000) {
    LineLoad ld(0x100000 + 128ull * i);
    l1.access(ld.e, isa::Space::Global, 0, t, l2, m, &drain);
  }
  std::vector<uint64_t> lat;
  for (unsigned i = 0; i < lines; ++i, t += 1000) {
    LineLoad ld(0x100000 + 128ull * i);
    lat.push_back(l1.access(ld.e, isa::Space::Global, 0, t, l2, m, &drain).ready - t);
  }
  return lat;
}

TEST(MemoryTiming, L1HitsUpToItsCapacityAndMissesOneLineBeyond) {
  // A fully associative L1 of 64 lines (one set), LRU: 64 lines re-read all hit; 65 lines read
  // in a cycle all miss (each evicts the next one to be read) and come from the L2.
  TimingConfig c;
  c.l1Ways = 64;
  const uint64_t capacity = 64 * 128;
  for (uint64_t lat : secondPass(c, capacity, 64)) EXPECT_EQ(lat, c.l1HitLatency);
  for (uint64_t lat : secondPass(c, capacity, 65)) EXPECT_EQ(lat, c.l2HitLatency);
}

TEST(MemoryTiming, ColdMissGoesToDramAndCounts) {
  const TimingConfig c;
  L1 l1(c, 64 * 1024);
  L2 l2(c);
  MemoryCounters m;
  uint64_t drain = 0;
  LineLoad ld(0x2000);
  EXPECT_EQ(l1.access(ld.e, isa::Space::Global, 0, 100, l2, m, &drain).ready, 100 + c.dramLatency);
  EXPECT_EQ(m.l1Misses, 4u);
  EXPECT_EQ(m.l2Misses, 4u);
  EXPECT_EQ(m.dramReadBytes, 128u);
  EXPECT_EQ(m.globalLoadSectors, 4u);
  // The sectors are in flight: a second warp asking at once waits for the same fill.
  EXPECT_EQ(l1.access(ld.e, isa::Space::Global, 0, 101, l2, m, &drain).ready, 100 + c.dramLatency);
  EXPECT_EQ(m.l1Hits, 4u);
}

TEST(MemoryTiming, DramBandwidthIsAQueue) {
  Dram d(600, 64.0);  // 64 bytes per cycle
  // Four 32-byte reads at cycle 0: two fit in each cycle's bandwidth.
  EXPECT_EQ(d.read(0, 32), 600u);
  EXPECT_EQ(d.read(0, 32), 600u);
  EXPECT_EQ(d.read(0, 32), 601u);
  EXPECT_EQ(d.read(0, 32), 601u);
  // After a pause the queue is empty again.
  EXPECT_EQ(d.read(100, 32), 700u);
}

TEST(MemoryTiming, DramRequestsToOneServerWaitForIt) {
  Dram d(600, 1024.0, 1, 40.0);  // one server, 40 cycles a sector; the data path is no limit
  EXPECT_EQ(d.read(0, 32), 600u);
  EXPECT_EQ(d.read(0, 32), 640u);
  EXPECT_EQ(d.read(10, 32), 680u);
  // Once it is free, a lone request pays the latency alone.
  EXPECT_EQ(d.read(500, 32), 1100u);
  // A write-back holds it as a read does.
  d.write(1000, 32);
  EXPECT_EQ(d.read(1000, 32), 1640u);
}

TEST(MemoryTiming, DramLatencyGrowsWithTheRateBelowTheBandwidth) {
  // 64 servers of 64 cycles a sector: 32 bytes a cycle between them, behind a 64-byte path.
  // Requests at a steady rate wait more, on average, the nearer the rate comes to the servers'
  // 32 bytes a cycle; alone, none waits.
  auto meanWait = [](uint64_t cyclesApart) {
    Dram d(600, 64.0, 64, 64.0);
    uint64_t waited = 0;
    const uint64_t n = 20000;
    for (uint64_t i = 0; i < n; ++i) waited += d.read(i * cyclesApart, 32) - i * cyclesApart - 600;
    return double(waited) / n;
  };
  const double idle = meanWait(1000), half = meanWait(2), most = meanWait(1);  // 0, 16, 32 B/cycle
  EXPECT_EQ(idle, 0.0);
  EXPECT_GT(half, 2.0);
  EXPECT_GT(most, 4 * half);
}

TEST(MemoryTiming, DramServersAreDrawnEvenly) {
  // Requests meet their servers as random ones would: 4,096 sectors at once over 64 servers
  // fill every one within twice its share.
  Dram d(0, 1e9, 64, 1.0);
  uint64_t last = 0;
  for (uint64_t i = 0; i < 4096; ++i) last = std::max(last, d.read(0, 32));
  EXPECT_LE(last, 2u * 4096 / 64);
}
TEST(MemoryTiming, AReadFromTheFarL2PartitionLeavesANearCopy) {
  const TimingConfig c;  // two partitions
  L2 l2(c);
  MemoryCounters m;
  EXPECT_EQ(l2.nearPartition(0), 0u);
  EXPECT_EQ(l2.nearPartition(c.smCount - 1), 1u);
  // Line 1 (an odd number of bits set) is homed in partition 1; an SM of partition 0 reads it.
  EXPECT_EQ(l2.access(128, L2Op::Read, 100, m, 1, 0), 100 + c.dramLatency);
  EXPECT_EQ(m.dramReadBytes, 32u);
  // Its copy in partition 0 hits, as does the home for an SM of partition 1.
  EXPECT_EQ(l2.access(128, L2Op::Read, 2000, m, 1, 0), 2000 + c.l2HitLatency);
  EXPECT_EQ(l2.access(128, L2Op::Read, 3000, m, 1, 1), 3000 + c.l2HitLatency);
  EXPECT_EQ(m.l2Hits, 2u);
  EXPECT_EQ(m.dramReadBytes, 32u);
}

TEST(MemoryTiming, AnL1HitCostsItsBankWavefrontsOrItsTagLines) {
  // Each lane loads a word `stride` bytes after the last, every line already in the L1: the LSU
  // is busy max(1, lines / 4, wavefronts) cycles and the data comes l1.hit_latency plus the
  // larger of a cycle a tag cycle past the first and l1.wavefront_latency (2.15) a wavefront past
  // the first (rounded) after the request's turn.
  const TimingConfig c;
  struct Case {
    uint64_t stride;
    uint64_t busy, extra;
  };
  for (const Case k : {Case{4, 1, 0},         // one line, 32 banks
                       Case{132, 8, 7},       // 32 lines, 32 banks (micro_l1_lines stride 33)
                       Case{36, 3, 2},        // 9 lines, 32 banks (stride 9)
                       Case{32, 8, 15},       // 8 lines, 4 banks: 8 wavefronts (stride 8)
                       Case{128, 32, 67}}) {  // 32 lines, one bank: 32 wavefronts (stride 32)
    L1 l1(c, 64 * 1024);
    L2 l2(c);
    MemoryCounters m;
    uint64_t drain = 0;
    LineLoad ld(0x100000);
    for (unsigned l = 0; l < 32; ++l) ld.addrs[l] = 0x100000 + k.stride * l;
    l1.access(ld.e, isa::Space::Global, 0, 0, l2, m, &drain);  // the misses fill the lines
    const uint64_t t = 10000;
    EXPECT_EQ(l1.access(ld.e, isa::Space::Global, 0, t, l2, m, &drain).ready - t,
              c.l1HitLatency + k.extra)
        << k.stride;
    EXPECT_EQ(l1.lsuFree() - t, k.busy) << k.stride;
  }
}

// One lane storing 4 bytes: a partial sector.
struct PartialStore {
  uint64_t addrs[32] = {};
  MemoryEvent e;
  explicit PartialStore(uint64_t addr) {
    addrs[0] = addr;
    e.kind = AccessKind::Store;
    e.space = e.landed = isa::Space::Global;
    e.mask = 1;
    e.addresses = addrs;
    e.bytes = 4;
  }
};

TEST(MemoryTiming, ALocalStoreOfAFewLanesIsReadBackFromTheL1) {
  // Lanes 0 and 5 save a word of their frames (2 x 4 of a sector's 32 bytes) and read it back:
  // local memory is the thread's own, so the L1 keeps a partial sector too (a global store of
  // the same shape does not allocate: its read goes to the L2).
  const TimingConfig c;
  for (const isa::Space space : {isa::Space::Local, isa::Space::Global}) {
    L1 l1(c, 64 * 1024);
    L2 l2(c);
    MemoryCounters m;
    uint64_t drain = 0;
    PartialStore st(0x100);
    st.addrs[5] = 0x100;  // local: lane 5's own copy of offset 0x100 (l1.cpp interleaves)
    if (space == isa::Space::Global) st.addrs[5] = 0x114;
    st.e.mask = 1u | 1u << 5;
    st.e.space = st.e.landed = space;
    l1.access(st.e, space, 7, 0, l2, m, &drain);
    MemoryEvent ld = st.e;
    ld.kind = AccessKind::Load;
    const uint64_t t = 5000;
    const uint64_t back = l1.access(ld, space, 7, t, l2, m, &drain).ready - t;
    EXPECT_EQ(back, space == isa::Space::Local ? c.l1HitLatency : c.l2HitLatency);
  }
}

TEST(MemoryTiming, AGlobalStoreOfWholeSectorsIsReadBackFromTheL1) {
  // A warp stores a whole line (4 sectors, every byte written) and reads it back: with
  // l1.store_allocate the L1 keeps the sectors (softmax's third pass on the chip), without it
  // the read goes to the L2.
  for (const uint32_t allocate : {1u, 0u}) {
    TimingConfig c;
    c.l1StoreAllocate = allocate;
    L1 l1(c, 64 * 1024);
    L2 l2(c);
    MemoryCounters m;
    uint64_t drain = 0;
    LineLoad st(0x200000);
    st.e.kind = AccessKind::Store;
    l1.access(st.e, isa::Space::Global, 0, 0, l2, m, &drain);
    LineLoad ld(0x200000);
    const uint64_t t = 5000;
    const uint64_t back = l1.access(ld.e, isa::Space::Global, 0, t, l2, m, &drain).ready - t;
    EXPECT_EQ(back, allocate ? c.l1HitLatency : c.l2HitLatency) << allocate;
    EXPECT_EQ(m.l1Hits, allocate ? 4u : 0u);
  }
}

TEST(MemoryTiming, ACgStoreLeavesNoCopyInTheL1) {
  // st.global.cg caches at the L2 only (PTX ISA, "Cache Operators"): it does not allocate in the
  // L1 under l1.store_allocate, so the read back goes to the L2; a plain store's hits the L1.
  for (const bool cg : {true, false}) {
    TimingConfig c;
    ASSERT_EQ(c.l1StoreAllocate, 1u);
    L1 l1(c, 64 * 1024);
    L2 l2(c);
    MemoryCounters m;
    uint64_t drain = 0;
    isa::Inst cgStore;
    cgStore.skipsL1 = true;
    LineLoad st(0x200000);
    st.e.kind = AccessKind::Store;
    if (cg) st.e.inst = &cgStore;
    l1.access(st.e, isa::Space::Global, 0, 0, l2, m, &drain);
    LineLoad ld(0x200000);
    const uint64_t t = 5000;
    const uint64_t back = l1.access(ld.e, isa::Space::Global, 0, t, l2, m, &drain).ready - t;
    EXPECT_EQ(back, cg ? c.l2HitLatency : c.l1HitLatency) << cg;
    EXPECT_EQ(m.l1Hits, cg ? 0u : 4u) << cg;
  }
}

// ncu counts 1.5 L2 sector lookups per L1 sector in the transposes and micro_copy: half the
// accesses come from the far half and are looked up in both. Line 0x80's home is partition 1
// (the parity of its line number), line 0's partition 0.
TEST(MemoryTiming, AFarAccessIsLookedUpInBothHalves) {
  TimingConfig c;
  c.l2BytesPerCycle = 32;  // one sector's worth a cycle
  c.l2FarLookupSlots = 2;
  ASSERT_EQ(c.l2Partitions, 2u);
  // The turn of a read of line 3 (home 0) from its own half, asked at cycle 0 after `first`.
  auto turnAfter = [&](auto first) {
    L2 l2(c);
    MemoryCounters m;
    first(l2, m);
    return l2.access(0x180, L2Op::Read, 0, m, 1, 0) - c.dramLatency;
  };
  EXPECT_EQ(turnAfter([](L2& l2, MemoryCounters& m) { l2.access(0x0, L2Op::Read, 0, m, 1, 0); }),
            1u);  // near: one slot
  EXPECT_EQ(turnAfter([](L2& l2, MemoryCounters& m) { l2.access(0x80, L2Op::Read, 0, m, 1, 0); }),
            2u);  // far, missing the near copy: both halves
  EXPECT_EQ(
      turnAfter([](L2& l2, MemoryCounters& m) { l2.access(0x80, L2Op::Write, 0, m, 2.5, 0); }),
      5u);  // a far partial write: 2.5 slots in each half
  // With one slot (the default), a far access costs what a near one does.
  c.l2FarLookupSlots = 1;
  EXPECT_EQ(turnAfter([](L2& l2, MemoryCounters& m) { l2.access(0x80, L2Op::Read, 0, m, 1, 0); }),
            1u);
}

TEST(MemoryTiming, APartialSectorStoreTakesPartialWriteSlotsOfL2Bandwidth) {
  TimingConfig c;
  c.l2BytesPerCycle = 32;  // one sector's worth a cycle
  c.l2PartialWriteSlots = 2.5;
  c.l2Partitions = 1;
  for (unsigned stores : {1u, 2u, 3u}) {
    L1 l1(c, 64 * 1024);
    L2 l2(c);
    MemoryCounters m;
    uint64_t drain = 0;
    for (unsigned k = 0; k < stores; ++k) {
      PartialStore st(0x10000 + 4096ull * k);
      l1.access(st.e, isa::Space::Global, 0, 0, l2, m, &drain);
    }
    // A read asked at cycle 0 takes its turn after stores x 2.5 cycles of the L2 (in the cycle
    // that turn begins): 2, 5 and 7 cycles.
    const uint64_t turn = uint64_t(stores * 2.5);
    EXPECT_EQ(l2.access(0x80000, L2Op::Read, 0, m), turn + c.dramLatency) << stores;
  }
  // A whole sector (8 lanes' 4 bytes) takes one sector's worth: the read's turn is cycle 1.
  L1 l1(c, 64 * 1024);
  L2 l2(c);
  MemoryCounters m;
  uint64_t drain = 0;
  PartialStore st(0x10000);
  for (unsigned l = 0; l < 8; ++l) st.addrs[l] = 0x10000 + 4 * l;
  st.e.mask = 0xFF;
  l1.access(st.e, isa::Space::Global, 0, 0, l2, m, &drain);
  EXPECT_EQ(l2.access(0x80000, L2Op::Read, 0, m), 1 + c.dramLatency);
}

TEST(MemoryTiming, PartialSectorsOfOneLineShareTheirExtraSlot) {
  // Four lanes write 4 bytes each in the four sectors of one line (micro_store_pitch at pitch
  // 8): each takes 1 + (2.5 - 1) / 4 = 1.375 slots, 5.5 in all; the same four sectors in four
  // lines (pitch 64 and up: transpose_naive's rows) take 2.5 each, 10 in all.
  TimingConfig c;
  c.l2BytesPerCycle = 32;  // one sector's worth a cycle
  c.l2PartialWriteSlots = 2.5;
  c.l2Partitions = 1;
  for (const uint64_t apart : {32ull, 128ull}) {
    L1 l1(c, 64 * 1024);
    L2 l2(c);
    MemoryCounters m;
    uint64_t drain = 0;
    PartialStore st(0x10000);
    for (unsigned l = 0; l < 4; ++l) st.addrs[l] = 0x10000 + apart * l;
    st.e.mask = 0xF;
    l1.access(st.e, isa::Space::Global, 0, 0, l2, m, &drain);
    EXPECT_EQ(l2.access(0x80000, L2Op::Read, 0, m), (apart == 32 ? 5u : 10u) + c.dramLatency)
        << apart;
  }
}

TEST(MemoryTiming, AFarReadsCopyTakesRoomFromTheNearPartitionsDirtyLines) {
  TimingConfig c;
  c.l2SizeKb = 1;  // two partitions of one set of four 128-byte lines
  c.l2Ways = 4;
  for (uint32_t near : {1u, 0u}) {
    L2 l2(c);
    MemoryCounters m;
    // Lines 0, 3, 5 and 6 (an even number of bits set: homed in partition 0) written: dirty.
    uint64_t t = 0;
    for (uint64_t line : {0, 3, 5, 6}) l2.access(line * 128, L2Op::Write, t += 10, m);
    EXPECT_EQ(m.dramWriteBytes, 0u);
    // Line 1 (homed in partition 1) read by an SM of partition 1: no copy, nothing evicted.
    // By an SM of partition 0: its copy evicts partition 0's least recent line, written back.
    l2.access(128, L2Op::Read, t += 10, m, 1, near);
    EXPECT_EQ(m.dramWriteBytes, near == 0 ? 32u : 0u) << "near " << near;
  }
}

}  // namespace
}  // namespace warpsim::sim::timing
