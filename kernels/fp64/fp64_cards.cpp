// Cards of the double-precision family: daxpy, and a dot product whose reference mirrors the
// grid-stride chains and the shuffle trees.
#include <array>
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/emulate.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kBlock = 256, kMaxDotBlocks = 64;

// ---- daxpy -------------------------------------------------------------------------------
Problem makeDaxpy(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const double a = rng.f64(-4.0, 4.0);
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("x", ElemType::F64, randomDoubles(rng, n, -10.0, 10.0), false));
  p.buffers.push_back(makeBuffer("y", ElemType::F64, randomDoubles(rng, n, -10.0, 10.0), true));
  p.launches.push_back(launch1d(
      "daxpy_f64", n, kBlock,
      {KernelArg::f64(a), KernelArg::buf(0), KernelArg::buf(1), KernelArg::u32(uint32_t(n))}));
  return p;
}

void referenceDaxpy(Problem& p) {
  const double a = scalarOf<double>(p.launches[0].args[0]);
  const auto x = readBuffer<double>(p.buffers[0]);
  auto y = readBuffer<double>(p.buffers[1]);
  for (size_t i = 0; i < y.size(); ++i) y[i] = std::fma(a, x[i], y[i]);  // fma.rn.f64
  writeBuffer(p.buffers[1], y);
}

// ---- ddot --------------------------------------------------------------------------------
enum DotBuf : size_t { kX, kY, kPartials, kResult };

Problem makeDdot(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  const uint32_t blocks = std::min(kMaxDotBlocks, ceilDiv(n, kBlock));
  Problem p;
  p.size = n;
  p.buffers.push_back(makeBuffer("x", ElemType::F64, randomDoubles(rng, n, -1.0, 1.0), false));
  p.buffers.push_back(makeBuffer("y", ElemType::F64, randomDoubles(rng, n, -1.0, 1.0), false));
  p.buffers.push_back(poisonBuffer("partials", ElemType::F64, blocks));
  p.buffers.push_back(poisonBuffer("result", ElemType::F64, 1));
  using A = KernelArg;
  Launch partial = launch1d("ddot_partial_f64", uint64_t(blocks) * kBlock, kBlock,
                            {A::buf(kX), A::buf(kY), A::buf(kPartials), A::u32(uint32_t(n))});
  Launch sum =
      launch1d("dsum_f64", kBlock, kBlock, {A::buf(kPartials), A::buf(kResult), A::u32(blocks)});
  p.launches = {std::move(partial), std::move(sum)};
  return p;
}

// One value per thread of a 256-thread block, reduced as blockSum() in ddot.cu does: the
// shfl.down tree per warp, then the same tree over the eight warp sums.
double blockSumModel(const std::array<double, kBlock>& v) {
  const auto add = [](double a, double b) { return a + b; };
  std::array<double, kWarp> warpSums{};
  for (uint32_t w = 0; w < kBlock / kWarp; ++w) {
    std::array<double, kWarp> lanes;
    for (uint32_t l = 0; l < kWarp; ++l) lanes[l] = v[w * kWarp + l];
    warpSums[w] = shflDownTree(lanes, add)[0];
  }
  return shflDownTree(warpSums, add)[0];
}

void referenceDdot(Problem& p) {
  const auto x = readBuffer<double>(p.buffers[kX]), y = readBuffer<double>(p.buffers[kY]);
  const uint64_t blocks = p.buffers[kPartials].count(), stride = blocks * kBlock;
  std::vector<double> partials(blocks);
  for (uint64_t b = 0; b < blocks; ++b) {
    std::array<double, kBlock> acc{};
    for (uint32_t t = 0; t < kBlock; ++t)
      for (uint64_t i = b * kBlock + t; i < x.size(); i += stride)
        acc[t] = std::fma(x[i], y[i], acc[t]);
    partials[b] = blockSumModel(acc);
  }
  std::array<double, kBlock> acc{};
  for (uint32_t t = 0; t < kBlock; ++t)
    for (uint64_t i = t; i < blocks; i += kBlock) acc[t] += partials[i];
  writeBuffer(p.buffers[kPartials], partials);
  writeBuffer(p.buffers[kResult], std::vector<double>{blockSumModel(acc)});
}

}  // namespace

std::vector<Card> fp64Cards() {
  return {
      {.name = "daxpy",
       .family = "fp64",
       .source = "daxpy",
       .demonstrates = "double-precision streaming fma.rn.f64 with a double kernel parameter",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 19,
       .tolerance = bitExact(),
       .make = makeDaxpy,
       .reference = referenceDaxpy},
      {.name = "ddot",
       .family = "fp64",
       .source = "ddot",
       .demonstrates = "fp64 dot: grid-stride fma chains, 64-bit values through 32-bit shuffles",
       .defaultSize = 1 << 16,
       .minSize = 1,
       .maxSize = 1 << 18,
       .tolerance = bitExact(),
       .make = makeDdot,
       .reference = referenceDdot},
  };
}

}  // namespace warpsim::kernels
