// The printf card. Its compared output is trivial (out = 2 * in, exact); the point is the
// device printf: lane 0 of each warp of blocks 0 and 1 prints
//   "block %d warp %u lane0 index 0x%x in %f out %f"
// so the default launch (512 elements, 128-thread blocks) prints 8 lines, one per warp of the
// first two blocks, in an order the hardware does not fix.
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

Problem makePrintf(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("in", ElemType::F32, randomFloats(rng, n, -10.0f, 10.0f), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::F32, n));
  p.launches.push_back(launch1d(
      "printf_lanes", n, 128, {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))}));
  return p;
}

void referencePrintf(Problem& p) {
  auto v = readBuffer<float>(p.buffers[0]);
  for (auto& x : v) x = x + x;  // the PTX's add.f32 v, v (2.0f * v, exactly)
  writeBuffer(p.buffers[1], v);
}

}  // namespace

std::vector<Card> printfCards() {
  return {
      {.name = "printf_lanes",
       .family = "printf",
       .source = "printf_lanes",
       .demonstrates =
           "device printf (vprintf, a local-memory argument buffer) from lane 0 of 8 warps",
       .defaultSize = 512,
       .minSize = 1,
       .maxSize = 4096,
       .tolerance = bitExact(),
       .make = makePrintf,
       .reference = referencePrintf},
  };
}

}  // namespace warpsim::kernels
