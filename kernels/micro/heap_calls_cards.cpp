#include "kernels/micro/heap_calls_cards.h"

#include <iterator>
#include <string>
#include <vector>

#include "kernels/buffers.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

// (CTAs, threads a CTA): one thread, one warp, four warps of one CTA (one SM), and heap_list's
// 32 CTAs of 128 threads (32 SMs).
struct HeapShape {
  uint32_t ctas, threads;
};
// heap_list's 32 CTAs of 128 threads: micro_heap_lanes' and micro_heap_shrink's shape too.
constexpr HeapShape kContended{32, 128};
constexpr HeapShape kHeapShapes[] = {{1, 1}, {1, 32}, {1, 128}, kContended};
// Per shape: the pointers (zeroed by the free launch), the seeds, the sums.
constexpr size_t kBuffersPerShape = 3;

// A shape's buffers and its launch pair: `mallocEntry` then `freeEntry` on `ctas` CTAs of
// `threads`, each with (pointers, seeds or sums, calls) and then `extra`.
void addShape(Problem& p, Rng& rng, const std::string& tag, uint32_t ctas, uint32_t threads,
              uint64_t calls, const char* mallocEntry, const char* freeEntry,
              const std::vector<KernelArg>& extra = {}) {
  const uint64_t all = uint64_t(ctas) * threads;
  const uint32_t ptrs = uint32_t(p.buffers.size());
  p.buffers.push_back(poisonBuffer("ptrs" + tag, ElemType::U64, all * calls));
  p.buffers.push_back(makeBuffer("seeds" + tag, ElemType::U32, randomU32(rng, all, 0, ~0u), false));
  p.buffers.push_back(poisonBuffer("sums" + tag, ElemType::U32, all));
  for (const bool frees : {false, true}) {
    Launch l;
    l.entry = frees ? freeEntry : mallocEntry;
    l.grid = {ctas, 1, 1};
    l.block = {threads, 1, 1};
    l.args = {KernelArg::buf(ptrs), KernelArg::buf(ptrs + (frees ? 2 : 1)),
              KernelArg::u32(uint32_t(calls))};
    l.args.insert(l.args.end(), extra.begin(), extra.end());
    p.launches.push_back(std::move(l));
  }
}

}  // namespace

Problem makeHeapCalls(uint64_t calls, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = calls;
  for (const HeapShape& sh : kHeapShapes)
    addShape(p, rng, "_" + std::to_string(sh.ctas) + "x" + std::to_string(sh.threads), sh.ctas,
             sh.threads, calls, "micro_heap_malloc", "micro_heap_free");
  return p;
}

void referenceHeapCalls(Problem& p) {
  // Well inside the default 8 MiB heap (90,668 blocks of 16 bytes): every malloc succeeds.
  for (size_t b = 0; b < p.buffers.size(); b += kBuffersPerShape) {
    const auto seeds = readBuffer<uint32_t>(p.buffers[b + 1]);
    std::vector<uint32_t> sums(seeds.size());
    for (size_t t = 0; t < seeds.size(); ++t) {
      uint32_t v = seeds[t];
      for (uint64_t k = 0; k < p.size; ++k) {
        v = v * 1664525u + 1013904223u;
        sums[t] += v;
      }
    }
    writeBuffer(p.buffers[b], std::vector<uint64_t>(seeds.size() * p.size, 0));
    writeBuffer(p.buffers[b + 2], sums);
  }
}

namespace {

// micro_heap_lanes' lane counts, the full warp first (the heap's first calls of the process are
// full warps', as micro_heap_calls' are not), then masks ever more partial.
constexpr uint32_t kLaneCounts[] = {32, 31, 16, 4, 1};

}  // namespace

Problem makeHeapLanes(uint64_t calls, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = calls;
  for (const uint32_t lanes : kLaneCounts)
    addShape(p, rng, "_lanes" + std::to_string(lanes), kContended.ctas, kContended.threads, calls,
             "micro_heap_lanes_malloc", "micro_heap_lanes_free", {KernelArg::u32(lanes)});
  return p;
}

void referenceHeapLanes(Problem& p) {
  for (size_t shape = 0; shape < std::size(kLaneCounts); ++shape) {
    const size_t b = shape * kBuffersPerShape;
    const auto seeds = readBuffer<uint32_t>(p.buffers[b + 1]);
    std::vector<uint32_t> sums(seeds.size());
    for (size_t t = 0; t < seeds.size(); ++t) {
      if (t % 32 >= kLaneCounts[shape]) continue;
      uint32_t v = seeds[t];
      for (uint64_t k = 0; k < p.size; ++k) {
        v = v * 1664525u + 1013904223u;
        sums[t] += v;
      }
    }
    writeBuffer(p.buffers[b], std::vector<uint64_t>(seeds.size() * p.size, 0));
    writeBuffer(p.buffers[b + 2], sums);
  }
}

Problem makeHeapShrink(uint64_t calls, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = calls;
  addShape(p, rng, "", kContended.ctas, kContended.threads, calls, "micro_heap_shrink_malloc",
           "micro_heap_shrink_free");
  return p;
}

void referenceHeapShrink(Problem& p) {
  const auto seeds = readBuffer<uint32_t>(p.buffers[1]);
  std::vector<uint32_t> sums(seeds.size());
  for (size_t t = 0; t < seeds.size(); ++t) {
    const uint64_t mine = p.size - p.size * (t % 32) / 32;
    uint32_t v = seeds[t];
    for (uint64_t k = 0; k < mine; ++k) {
      v = v * 1664525u + 1013904223u;
      sums[t] += v;
    }
  }
  writeBuffer(p.buffers[0], std::vector<uint64_t>(seeds.size() * p.size, 0));
  writeBuffer(p.buffers[2], sums);
}

}  // namespace warpsim::kernels
