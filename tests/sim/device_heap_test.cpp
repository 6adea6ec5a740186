// Device-side malloc and free (sim/func/device_heap.h): the heap's placement rule (first fit,
// 16-byte aligned blocks in slots of multiples of 80 bytes, as the H200 spaces them), NULL when
// it is full, the heap the chip grants for a limit, blocks that outlive their launch, addresses
// independent of the host thread count, a double free as a fault and an invalid free ignored.
// The recorded values come from tests/recorded/heap/summary.txt (the H200).
// tests/data/heap_ops.ptx is nvcc 13's PTX of tests/data/heap_ops.cu.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>

#include "sim/func/device_heap.h"
#include "tests/support/ptx_runner.h"

namespace warpsim::test {
namespace {

std::string readData(const std::string& name) {
  std::ifstream f(std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/data" / name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const sim::FaultInfo kSite{};

TEST(DeviceHeap, FirstFitAlignedBlocksInSlotsOf80Bytes) {
  sim::DeviceHeap h(0x1000, 1024);
  const uint64_t a = h.allocate(20, kSite, 1, "k");   // 16 + 20 bytes: a slot of 80
  const uint64_t b = h.allocate(1, kSite, 1, "k");    // 80
  const uint64_t c = h.allocate(100, kSite, 1, "k");  // 16 + 100: 160
  const uint64_t d = h.allocate(16, kSite, 1, "k");
  EXPECT_EQ(a, 0x1010u);
  EXPECT_EQ(b, 0x1060u);
  EXPECT_EQ(c, 0x10b0u);
  EXPECT_EQ(d, 0x1150u);
  EXPECT_EQ(h.bytesInUse(), 137u);
  EXPECT_EQ(h.liveBlock(a + 19), h.liveBlock(a));
  EXPECT_EQ(h.liveBlock(a + 20), nullptr);         // the slot's padding belongs to no block
  EXPECT_EQ(h.liveBlock(0x1050), nullptr);         // before b
  EXPECT_EQ(h.allocate(2048, kSite, 1, "k"), 0u);  // larger than the heap: NULL
  // Freed: a's slot is found first again; b's freed block is remembered until reused.
  EXPECT_EQ(h.free(b), sim::FreeOutcome::Freed);
  EXPECT_EQ(h.free(b), sim::FreeOutcome::DoubleFree);
  EXPECT_EQ(h.free(b + 4), sim::FreeOutcome::NotHeapPointer);
  EXPECT_EQ(h.free(0), sim::FreeOutcome::Null);
  ASSERT_NE(h.freedBlock(b), nullptr);
  EXPECT_EQ(h.freedBlock(b)->size, 1u);
  EXPECT_EQ(h.free(a), sim::FreeOutcome::Freed);
  // a's and b's slots merged into [0x1000, 0x10a0): 160 bytes, room for 16 + 144.
  EXPECT_EQ(h.allocate(144, kSite, 1, "k"), 0x1010u);
  EXPECT_EQ(h.freedBlock(a), nullptr);  // reused
  EXPECT_EQ(h.freedBlock(b), nullptr);
  EXPECT_EQ(h.liveBlocks().size(), 3u);
}

// Random mallocs and frees against the placement rule written plainly (a sorted list of free
// ranges, first fit, merged on free): the heap splits and merges its free ranges in place
// (map nodes reused), and each merge case (into the range below, the one above, both, none)
// must leave the same ranges. Freed blocks stay findable until a later block takes their bytes.
TEST(DeviceHeap, RandomMallocsAndFreesPlaceBlocksAsPlainFirstFit) {
  constexpr uint64_t kBase = 0x10000, kSize = 80 * 200;
  sim::DeviceHeap h(kBase, kSize);
  std::vector<std::pair<uint64_t, uint64_t>> holes{{kBase, kSize}};  // start, length
  std::map<uint64_t, uint64_t> live;                                 // address -> size
  auto slot = [](uint64_t bytes) { return (16 + bytes + 79) / 80 * 80; };
  auto modelAllocate = [&](uint64_t bytes) -> uint64_t {
    for (size_t i = 0; i < holes.size(); ++i) {
      if (holes[i].second < slot(bytes)) continue;
      const uint64_t start = holes[i].first;
      holes[i].first += slot(bytes);
      holes[i].second -= slot(bytes);
      if (holes[i].second == 0) holes.erase(holes.begin() + long(i));
      return start + 16;
    }
    return 0;
  };
  // Returns which ranges the freed one merged with: 1 the one below, 2 the one above, 3 both.
  auto modelFree = [&](uint64_t address, uint64_t bytes) {
    const uint64_t start = address - 16, end = start + slot(bytes);
    unsigned merged = 0;
    for (const auto& [s, n] : holes) merged |= (s + n == start ? 1u : 0u) | (s == end ? 2u : 0u);
    holes.push_back({start, end - start});
    std::sort(holes.begin(), holes.end());
    for (size_t i = 0; i + 1 < holes.size();) {
      if (holes[i].first + holes[i].second == holes[i + 1].first) {
        holes[i].second += holes[i + 1].second;
        holes.erase(holes.begin() + long(i) + 1);
      } else {
        ++i;
      }
    }
    return merged;
  };
  std::mt19937_64 rng(8);
  unsigned cases[4] = {};  // frees by merge case
  for (int step = 0; step < 20000; ++step) {
    if (live.empty() || rng() % 5 < 3) {
      const uint64_t bytes = rng() % 4 == 0 ? rng() % 400 : rng() % 64;
      const uint64_t want = modelAllocate(bytes);
      ASSERT_EQ(h.allocate(bytes, kSite, 1, "k"), want) << "step " << step;
      if (want) live[want] = bytes;
    } else {
      auto it = live.begin();
      std::advance(it, long(rng() % live.size()));
      ++cases[modelFree(it->first, it->second)];
      ASSERT_EQ(h.free(it->first), sim::FreeOutcome::Freed) << "step " << step;
      if (it->second) ASSERT_NE(h.freedBlock(it->first), nullptr);  // a block of 0 holds none
      EXPECT_EQ(h.liveBlock(it->first), nullptr);
      live.erase(it);
    }
  }
  uint64_t inUse = 0;
  for (const auto& [a, size] : live) inUse += size;
  EXPECT_EQ(h.bytesInUse(), inUse);
  EXPECT_EQ(h.liveBlocks().size(), live.size());
  for (unsigned c : cases)
    EXPECT_GT(c, 20u) << cases[0] << " " << cases[1] << " " << cases[2] << " "
                      << cases[3];  // every merge case was exercised
}

// A block remembers its own thread; the call site's lines are shared by the site's blocks.
TEST(DeviceHeap, ABlockKeepsItsThreadAndTheSitesLines) {
  sim::DeviceHeap h(0x1000, 1024);
  sim::FaultInfo site;
  site.ptxLine = 42;
  site.cudaFile = "k.cu";
  site.cudaLine = 7;
  site.instruction = "call.uni malloc";
  auto shared = std::make_shared<const sim::HeapSite>(sim::HeapSite{site, 3, "kern"});
  sim::HeapThread t1, t2;
  t1.thread = {1, 2, 0};
  t1.cta = {4, 0, 0};
  t1.lane = 1;
  t2.thread = {5, 0, 0};
  t2.lane = 5;
  t2.warp = 2;
  const uint64_t a = h.allocate(8, shared, t1), b = h.allocate(8, shared, t2);
  const sim::FaultInfo fa = h.liveBlock(a)->allocatedBy(), fb = h.liveBlock(b)->allocatedBy();
  EXPECT_EQ(fa.thread.x, 1u);
  EXPECT_EQ(fa.thread.y, 2u);
  EXPECT_EQ(fa.cta.x, 4u);
  EXPECT_EQ(fa.lane, 1u);
  EXPECT_EQ(fb.thread.x, 5u);
  EXPECT_EQ(fb.warp, 2u);
  for (const sim::FaultInfo& f : {fa, fb}) {
    EXPECT_EQ(f.ptxLine, 42u);
    EXPECT_EQ(f.cudaFile, "k.cu");
    EXPECT_EQ(f.cudaLine, 7u);
    EXPECT_EQ(f.instruction, "call.uni malloc");
  }
  EXPECT_EQ(h.liveBlock(b)->kernel(), "kern");
  EXPECT_EQ(h.liveBlock(b)->gridId(), 3u);
}

// The H200's layout probe (scripts/probes/heap/heap_probe.cu, mode layout): one thread mallocs
// these sizes one after the other; the deltas between consecutive blocks, then the first
// block's address again after freeing them all.
TEST(DeviceHeap, SpacingOfConsecutiveBlocksIsTheChips) {
  sim::DeviceHeap h(0x100000, sim::grantedHeapBytes(sim::kDefaultMallocHeapBytes));
  const uint64_t sizes[] = {1, 8, 16, 17, 24, 32, 48, 100, 128, 256};
  // Recorded: "delta_from_previous" of sizes 8 .. 256.
  const int64_t chip[] = {80, 80, 80, 80, 80, 80, 80, 160, 160};
  std::vector<uint64_t> p;
  for (uint64_t s : sizes) p.push_back(h.allocate(s, kSite, 1, "k"));
  for (size_t i = 1; i < p.size(); ++i) {
    EXPECT_EQ(int64_t(p[i] - p[i - 1]), chip[i - 1]) << "size " << sizes[i];
    EXPECT_EQ(p[i] % 16, 0u);
  }
  for (uint64_t a : p) EXPECT_EQ(h.free(a), sim::FreeOutcome::Freed);
  EXPECT_EQ(h.allocate(1, kSite, 1, "k"), p[0]);  // reuse_first_after_free 1
}

// Recorded (mode exhaust): with cudaLimitMallocHeapSize set to 1 MiB, 1889 blocks of 1 KiB fit.
TEST(DeviceHeap, AOneMiBLimitHolds1889BlocksOf1KiB) {
  sim::DeviceHeap h(0x100000, sim::grantedHeapBytes(1 << 20));
  unsigned n = 0;
  while (h.allocate(1024, kSite, 1, "k")) ++n;
  EXPECT_EQ(n, 1889u);
}

// Recorded (mode zero): malloc(0) returns a pointer, not NULL; the block has no bytes.
TEST(DeviceHeap, MallocOfZeroBytesIsABlock) {
  sim::DeviceHeap h(0x1000, 1024);
  const uint64_t a = h.allocate(0, kSite, 1, "k");
  EXPECT_EQ(a, 0x1010u);
  EXPECT_EQ(h.liveBlock(a), nullptr);  // any access to it is outside the block
  EXPECT_EQ(h.allocate(0, kSite, 1, "k"), 0x1060u);
  EXPECT_EQ(h.free(a), sim::FreeOutcome::Freed);
}

TEST(DeviceHeap, FillsToTheLastSlotThenReturnsNull) {
  sim::DeviceHeap h(0x2000, 320);
  std::vector<uint64_t> got;
  for (uint64_t p; (p = h.allocate(48, kSite, 1, "k"));) got.push_back(p);
  EXPECT_EQ(got.size(), 4u);  // 4 x 80 = 320
  EXPECT_EQ(h.allocate(1, kSite, 1, "k"), 0u);
  for (uint64_t p : got) EXPECT_EQ(h.free(p), sim::FreeOutcome::Freed);
  EXPECT_EQ(h.allocate(304, kSite, 1, "k"), 0x2010u);  // every slot merged back into one
}

struct HeapRun {
  std::vector<uint64_t> ptrs;
  std::vector<uint32_t> values;
  sim::LaunchResult alloc, readFree;
  uint64_t heapBase = 0, heapSize = 0;
  size_t liveAfter = 0;
};

HeapRun allocReadFree(uint32_t ctas, uint64_t bytes, sim::LaunchOptions o) {
  PtxRunner r(readData("heap_ops.ptx"), "heap_ops.ptx");
  const uint32_t n = ctas * 64;
  const uint64_t ptrs = r.buffer<uint64_t>(n), values = r.buffer<uint32_t>(n);
  HeapRun run;
  run.alloc = r.launch("heap_alloc", {ctas, 1, 1}, {64, 1, 1},
                       {PtxRunner::ptr(ptrs), PtxRunner::u64(bytes)}, o);
  run.ptrs = r.read<uint64_t>(ptrs, n);
  run.heapBase = r.gpu().heap()->base();
  run.heapSize = r.gpu().heap()->size();
  run.readFree = r.launch("heap_read_free", {ctas, 1, 1}, {64, 1, 1},
                          {PtxRunner::ptr(ptrs), PtxRunner::ptr(values)}, o);
  run.values = r.read<uint32_t>(values, n);
  run.liveAfter = r.gpu().heap()->liveBlocks().size();
  return run;
}

TEST(DeviceHeap, BlocksOutliveTheLaunchAndAreFreedByALaterOne) {
  const HeapRun r = allocReadFree(4, 100, {});
  ASSERT_FALSE(r.alloc.fault) << r.alloc.fault->describe("");
  ASSERT_FALSE(r.readFree.fault) << r.readFree.fault->describe("");
  EXPECT_EQ(r.heapSize, sim::grantedHeapBytes(sim::kDefaultMallocHeapBytes));
  std::set<uint64_t> distinct(r.ptrs.begin(), r.ptrs.end());
  EXPECT_EQ(distinct.size(), r.ptrs.size());
  for (size_t i = 0; i < r.ptrs.size(); ++i) {
    EXPECT_EQ(r.ptrs[i] % 16, 0u);
    EXPECT_GE(r.ptrs[i], r.heapBase);
    EXPECT_LT(r.ptrs[i] + 100, r.heapBase + r.heapSize);
    // CTAs in order, lanes in order: each block right after the one before.
    if (i) EXPECT_EQ(r.ptrs[i], r.ptrs[i - 1] + 160);
    EXPECT_EQ(r.values[i], uint32_t(i) * 7 + 1);
  }
  EXPECT_EQ(r.liveAfter, 0u);
}

TEST(DeviceHeap, AddressesDoNotDependOnTheHostThreadCount) {
  sim::LaunchOptions one, many;
  one.threads = 1;
  many.threads = 8;
  EXPECT_EQ(allocReadFree(16, 40, one).ptrs, allocReadFree(16, 40, many).ptrs);
}

TEST(DeviceHeap, AFullHeapReturnsNullAndTheSizeIsWhatTheLimitGrants) {
  sim::LaunchOptions o;
  o.mallocHeapSize = 4096;  // grants 7674 bytes: 47 slots of 160
  const HeapRun r = allocReadFree(2, 100, o);
  ASSERT_FALSE(r.alloc.fault) << r.alloc.fault->describe("");
  EXPECT_EQ(r.heapSize, 7674u);
  for (size_t i = 0; i < r.ptrs.size(); ++i) {
    EXPECT_EQ(r.ptrs[i] != 0, i < 47) << i;
    EXPECT_EQ(r.values[i], i < 47 ? uint32_t(i) * 7 + 1 : 0xFFFFFFFFu);
  }
  sim::LaunchOptions none;
  none.mallocHeapSize = 0;  // allowed, as in CUDA: every malloc fails
  for (uint64_t p : allocReadFree(1, 4, none).ptrs) EXPECT_EQ(p, 0u);
}

TEST(DeviceHeap, ADoubleFreeIsAFaultAtTheSecondFree) {
  PtxRunner r(readData("heap_ops.ptx"), "heap_ops.ptx");
  const uint64_t ptrs = r.buffer<uint64_t>(32);
  ASSERT_FALSE(
      r.launch("heap_alloc", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ptrs), PtxRunner::u64(8)})
          .fault);
  const sim::LaunchResult res =
      r.launch("heap_free_twice", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ptrs)});
  ASSERT_TRUE(res.fault);
  EXPECT_EQ(res.fault->kind, sim::FaultKind::HeapError);
  EXPECT_EQ(res.fault->thread.x, 0u);
  EXPECT_EQ(res.fault->cudaLine, 20u);
  EXPECT_NE(res.fault->message.find("already freed (double free)"), std::string::npos)
      << res.fault->message;
  EXPECT_EQ(res.fault->instruction, "call.uni free");
}

