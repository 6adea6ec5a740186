// Cards of the calls family: non-inlined device functions (with parameters, return values and
// a call under divergence) and a recursive device function.
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBlock = 128;

// ---- calls_noinline ----------------------------------------------------------------------
enum CallsBuf : size_t { kSeeds, kX, kCoef, kPoly, kTag };
constexpr int kDegree = 6;

// Seeds below 10^5 keep every Collatz trajectory under 2^32 and under 351 steps.
Problem makeNoinline(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("seeds", ElemType::U32, randomU32(rng, n, 1, 99999), false));
  p.buffers.push_back(makeBuffer("x", ElemType::F32, randomFloats(rng, n, -1.5f, 1.5f), false));
  p.buffers.push_back(
      makeBuffer("coef", ElemType::F32, randomFloats(rng, kDegree + 1, -1.0f, 1.0f), false));
  p.buffers.push_back(poisonBuffer("poly", ElemType::F32, n));
  p.buffers.push_back(poisonBuffer("tag", ElemType::U32, n));
  using A = KernelArg;
  p.launches.push_back(launch1d("calls_noinline", n, kBlock,
                                {A::buf(kSeeds), A::buf(kX), A::buf(kCoef), A::buf(kPoly),
                                 A::buf(kTag), A::u32(uint32_t(n)), A::s32(kDegree)}));
  return p;
}

uint32_t collatzSteps(uint32_t v, uint32_t limit) {
  uint32_t steps = 0;
  for (; v != 1 && steps < limit; ++steps) v = (v & 1) ? 3 * v + 1 : v / 2;
  return steps;
}

uint32_t mix(uint32_t v, uint32_t salt) {
  v ^= salt;
  v *= 0x9e3779b1u;
  return v ^ (v >> 15);
}

void referenceNoinline(Problem& p) {
  const auto seeds = readBuffer<uint32_t>(p.buffers[kSeeds]);
  const auto x = readBuffer<float>(p.buffers[kX]), c = readBuffer<float>(p.buffers[kCoef]);
  const int degree = scalarOf<int32_t>(p.launches[0].args[6]);
  std::vector<float> poly(x.size());
  std::vector<uint32_t> tag(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    float r = c[degree];
    for (int k = degree - 1; k >= 0; --k) r = std::fmaf(r, x[i], c[k]);
    poly[i] = r;
    tag[i] = (seeds[i] & 1) ? collatzSteps(seeds[i], 1000) : mix(seeds[i], uint32_t(i));
  }
  writeBuffer(p.buffers[kPoly], poly);
  writeBuffer(p.buffers[kTag], tag);
}

// ---- calls_recursive ---------------------------------------------------------------------
// Depths up to 12: at most 233 leaf calls per lane, 12 frames deep.
Problem makeRecursive(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("depth", ElemType::U32, randomU32(rng, n, 0, 12), false));
  p.buffers.push_back(poisonBuffer("out", ElemType::U32, n));
  p.launches.push_back(
      launch1d("calls_recursive", n, kBlock,
               {KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))}));
  return p;
}

void referenceRecursive(Problem& p) {
  const auto depth = readBuffer<uint32_t>(p.buffers[0]);
  std::vector<uint32_t> out(depth.size());
  for (size_t i = 0; i < depth.size(); ++i) {
    uint32_t prev = 1, cur = 1;  // compositions(0), compositions(1)
    for (uint32_t k = 1; k < depth[i]; ++k) {
      const uint32_t next = prev + cur;
      prev = cur;
      cur = next;
    }
    out[i] = cur;
  }
  writeBuffer(p.buffers[1], out);
}

}  // namespace

std::vector<Card> callsCards() {
  return {
      {.name = "calls_noinline",
       .family = "calls",
       .source = "calls_noinline",
       .demonstrates = "__noinline__ .func calls with .param args/returns, one under divergence",
       .defaultSize = 4096,
       .minSize = 1,
       .maxSize = 8192,
       .tolerance = bitExact(),
       .make = makeNoinline,
       .reference = referenceNoinline},
      {.name = "calls_recursive",
       .family = "calls",
       .source = "calls_recursive",
       .demonstrates = "a recursive .func: per-lane call stacks of divergent depth",
       .defaultSize = 2048,
       .minSize = 1,
       .maxSize = 4096,
       .tolerance = bitExact(),
       .make = makeRecursive,
       .reference = referenceRecursive},
  };
}

}  // namespace warpsim::kernels
