// Device-side malloc and free (sim/func/device_heap.h): the heap's placement rule (first fit,
// 16-byte aligned blocks behind 16-byte headers), NULL when it is full, blocks that outlive
// their launch, addresses independent of the host thread count, and a bad free as a fault.
// tests/data/heap_ops.ptx is nvcc 13's PTX of tests/data/heap_ops.cu.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

TEST(DeviceHeap, FirstFitAlignedBlocksBehindHeaders) {
  sim::DeviceHeap h(0x1000, 1024);
  const uint64_t a = h.allocate(20, kSite, 1, "k");  // a 16-byte header, 32 bytes
  const uint64_t b = h.allocate(1, kSite, 1, "k");   // a header, 16 bytes
  const uint64_t c = h.allocate(16, kSite, 1, "k");
  EXPECT_EQ(a, 0x1010u);
  EXPECT_EQ(b, 0x1040u);
  EXPECT_EQ(c, 0x1060u);
  EXPECT_EQ(h.bytesInUse(), 37u);
  EXPECT_EQ(h.liveBlock(a + 19), h.liveBlock(a));
  EXPECT_EQ(h.liveBlock(a + 20), nullptr);  // the rounding padding belongs to no block
  EXPECT_EQ(h.liveBlock(0x1030), nullptr);  // b's header
  EXPECT_EQ(h.allocate(0, kSite, 1, "k"), 0u);
  EXPECT_EQ(h.allocate(2048, kSite, 1, "k"), 0u);  // larger than the heap: NULL
  // Freed: a's range is found first again; b's freed block is remembered until reused.
  EXPECT_EQ(h.free(b), sim::FreeOutcome::Freed);
  EXPECT_EQ(h.free(b), sim::FreeOutcome::DoubleFree);
  EXPECT_EQ(h.free(b + 4), sim::FreeOutcome::NotHeapPointer);
  EXPECT_EQ(h.free(0), sim::FreeOutcome::Null);
  ASSERT_NE(h.freedBlock(b), nullptr);
  EXPECT_EQ(h.freedBlock(b)->size, 1u);
  EXPECT_EQ(h.free(a), sim::FreeOutcome::Freed);
  // a's and b's ranges merged into [0x1000, 0x1050): 80 bytes, room for a header and 48.
  EXPECT_EQ(h.allocate(48, kSite, 1, "k"), 0x1010u);
  EXPECT_EQ(h.freedBlock(a), nullptr);  // reused
  EXPECT_EQ(h.freedBlock(b), nullptr);
  EXPECT_EQ(h.liveBlocks().size(), 2u);
}

TEST(DeviceHeap, FillsToTheLastByteThenReturnsNull) {
  sim::DeviceHeap h(0x2000, 256);
  std::vector<uint64_t> got;
  for (uint64_t p; (p = h.allocate(48, kSite, 1, "k"));) got.push_back(p);
  EXPECT_EQ(got.size(), 4u);  // 4 x (16 + 48) = 256
  EXPECT_EQ(h.allocate(1, kSite, 1, "k"), 0u);
  for (uint64_t p : got) EXPECT_EQ(h.free(p), sim::FreeOutcome::Freed);
  EXPECT_EQ(h.allocate(240, kSite, 1, "k"), 0x2010u);  // every range merged back into one
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
  EXPECT_EQ(r.heapSize, sim::kDefaultMallocHeapBytes);
  std::set<uint64_t> distinct(r.ptrs.begin(), r.ptrs.end());
  EXPECT_EQ(distinct.size(), r.ptrs.size());
  for (size_t i = 0; i < r.ptrs.size(); ++i) {
    EXPECT_EQ(r.ptrs[i] % 16, 0u);
    EXPECT_GE(r.ptrs[i], r.heapBase);
    EXPECT_LT(r.ptrs[i] + 100, r.heapBase + r.heapSize);
    // CTAs in order, lanes in order: each block right after the one before.
    if (i) EXPECT_EQ(r.ptrs[i], r.ptrs[i - 1] + 128);
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

TEST(DeviceHeap, AFullHeapReturnsNullAndTheSizeIsTheLimit) {
  sim::LaunchOptions o;
  o.mallocHeapSize = 4096;  // 32 blocks of 16 + 112 bytes
  const HeapRun r = allocReadFree(2, 100, o);
  ASSERT_FALSE(r.alloc.fault) << r.alloc.fault->describe("");
  EXPECT_EQ(r.heapSize, 4096u);
  for (size_t i = 0; i < r.ptrs.size(); ++i) {
    EXPECT_EQ(r.ptrs[i] != 0, i < 32) << i;
    EXPECT_EQ(r.values[i], i < 32 ? uint32_t(i) * 7 + 1 : 0xFFFFFFFFu);
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

}  // namespace
}  // namespace warpsim::test
