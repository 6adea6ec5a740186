// Cards of the cdp family: dynamic parallelism (sim/func/device_launch.h).
#include <algorithm>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

Problem makeQuicksort(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  // Values from a small range too, so that partitions meet runs of equal keys.
  std::vector<uint32_t> v = randomU32(rng, n, 0, n % 2 ? 0xFFFFFFFFu : 1000u);
  p.buffers.push_back(makeBuffer("data", ElemType::U32, v, true));
  p.launches.push_back({.entry = "cdp_quicksort",
                        .grid = {1, 1, 1},
                        .block = {1, 1, 1},
                        .args = {KernelArg::buf(0), KernelArg::s32(0),
                                 KernelArg::s32(int32_t(n) - 1), KernelArg::s32(0)}});
  return p;
}

void referenceQuicksort(Problem& p) {
  auto v = readBuffer<uint32_t>(p.buffers[0]);
  std::sort(v.begin(), v.end());
  writeBuffer(p.buffers[0], v);
}

}  // namespace

std::vector<Card> cdpCards() {
  return {
      {.name = "cdp_quicksort",
       .family = "cdp",
       .source = "cdp_quicksort",
       .demonstrates = "dynamic parallelism: a quicksort whose partitions launch child grids "
                       "(CDP2, fire and forget)",
       .defaultSize = 4096,
       .minSize = 1,
       .maxSize = 8192,
       .tolerance = bitExact(),
       .make = makeQuicksort,
       .reference = referenceQuicksort},
  };
}

}  // namespace warpsim::kernels
