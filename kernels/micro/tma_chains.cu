// Calibration: a bulk copy's round trip. One warp brings `rounds` 32 x 32 f32 tiles (4 KB each)
// into one shared-memory tile one after the other, each copy started by lane 0 against an
// mbarrier (arrive.expect_tx, then the copy's complete_tx) and waited for by the whole warp
// (try_wait.parity) before the next starts; lane i adds element i of each tile. The input
// is 8 tiles (32 KB), so after the first pass every copy reads the L2.
//   micro_tma_tensor: cp.async.bulk.tensor.2d through a CUtensorMap kernel parameter (tma_tiles'
//     copy); flags bit 0: prefetch.tensormap first, bit 1: fence.mbarrier_init after the init.
//   micro_tma_bulk: cp.async.bulk of 4 contiguous KB (no tensor map); flags as above but bit 0.
// The launches' slopes over `rounds` give a copy's latency, their intercepts against each other
// the cost of a first use of a tensor map and of the fence.
#include <cuda.h>
#include <cstdint>

#define TILE 32
#define TILES 8

__device__ __forceinline__ uint32_t smem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void initBarrier(uint64_t* bar, unsigned flags) {
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(bar)));
    if (flags & 2) asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncwarp();
}

__device__ __forceinline__ void waitPhase(uint64_t* bar, unsigned phase) {
  uint32_t done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
        " selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(smem(bar)), "r"(phase)
        : "memory");
}

// The chain: `rounds` copies, each started by lane 0 (`copy(r, tile, bar)`, after its
// expect_tx) and waited for by the warp; lane i adds element i of each tile.
template <class Copy>
__device__ __forceinline__ void copyChain(float* tile, uint64_t* full, float* out, unsigned rounds,
                                          unsigned flags, Copy copy) {
  initBarrier(full, flags);
  float sum = 0.0f;
  for (unsigned r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(full)),
                   "r"(unsigned(TILE * TILE * sizeof(float)))
                   : "memory");
      copy(r, smem(tile), smem(full));
    }
    waitPhase(full, r & 1);
    sum += tile[threadIdx.x];
    __syncwarp();  // every lane has read the tile before the next copy overwrites it
  }
  out[threadIdx.x] = sum;
}

extern "C" __global__ void micro_tma_tensor(const __grid_constant__ CUtensorMap in, float* out,
                                            unsigned rounds, unsigned flags) {
  __shared__ __align__(128) float tile[TILE * TILE];
  __shared__ __align__(8) uint64_t full;
  if ((flags & 1) && threadIdx.x == 0)
    asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(&in)) : "memory");
  copyChain(tile, &full, out, rounds, flags, [&](unsigned r, uint32_t dst, uint32_t bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(&in)), "r"(int((r % TILES) * TILE)), "r"(0), "r"(bar)
        : "memory");
  });
}

extern "C" __global__ void micro_tma_bulk(const float* __restrict__ in, float* out,
                                          unsigned rounds, unsigned flags) {
  __shared__ __align__(128) float tile[TILE * TILE];
  __shared__ __align__(8) uint64_t full;
  copyChain(tile, &full, out, rounds, flags, [&](unsigned r, uint32_t dst, uint32_t bar) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, "
        "[%3];" ::"r"(dst),
        "l"(in + (r % TILES) * TILE * TILE), "r"(unsigned(TILE * TILE * sizeof(float))), "r"(bar)
        : "memory");
  });
}
