// Cards of the sort family: bitonic sorting networks, per block in shared memory and over the
// whole array in global memory with one launch per network step.
#include <algorithm>
#include <bit>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kThreads = 256, kSegment = 512;

// Keys from the full range plus a run of small values, so duplicates occur as well.
std::vector<uint32_t> randomKeys(Rng& rng, uint64_t n) {
  std::vector<uint32_t> keys(n);
  for (auto& k : keys) k = rng.u32(0, 3) == 0 ? rng.u32(0, 15) : rng.bits32();
  return keys;
}

Problem makeShared(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::U32, randomKeys(rng, n), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, n));
  Launch l = launch1d("bitonic_shared_u32", roundUp(n, kSegment) / 2, kThreads,
                      {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))});
  p.launches.push_back(std::move(l));
  return p;
}

// Each segment sorted on its own; the padding keys are the maximum and are never stored.
void referenceShared(Problem& p) {
  auto keys = readBuffer<uint32_t>(p.buffers[0]);
  for (size_t b = 0; b < keys.size(); b += kSegment)
    std::sort(keys.begin() + b, keys.begin() + std::min(keys.size(), b + kSegment));
  writeBuffer(p.buffers[1], keys);
}

// The network needs a power of two: the size is rounded up to one (at least 2).
uint64_t globalLength(uint64_t size) { return std::bit_ceil(std::max<uint64_t>(size, 2)); }

Problem makeGlobal(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const uint64_t n = globalLength(size);
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer("keys", ElemType::U32, randomKeys(rng, n), true));
  const uint32_t pairs = uint32_t(n / 2);
  for (uint32_t k = 2; k <= n; k <<= 1)
    for (uint32_t j = k >> 1; j > 0; j >>= 1)
      p.launches.push_back(launch1d(
          "bitonic_global_step_u32", pairs, kThreads,
          {KernelArg::buf(0), KernelArg::u32(pairs), KernelArg::u32(j), KernelArg::u32(k)}));
  return p;
}

void referenceGlobal(Problem& p) {
  auto keys = readBuffer<uint32_t>(p.buffers[0]);
  std::sort(keys.begin(), keys.end());
  writeBuffer(p.buffers[0], keys);
}

}  // namespace

std::vector<Card> sortCards() {
  return {
      {.name = "bitonic_shared",
       .family = "sort",
       .source = "bitonic_shared",
       .demonstrates = "bitonic network per 512-key segment in shared memory, 45 barriers",
       .defaultSize = 1 << 14,
       .minSize = 1,
       .maxSize = 1 << 14,
       .tolerance = bitExact(),
       .make = makeShared,
       .reference = referenceShared},
      {.name = "bitonic_global",
       .family = "sort",
       .source = "bitonic_global",
       .demonstrates = "a whole-array bitonic sort as one launch per step (launches as barriers)",
       .defaultSize = 1 << 13,
       .minSize = 1,
       .maxSize = 1 << 13,
       .tolerance = bitExact(),
       .make = makeGlobal,
       .reference = referenceGlobal},
  };
}

}  // namespace warpsim::kernels
