// Cards of the solver family: Gaussian elimination as nvcc compiles it, whose updates
// `A[i][j] - m * A[k][j]` are mul + sub pairs in the PTX that ptxas contracts into one fused
// multiply-add: bit-exact only when the simulator fuses as the chip does (isa/contract.h).
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

constexpr uint32_t kFan1Block = 64;
constexpr uint32_t kFan2Tile = 16;
enum Buf : size_t { kA, kB, kM };

// A diagonally dominant system (no pivoting needed, as Rodinia's gaussian assumes), n x n.
Problem makeGauss(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const uint32_t n = uint32_t(size);
  std::vector<float> a = randomFloats(rng, uint64_t(n) * n, -1.0f, 1.0f);
  for (uint32_t i = 0; i < n; ++i) a[uint64_t(i) * n + i] += float(n);
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer("a", ElemType::F32, a, true));
  p.buffers.push_back(makeBuffer("b", ElemType::F32, randomFloats(rng, n, -10.0f, 10.0f), true));
  // The multipliers; the elements no Fan1 writes (on and above the diagonal) keep the poison.
  p.buffers.push_back(poisonBuffer("m", ElemType::F32, uint64_t(n) * n));
  using A = KernelArg;
  for (uint32_t k = 0; k + 1 < n; ++k) {
    p.launches.push_back(
        launch1d("gauss_fan1_f32", n - k - 1, kFan1Block,
                 {A::buf(kA), A::buf(kM), A::s32(int32_t(n)), A::s32(int32_t(k))}));
    Launch fan2;
    fan2.entry = "gauss_fan2_f32";
    fan2.block = {kFan2Tile, kFan2Tile, 1};
    fan2.grid = {ceilDiv(n - k, kFan2Tile), ceilDiv(n - k - 1, kFan2Tile), 1};
    fan2.args = {A::buf(kA), A::buf(kB), A::buf(kM), A::s32(int32_t(n)), A::s32(int32_t(k))};
    p.launches.push_back(std::move(fan2));
  }
  return p;
}

// What the chip computes: the division correctly rounded (div.rn.f32), each update one fused
// multiply-add, a[i][j] + (-m) * a[k][j] rounded once (ptxas's FFMA of the mul + sub).
void referenceGauss(Problem& p) {
  const uint64_t n = p.size;
  auto a = readBuffer<float>(p.buffers[kA]);
  auto b = readBuffer<float>(p.buffers[kB]);
  auto m = readBuffer<float>(p.buffers[kM]);
  for (uint64_t k = 0; k + 1 < n; ++k) {
    for (uint64_t i = k + 1; i < n; ++i) m[i * n + k] = a[i * n + k] / a[k * n + k];
    for (uint64_t i = k + 1; i < n; ++i) {
      const float mult = m[i * n + k];
      for (uint64_t j = k; j < n; ++j) a[i * n + j] = std::fmaf(-mult, a[k * n + j], a[i * n + j]);
      b[i] = std::fmaf(-mult, b[k], b[i]);
    }
  }
  writeBuffer(p.buffers[kA], a);
  writeBuffer(p.buffers[kB], b);
  writeBuffer(p.buffers[kM], m);
}

}  // namespace

std::vector<Card> solverCards() {
  return {
      {.name = "gauss_elim",
       .family = "solver",
       .source = "gauss",
       .demonstrates = "Gaussian elimination: nvcc's mul + sub pairs that ptxas fuses (FFMA)",
       .defaultSize = 48,
       .minSize = 2,
       .maxSize = 96,
       .tolerance = bitExact(),
       .make = makeGauss,
       .reference = referenceGauss},
  };
}

}  // namespace warpsim::kernels
