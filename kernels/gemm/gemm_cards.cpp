// Cards of the SGEMM family: naive, 16x16 shared tiles, 64x64 register-blocked with float4.
// Shapes: M = N = s and K = s/2 with s = size rounded up to a multiple of 64 (every variant's
// tile), so A and B are non-square and a swapped leading dimension shows.
#include <cmath>

#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

enum Buf : size_t { kA, kB, kC };

struct Dims {
  uint32_t M, N, K;
};
Dims dimsFor(uint64_t size) {
  const uint32_t s = uint32_t(roundUp(size < 64 ? 64 : size, 64));
  return {s, s, s / 2};
}

Problem makeGemm(uint64_t size, uint64_t seed, const char* entry, Dim3 grid, Dim3 block) {
  Rng rng(seed);
  const Dims d = dimsFor(size);
  Problem p;
  p.size = size;
  p.buffers.push_back(
      makeBuffer("A", ElemType::F32, randomFloats(rng, uint64_t(d.M) * d.K, -1.0f, 1.0f), false));
  p.buffers.push_back(
      makeBuffer("B", ElemType::F32, randomFloats(rng, uint64_t(d.K) * d.N, -1.0f, 1.0f), false));
  p.buffers.push_back(poisonBuffer("C", ElemType::F32, uint64_t(d.M) * d.N));
  Launch l;
  l.entry = entry;
  l.grid = grid;
  l.block = block;
  l.args = {KernelArg::buf(kA),  KernelArg::buf(kB),  KernelArg::buf(kC),
            KernelArg::u32(d.M), KernelArg::u32(d.N), KernelArg::u32(d.K)};
  p.launches.push_back(std::move(l));
  return p;
}

Problem makeNaive(uint64_t size, uint64_t seed) {
  const Dims d = dimsFor(size);
  return makeGemm(size, seed, "sgemm_naive_f32", {d.N / 16, d.M / 16, 1}, {16, 16, 1});
}
Problem makeTiled(uint64_t size, uint64_t seed) {
  const Dims d = dimsFor(size);
  return makeGemm(size, seed, "sgemm_tiled_f32", {d.N / 16, d.M / 16, 1}, {16, 16, 1});
}
Problem makeRegblock(uint64_t size, uint64_t seed) {
  const Dims d = dimsFor(size);
  return makeGemm(size, seed, "sgemm_regblock_f32", {d.N / 64, d.M / 64, 1}, {256, 1, 1});
}

// All three variants compute each C element as acc = fma(A[i][k], B[k][j], acc) for k = 0 up
// from acc = +0 (the PTX: one fma.rn.f32 chain, no separate mul or add), so they share it.
void referenceGemm(Problem& p) {
  const Dims d = dimsFor(p.size);
  const auto A = readBuffer<float>(p.buffers[kA]), B = readBuffer<float>(p.buffers[kB]);
  std::vector<float> C(size_t(d.M) * d.N);
  for (uint32_t i = 0; i < d.M; ++i)
    for (uint32_t j = 0; j < d.N; ++j) {
      float acc = 0.0f;
      for (uint32_t k = 0; k < d.K; ++k)
        acc = std::fmaf(A[size_t(i) * d.K + k], B[size_t(k) * d.N + j], acc);
      C[size_t(i) * d.N + j] = acc;
    }
  writeBuffer(p.buffers[kC], C);
}

Card gemmCard(std::string name, std::string demonstrates, uint64_t maxSize,
              Problem (*mk)(uint64_t, uint64_t)) {
  return {.name = name,
          .family = "gemm",
          .source = name,
          .demonstrates = std::move(demonstrates),
          .defaultSize = 128,
          .minSize = 1,
          .maxSize = maxSize,
          .tolerance = bitExact(),
          .make = mk,
          .reference = referenceGemm};
}

}  // namespace

std::vector<Card> gemmCards() {
  return {
      gemmCard("sgemm_naive", "one thread per C element from global memory (2-D grid, 16x16)", 128,
               makeNaive),
      gemmCard("sgemm_tiled", "16x16 shared-memory tiles with two barriers per k-tile", 128,
               makeTiled),
      gemmCard("sgemm_regblock",
               "64x64 block tile, 4x4 register tile per thread, float4 global and shared loads",
               192, makeRegblock),
  };
}

}  // namespace warpsim::kernels
