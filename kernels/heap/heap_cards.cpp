// Cards of the heap family: device-side malloc and free (sim/func/device_heap.h).
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBlock = 128;
constexpr uint32_t kMaxLength = 24;
enum ListBuf : size_t { kLengths, kSeeds, kHeads, kSums, kCounts };

// At most 24 nodes a thread (12 on average), 4096 threads: about 49,000 nodes, well inside the
// default 8 MiB heap. The H200's holds fewer 16-byte blocks than warpsim's (recorded 2026-12-04:
// lists of 7,608 and more threads ran out of heap on the chip, 7,223 did not; docs/FIDELITY.md,
// "Device heap"), so the card stays below where either runs out: it checks malloc and free,
// not exhaustion.
Problem makeList(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(
      makeBuffer("lengths", ElemType::U32, randomU32(rng, n, 0, kMaxLength), false));
  p.buffers.push_back(makeBuffer("seeds", ElemType::U32, randomU32(rng, n, 0, ~0u), false));
  // The heads are device pointers while the lists live; the second launch zeroes them.
  p.buffers.push_back(poisonBuffer("heads", ElemType::U64, n));
  p.buffers.push_back(poisonBuffer("sums", ElemType::U32, n));
  p.buffers.push_back(poisonBuffer("counts", ElemType::U32, n));
  using A = KernelArg;
  p.launches.push_back(
      launch1d("heap_list_build", n, kBlock,
               {A::buf(kLengths), A::buf(kSeeds), A::buf(kHeads), A::u32(uint32_t(n))}));
  p.launches.push_back(
      launch1d("heap_list_sum", n, kBlock,
               {A::buf(kHeads), A::buf(kSums), A::buf(kCounts), A::u32(uint32_t(n))}));
  return p;
}

void referenceList(Problem& p) {
  const auto lengths = readBuffer<uint32_t>(p.buffers[kLengths]);
  const auto seeds = readBuffer<uint32_t>(p.buffers[kSeeds]);
  std::vector<uint32_t> sums(lengths.size()), counts(lengths.size());
  for (size_t i = 0; i < lengths.size(); ++i) {
    uint32_t v = seeds[i], sum = 0;
    for (uint32_t k = 0; k < lengths[i]; ++k) {
      v = v * 1664525u + 1013904223u;
      sum += v >> 8;
    }
    sums[i] = sum;
    counts[i] = lengths[i];
  }
  writeBuffer(p.buffers[kHeads], std::vector<uint64_t>(lengths.size(), 0));
  writeBuffer(p.buffers[kSums], sums);
  writeBuffer(p.buffers[kCounts], counts);
}

}  // namespace

std::vector<Card> heapCards() {
  return {
      {.name = "heap_list",
       .family = "heap",
       .source = "heap_list",
       .demonstrates = "device malloc/free: per-thread linked lists built, summed and freed "
                       "across two launches",
       .defaultSize = 4096,
       .minSize = 1,
       .maxSize = 4096,
       .tolerance = bitExact(),
       .make = makeList,
       .reference = referenceList},
  };
}

}  // namespace warpsim::kernels