// Recorded (mode badfree): a free of an address inside a block, not its start, does not fail
// the launch on the H200; the simulator ignores it too (memcheck reports it under a checker).
TEST(DeviceHeap, AnInvalidFreeIsIgnored) {
  PtxRunner r(readData("heap_ops.ptx"), "heap_ops.ptx");
  const uint64_t ptrs = r.buffer<uint64_t>(32), values = r.buffer<uint32_t>(32);
  ASSERT_FALSE(
      r.launch("heap_alloc", {1, 1, 1}, {32, 1, 1}, {PtxRunner::ptr(ptrs), PtxRunner::u64(64)})
          .fault);
  std::vector<uint64_t> inside = r.read<uint64_t>(ptrs, 32);
  for (uint64_t& p : inside) p += 16;
  const uint64_t bad = r.buffer<uint64_t>(32, inside);
  const sim::LaunchResult res = r.launch("heap_read_free", {1, 1, 1}, {32, 1, 1},
                                         {PtxRunner::ptr(bad), PtxRunner::ptr(values)});
  EXPECT_FALSE(res.fault) << res.fault->describe("");
  EXPECT_EQ(r.gpu().heap()->liveBlocks().size(), 32u);  // nothing was freed
}

}  // namespace
}  // namespace warpsim::test
