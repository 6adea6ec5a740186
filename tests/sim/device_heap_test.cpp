// Device-side malloc and free (sim/func/device_heap.h): the heap's placement rule (first fit,
// 16-byte aligned blocks in slots of multiples of 80 bytes inside pages of 24 slots, as the H200
// spaces them), NULL when it is full, the heap the chip grants for a limit (whole 4 MiB units)
// and how many blocks of each size it holds, blocks that outlive their launch, addresses
// independent of the host thread count, a double free as a fault and an invalid free ignored.
// The recorded values come from tests/recorded/heap/summary.txt and capacity.txt (the H200).
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

std::string readRecorded(const std::string& name) {
  std::ifstream f(std::filesystem::path(WARPSIM_SOURCE_DIR) / "tests/recorded" / name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

const sim::FaultInfo kSite{};

TEST(DeviceHeap, FirstFitAlignedBlocksInSlotsOf80Bytes) {
  sim::DeviceHeap h(0x1000, sim::kHeapUnitBytes);
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
  EXPECT_EQ(h.liveBlock(a + 20), nullptr);  // the slot's padding belongs to no block
  EXPECT_EQ(h.liveBlock(0x1050), nullptr);  // before b
  EXPECT_EQ(h.allocate(sim::kHeapUnitBytes + 1, kSite, 1, "k"), 0u);  // larger than the heap
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

// A block remembers its own thread; the call site's lines are shared by the site's blocks.
TEST(DeviceHeap, ABlockKeepsItsThreadAndTheSitesLines) {
  sim::DeviceHeap h(0x1000, sim::kHeapUnitBytes);
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
  sim::DeviceHeap h(0x1000, sim::kHeapUnitBytes);
  const uint64_t a = h.allocate(0, kSite, 1, "k");
  EXPECT_EQ(a, 0x1010u);
  EXPECT_EQ(h.liveBlock(a), nullptr);  // any access to it is outside the block
  EXPECT_EQ(h.allocate(0, kSite, 1, "k"), 0x1060u);
  EXPECT_EQ(h.free(a), sim::FreeOutcome::Freed);
}

// One unit filled with small blocks, then emptied: its pages are one free range again.
TEST(DeviceHeap, FillsToTheLastSlotThenReturnsNull) {
  sim::DeviceHeap h(0x2000, sim::kHeapUnitBytes);
  std::vector<uint64_t> got;
  for (uint64_t p; (p = h.allocate(48, kSite, 1, "k"));) got.push_back(p);
  EXPECT_EQ(got.size(), 45334u);  // capacity.txt: 1889 pages x 24 slots, 22 in the last
  EXPECT_EQ(h.allocate(0, kSite, 1, "k"), 0u);
  for (uint64_t p : got) EXPECT_EQ(h.free(p), sim::FreeOutcome::Freed);
  // A block of nearly the whole unit: every page from the first to the last's usable slots.
  const uint64_t whole = 1888 * sim::kHeapPagePitch + 22 * sim::kHeapSlot - 16;
  EXPECT_EQ(h.allocate(whole + 1, kSite, 1, "k"), 0u);
  EXPECT_EQ(h.allocate(whole, kSite, 1, "k"), 0x2010u);
  EXPECT_EQ(h.allocate(0, kSite, 1, "k"), 0u);
}

// Pages: 24 slots of 80 bytes, 2,208 bytes from one page's start to the next; a block that
// does not fit what is left of a page goes to the next page with room; the last page of a unit
// holds 22 slots; a block of more than 1,904 bytes takes whole empty pages.
TEST(DeviceHeap, PagesOf24SlotsAndLargeBlocksOfWholePages) {
  const uint64_t base = 0x10000, pitch = sim::kHeapPagePitch;
  sim::DeviceHeap h(base, 2 * sim::kHeapUnitBytes);
  std::vector<uint64_t> small;
  for (int i = 0; i < 25; ++i) small.push_back(h.allocate(64, kSite, 1, "k"));
  EXPECT_EQ(small[23], base + 16 + 23 * 80);
  EXPECT_EQ(small[24], base + pitch + 16);  // page 0 is full: page 1
  // 23 slots left in page 1: a block of 23 slots fits there, one of 24 does not.
  EXPECT_EQ(h.allocate(23 * 80 - 16, kSite, 1, "k"), base + pitch + 80 + 16);
  EXPECT_EQ(h.allocate(24 * 80 - 16, kSite, 1, "k"), base + 2 * pitch + 16);
  // 1,905 bytes and more: whole pages from the first empty one (two pages for 4 KiB).
  const uint64_t big = h.allocate(4096, kSite, 1, "k");
  EXPECT_EQ(big, base + 3 * pitch + 16);
  EXPECT_EQ(h.allocate(1905, kSite, 1, "k"), base + 5 * pitch + 16);
  EXPECT_EQ(h.allocate(8, kSite, 1, "k"), base + 7 * pitch + 16);  // pages 3 to 6 are taken
  // Freed, the large block's pages take small blocks again, lowest first.
  EXPECT_EQ(h.free(big), sim::FreeOutcome::Freed);
  EXPECT_NE(h.freedBlock(big + 4095), nullptr);
  EXPECT_EQ(h.allocate(8, kSite, 1, "k"), base + 3 * pitch + 16);
  // A freed block is forgotten once a new block takes any of its bytes.
  EXPECT_EQ(h.freedBlock(big + 4095), nullptr);
  // A block larger than a unit spans units (the chip was not measured at it).
  const uint64_t huge = h.allocate(sim::kHeapUnitBytes, kSite, 1, "k");
  EXPECT_EQ(huge, base + 8 * pitch + 16);
  EXPECT_NE(h.liveBlock(huge + sim::kHeapUnitBytes - 1), nullptr);
}

TEST(DeviceHeap, TheLastPageOfAUnitHolds22Slots) {
  const uint64_t base = 0x10000, pitch = sim::kHeapPagePitch;
  sim::DeviceHeap h(base, 2 * sim::kHeapUnitBytes);
  // Fill pages 0 .. 1887 of the first unit with blocks of a whole page each.
  for (int i = 0; i < 1888; ++i)
    ASSERT_EQ(h.allocate(24 * 80 - 16, kSite, 1, "k"), base + i * pitch + 16) << i;
  // Page 1888 holds 22 slots: 24 go to the next unit's first page, 22 stay.
  EXPECT_EQ(h.allocate(24 * 80 - 16, kSite, 1, "k"), base + sim::kHeapUnitBytes + 16);
  EXPECT_EQ(h.allocate(22 * 80 - 16, kSite, 1, "k"), base + 1888 * pitch + 16);
}

// The heap the chip grants: the limit rounded up to whole 4 MiB units (capacity.txt: 1, 2 and
// 4 MiB give the same heap); a limit of 0 grants none.
TEST(DeviceHeap, GrantedHeapIsWholeUnitsOf4MiB) {
  EXPECT_EQ(sim::grantedHeapBytes(0), 0u);
  EXPECT_EQ(sim::grantedHeapBytes(1), 4u << 20);
  EXPECT_EQ(sim::grantedHeapBytes(1 << 20), 4u << 20);
  EXPECT_EQ(sim::grantedHeapBytes(4 << 20), 4u << 20);
  EXPECT_EQ(sim::grantedHeapBytes((4 << 20) + 1), 8u << 20);
  EXPECT_EQ(sim::grantedHeapBytes(sim::kDefaultMallocHeapBytes), 8u << 20);
  EXPECT_THROW(sim::DeviceHeap(0x1000, 1024), std::invalid_argument);
}

// heap_list on the H200 at the default 8 MiB (FIDELITY "Device heap"): lists of about 87,000
// 16-byte nodes in all fit, about 91,000 ran out. Two units hold 90,668.
TEST(DeviceHeap, TheDefaultHeapHoldsTwoUnitsOfSmallBlocks) {
  sim::DeviceHeap h(0x100000, sim::grantedHeapBytes(sim::kDefaultMallocHeapBytes));
  unsigned n = 0;
  while (h.allocate(16, kSite, 1, "k")) ++n;
  EXPECT_EQ(n, 2u * 45334u);
}

// tests/recorded/heap/capacity.txt: per line, one thread on the H200 mallocs blocks of one size
// from a heap limited to LIMIT MiB until malloc returns NULL; the count must be the chip's.
struct CapacityLine {
  uint64_t limitMiB = 0, size = 0, count = 0;
};

std::vector<CapacityLine> recordedCapacity() {
  std::vector<CapacityLine> lines;
  std::istringstream in(readRecorded("heap/capacity.txt"));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    std::string limitKey, sizeKey, countKey;
    CapacityLine c;
    f >> limitKey >> c.limitMiB >> sizeKey >> c.size >> countKey >> c.count;
    if (limitKey == "limit_mib" && sizeKey == "size" && countKey == "count") lines.push_back(c);
  }
  return lines;
}

class RecordedCapacity : public testing::TestWithParam<CapacityLine> {};

TEST_P(RecordedCapacity, MallocsUntilNullAreTheChips) {
  const CapacityLine& c = GetParam();
  sim::DeviceHeap h(0x7f0000000000, sim::grantedHeapBytes(c.limitMiB << 20));
  uint64_t n = 0;
  while (h.allocate(c.size, kSite, 1, "k")) ++n;
  EXPECT_EQ(n, c.count) << "limit " << c.limitMiB << " MiB, blocks of " << c.size << " bytes";
}

INSTANTIATE_TEST_SUITE_P(Heap, RecordedCapacity, testing::ValuesIn(recordedCapacity()),
                         [](const testing::TestParamInfo<CapacityLine>& i) {
                           return "limit" + std::to_string(i.param.limitMiB) + "MiB_size" +
                                  std::to_string(i.param.size);
                         });

TEST(DeviceHeap, CapacityFileHasEveryRecordedLine) {
  EXPECT_EQ(recordedCapacity().size(), 21u);  // limits 1, 2, 4 MiB x 7 sizes
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

// The page search's longest run of free slots (heap_page_runs.h: two 12-bit halves from a
// table and the run across them) against a plain count, for every page of up to 24 slots.
TEST(DeviceHeap, LongestRunOfFreeSlotsIsThePlainCountForEveryPage) {
  uint64_t wrong = 0, first = 0;
  for (uint32_t bits = 0; bits < (1u << 24); ++bits) {
    uint32_t run = 0, best = 0;
    for (uint32_t b = 0; b < 24; ++b) {
      run = (bits >> b & 1) ? run + 1 : 0;
      best = std::max(best, run);
    }
    if (sim::LongestRun::of(bits) != best && wrong++ == 0) first = bits;
  }
  EXPECT_EQ(wrong, 0u) << "first at 0x" << std::hex << first;
  EXPECT_EQ(sim::LongestRun::of(0xFFFFFF), 24u);
  EXPECT_EQ(sim::LongestRun::of(0x001800), 2u);  // across the halves: bits 11 and 12
  EXPECT_EQ(sim::LongestRun::of(0x0FF000), 8u);
}

// The heap keeps its records in chunks of 1,024 that never move: a block's record read before
// thousands more mallocs and frees is the same object, still right, after them.
TEST(DeviceHeap, ABlocksRecordStaysWhereItIsAsTheHeapGrows) {
  sim::DeviceHeap heap(0x40000000, sim::kHeapUnitBytes);
  const uint64_t first = heap.allocate(40, kSite, 1, "k");
  const sim::HeapBlock* block = heap.liveBlock(first);
  ASSERT_NE(block, nullptr);
  std::vector<uint64_t> more;
  for (int i = 0; i < 5000; ++i) more.push_back(heap.allocate(8 + i % 200, kSite, 1, "k"));
  for (size_t i = 0; i < more.size(); i += 2)
    ASSERT_EQ(heap.free(more[i]), sim::FreeOutcome::Freed);
  for (int i = 0; i < 3000; ++i) ASSERT_NE(heap.allocate(8, kSite, 1, "k"), 0u);
  EXPECT_EQ(heap.liveBlock(first), block);
  EXPECT_EQ(block->address, first);
  EXPECT_EQ(block->size, 40u);
  EXPECT_EQ(heap.liveBlocks().size(), 1u + 2500u + 3000u);
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
    // CTAs in order, lanes in order: each block right after the one before, 12 to a page.
    EXPECT_EQ(r.ptrs[i], r.heapBase + i / 12 * sim::kHeapPagePitch + i % 12 * 160 + 16) << i;
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
  o.mallocHeapSize = 4096;  // grants one unit of 4 MiB: 22,667 blocks of 100 bytes
  const HeapRun r = allocReadFree(355, 100, o);  // 22,720 threads
  ASSERT_FALSE(r.alloc.fault) << r.alloc.fault->describe("");
  EXPECT_EQ(r.heapSize, 4u << 20);
  for (size_t i = 0; i < r.ptrs.size(); ++i) {
    ASSERT_EQ(r.ptrs[i] != 0, i < 22667) << i;
    ASSERT_EQ(r.values[i], i < 22667 ? uint32_t(i) * 7 + 1 : 0xFFFFFFFFu) << i;
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
