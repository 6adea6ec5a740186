// Cards of the elementwise family: vector add and saxpy, one element per thread.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBlock = 256;

Problem makeVectorAdd(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("a", ElemType::F32, randomFloats(rng, n, -100.0f, 100.0f), false));
  p.buffers.push_back(makeBuffer("b", ElemType::F32, randomFloats(rng, n, -100.0f, 100.0f), false));
  p.buffers.push_back(poisonBuffer("c", ElemType::F32, n));
  p.launches.push_back(launch1d(
      "vector_add_f32", n, kBlock,
      {KernelArg::buf(0), KernelArg::buf(1), KernelArg::buf(2), KernelArg::u32(uint32_t(n))}));
  return p;
}

void referenceVectorAdd(Problem& p) {
  const auto a = readBuffer<float>(p.buffers[0]), b = readBuffer<float>(p.buffers[1]);
  std::vector<float> c(a.size());
  for (size_t i = 0; i < a.size(); ++i) c[i] = a[i] + b[i];  // add.f32
  writeBuffer(p.buffers[2], c);
}

// The scalar a is drawn first, so that it is part of what the seed decides.
Problem makeSaxpy(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const float a = rng.f32(-4.0f, 4.0f);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("x", ElemType::F32, randomFloats(rng, n, -10.0f, 10.0f), false));
  p.buffers.push_back(makeBuffer("y", ElemType::F32, randomFloats(rng, n, -10.0f, 10.0f), true));
  p.launches.push_back(launch1d(
      "saxpy_f32", n, kBlock,
      {KernelArg::f32(a), KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))}));
  return p;
}

void referenceSaxpy(Problem& p) {
  const float a = scalarOf<float>(p.launches[0].args[0]);
  const auto x = readBuffer<float>(p.buffers[0]);
  auto y = readBuffer<float>(p.buffers[1]);
  for (size_t i = 0; i < y.size(); ++i) y[i] = std::fmaf(a, x[i], y[i]);  // fma.rn.f32
  writeBuffer(p.buffers[1], y);
}

// The best of `repeat` timed runs of `loop` (which returns a value that depends on every
// output, so that the compiler keeps the work).
template <class Loop>
double bestSeconds(unsigned repeat, Loop loop) {
  double best = 1e30;
  volatile float sink = 0;
  for (unsigned r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    sink = sink + loop();
    best = std::min(best,
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

double plainVectorAddSeconds(const Problem& p, unsigned repeat) {
  const auto a = readBuffer<float>(p.buffers[0]), b = readBuffer<float>(p.buffers[1]);
  std::vector<float> c(a.size());
  return bestSeconds(repeat, [&] {
    for (size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
    return c[c.size() / 2];
  });
}

double plainSaxpySeconds(const Problem& p, unsigned repeat) {
  const float a = scalarOf<float>(p.launches[0].args[0]);
  const auto x = readBuffer<float>(p.buffers[0]), y0 = readBuffer<float>(p.buffers[1]);
  std::vector<float> y = y0;
  return bestSeconds(repeat, [&] {
    for (size_t i = 0; i < y.size(); ++i) y[i] = std::fmaf(a, x[i], y[i]);
    return y[y.size() / 2];
  });
}

}  // namespace

std::vector<Card> elementwiseCards() {
  return {
      {.name = "vector_add",
       .family = "elementwise",
       .source = "vector_add",
       .demonstrates = "coalesced one-element-per-thread streaming with a bounds-checked tail",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 19,
       .tolerance = bitExact(),
       .make = makeVectorAdd,
       .reference = referenceVectorAdd,
       .plainLoopSeconds = plainVectorAddSeconds},
      {.name = "saxpy",
       .family = "elementwise",
       .source = "saxpy",
       .demonstrates = "a scalar kernel parameter and a contracted fma.rn.f32, read-modify-write",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 19,
       .tolerance = bitExact(),
       .make = makeSaxpy,
       .reference = referenceSaxpy,
       .plainLoopSeconds = plainSaxpySeconds},
  };
}

}  // namespace warpsim::kernels
