// Cards of the tensor family: Ampere/Hopper techniques. A cp.async double-buffered SGEMM
// (bit-exact: the same fma chain as sgemm_tiled, only the staging differs) and an mma.sync GEMM
// with ldmatrix (f16 inputs, f32 accumulation), bit-exact too: its reference sums each k-step
// as the H200's tensor cores do (isa/insns/mma_accumulate.h, measured; docs/FIDELITY.md).
#include <cmath>

#include "isa/fp.h"
#include "isa/insns/mma_accumulate.h"
#include "kernels/buffers.h"
#include "kernels/families.h"
#include "kernels/lowp.h"
#include "kernels/random.h"

namespace warpsim::kernels {
namespace {

enum Buf : size_t { kA, kB, kC };

struct Dims {
  uint32_t M, N, K;
};
// M = N = s, K = s / 2, s a multiple of 32 (both kernels' tiles; K a multiple of 16).
Dims dimsFor(uint64_t size) {
  const uint32_t s = uint32_t(roundUp(size < 32 ? 32 : size, 32));
  return {s, s, s / 2};
}

Launch gemmLaunch(const char* entry, const Dims& d, Dim3 grid, Dim3 block) {
  Launch l;
  l.entry = entry;
  l.grid = grid;
  l.block = block;
  l.args = {KernelArg::buf(kA),  KernelArg::buf(kB),  KernelArg::buf(kC),
            KernelArg::u32(d.M), KernelArg::u32(d.N), KernelArg::u32(d.K)};
  return l;
}

Problem makeCpAsync(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const Dims d = dimsFor(size);
  Problem p;
  p.size = size;
  p.buffers.push_back(
      makeBuffer("A", ElemType::F32, randomFloats(rng, uint64_t(d.M) * d.K, -1.0f, 1.0f), false));
  p.buffers.push_back(
      makeBuffer("B", ElemType::F32, randomFloats(rng, uint64_t(d.K) * d.N, -1.0f, 1.0f), false));
  p.buffers.push_back(poisonBuffer("C", ElemType::F32, uint64_t(d.M) * d.N));
  p.launches.push_back(gemmLaunch("sgemm_cp_async_f32", d, {d.N / 16, d.M / 16, 1}, {16, 16, 1}));
  return p;
}

// acc = fma(A[i][k], B[k][j], acc) for k = 0 up from +0: the kernel's fma.rn.f32 chain.
void referenceCpAsync(Problem& p) {
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

std::vector<uint16_t> unitHalves(Rng& rng, uint64_t n) {
  std::vector<uint16_t> v(n);
  for (auto& h : v) h = toHalf(rng.f64(0.0, 1.0));
  return v;
}

Problem makeMma(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const Dims d = dimsFor(size);
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer("A", ElemType::F16, unitHalves(rng, uint64_t(d.M) * d.K), false));
  p.buffers.push_back(makeBuffer("B", ElemType::F16, unitHalves(rng, uint64_t(d.K) * d.N), false));
  p.buffers.push_back(poisonBuffer("C", ElemType::F32, uint64_t(d.M) * d.N));
  p.launches.push_back(gemmLaunch("hgemm_mma_f16_f32", d, {d.N / 32, d.M / 32, 1}, {128, 1, 1}));
  return p;
}

// What the H200 computes, step for step: per k-step of 16, one mma.sync adds 16 exact f16
// products to the f32 accumulator as the tensor core does (isa/insns/mma_accumulate.h, fitted
// bit for bit to the chip and checked against it by the recorded cases in tests/recorded/mma).
void referenceMmaDims(Problem& p, const Dims& d) {
  const auto A = readBuffer<uint16_t>(p.buffers[kA]), B = readBuffer<uint16_t>(p.buffers[kB]);
  std::vector<float> C(size_t(d.M) * d.N);
  for (uint32_t i = 0; i < d.M; ++i)
    for (uint32_t j = 0; j < d.N; ++j) {
      uint64_t acc = 0;  // +0.0f
      for (uint32_t k0 = 0; k0 < d.K; k0 += 16) {
        double a[16], b[16];
        for (uint32_t k = 0; k < 16; ++k) {
          a[k] = halfToDouble(A[size_t(i) * d.K + k0 + k]);
          b[k] = halfToDouble(B[size_t(k0 + k) * d.N + j]);
        }
        acc = isa::insns::mmaDot(a, b, 16, fp::kF16, acc, fp::kF32, fp::kF32);
      }
      C[size_t(i) * d.N + j] = fp::f32(uint32_t(acc));
    }
  writeBuffer(p.buffers[kC], C);
}

void referenceMma(Problem& p) { referenceMmaDims(p, dimsFor(p.size)); }

// The wgmma GEMM: 64x64 tiles of C, K-tiles of 64: M = N = s, K = s / 2 with s a multiple of
// 128. wgmma.m64n64k16 sums each k-step of 16 as mma.sync does (the assumption stated in
// isa/insns/wgmma.cpp; scripts/device_wgmma.sh checks it), so the reference is referenceMma's.
Dims dimsWgmma(uint64_t size) {
  const uint32_t s = uint32_t(roundUp(size < 128 ? 128 : size, 128));
  return {s, s, s / 2};
}

Problem makeWgmma(uint64_t size, uint64_t seed) {
  Rng rng(seed);
  const Dims d = dimsWgmma(size);
  Problem p;
  p.size = size;
  p.buffers.push_back(makeBuffer("A", ElemType::F16, unitHalves(rng, uint64_t(d.M) * d.K), false));
  p.buffers.push_back(makeBuffer("B", ElemType::F16, unitHalves(rng, uint64_t(d.K) * d.N), false));
  p.buffers.push_back(poisonBuffer("C", ElemType::F32, uint64_t(d.M) * d.N));
  p.launches.push_back(gemmLaunch("hgemm_wgmma_f16_f32", d, {d.N / 64, d.M / 64, 1}, {128, 1, 1}));
  return p;
}

void referenceWgmma(Problem& p) { referenceMmaDims(p, dimsWgmma(p.size)); }

// The wmma GEMM: one warp per 16x16 tile of C, a 16x16 tile per launch block.
Problem makeWmma(uint64_t size, uint64_t seed) {
  Problem p = makeMma(size, seed);
  const Dims d = dimsFor(size);
  p.launches[0] = gemmLaunch("hgemm_wmma_f16_f32", d, {d.N / 16, d.M / 16, 1}, {32, 1, 1});
  return p;
}

}  // namespace

std::vector<Card> tensorCards() {
  return {
      {.name = "sgemm_cp_async",
       .family = "tensor",
       .source = "sgemm_cp_async",
       .demonstrates = "16x16 tiles double-buffered with cp.async (16-byte .cg copies, one commit "
                       "group per k-tile, wait_group 1)",
       .defaultSize = 128,
       .minSize = 1,
       .maxSize = 128,
       .tolerance = bitExact(),
       .make = makeCpAsync,
       .reference = referenceCpAsync},
      {.name = "hgemm_mma",
       .family = "tensor",
       .source = "hgemm_mma",
       .demonstrates = "mma.sync.m16n8k16 f16->f32 with ldmatrix.x4 (and .trans for B) from "
                       "cp.async-staged shared tiles, 4 warps per 32x32 tile",
       .defaultSize = 128,
       .minSize = 1,
       .maxSize = 256,
       .tolerance = bitExact(),
       .make = makeMma,
       .reference = referenceMma},
      // wmma.mma m16n16k16 runs on the same tensor-core instructions as mma.sync on sm_90:
      // per k-step, one sum of 16 exact products into the accumulator, as referenceMma does.
      {.name = "hgemm_wmma",
       .family = "tensor",
       .source = "hgemm_wmma",
       .demonstrates = "nvcuda::wmma m16n16k16 f16->f32: load_matrix_sync from global with "
                       "leading dimensions, mma_sync per k-step of 16, store_matrix_sync",
       .defaultSize = 128,
       .minSize = 1,
       .maxSize = 128,  // the reference sums every k-step as the tensor core does: slow
       .tolerance = bitExact(),
       .make = makeWmma,
       .reference = referenceMma},
      {.name = "hgemm_wgmma",
       .family = "tensor",
       .source = "hgemm_wgmma_sm90a",
       .demonstrates = "wgmma.mma_async.m64n64k16 f16->f32 (sm_90a): one warpgroup per 64x64 "
                       "tile, A K-major and B MN-major in 128B-swizzled shared memory read "
                       "through matrix descriptors, four wgmmas per commit group",
       .defaultSize = 128,
       .minSize = 1,
       .maxSize = 128,  // one 128 x 128 problem: the reference sums as the tensor core does (slow)
       .tolerance = bitExact(),
       .make = makeWgmma,
       .reference = referenceWgmma},
  };
}

}  // namespace warpsim::kernels
