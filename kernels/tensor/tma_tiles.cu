// out = in * a + b over a W x H f32 matrix, 32 x 32 tiles brought into shared memory by TMA
// (cp.async.bulk.tensor.2d through a CUtensorMap passed by value) and double-buffered: while a
// block works on the tile in stage s, the copy of its next tile into stage s^1 is in flight,
// each stage with its own mbarrier (arrive.expect_tx by one thread, complete_tx by the copy,
// try_wait.parity by all). Blocks take tiles grid-stride, so one block usually copies several.
// W and H need not be multiples of 32: the copy fills the box's part outside the matrix with
// zeros, and only elements inside are written.
#include <cuda.h>
#include <cstdint>

#define TILE 32

__device__ __forceinline__ uint32_t smem(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void tma_tiles_axpb_f32(const __grid_constant__ CUtensorMap in,
                                              float* __restrict__ out, unsigned width,
                                              unsigned height, float a, float b) {
  __shared__ __align__(128) float tile[2][TILE * TILE];
  __shared__ __align__(8) uint64_t full[2];
  const unsigned tilesX = (width + TILE - 1) / TILE;
  const unsigned tiles = tilesX * ((height + TILE - 1) / TILE);
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&full[s])));
    // The barriers' initialization is visible to the copies (the async proxy) before any starts.
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  // One thread starts the copy of tile t into stage s: its bytes are what completes the phase.
  auto fetch = [&](unsigned t, unsigned s) {
    if (threadIdx.x != 0 || t >= tiles) return;
    const int x = int((t % tilesX) * TILE), y = int((t / tilesX) * TILE);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&full[s])),
                 "r"(unsigned(sizeof(tile[0])))
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(tile[s])),
        "l"(reinterpret_cast<uint64_t>(&in)), "r"(x), "r"(y), "r"(smem(&full[s]))
        : "memory");
  };
  unsigned phase[2] = {0, 0};
  fetch(blockIdx.x, 0);
  unsigned s = 0;
  for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x, s ^= 1) {
    fetch(t + gridDim.x, s ^ 1);  // stage s^1 was released by the barrier ending the last round
    uint32_t done = 0;
    while (!done)
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
          " selp.u32 %0, 1, 0, p; }"
          : "=r"(done)
          : "r"(smem(&full[s])), "r"(phase[s])
          : "memory");
    phase[s] ^= 1;
    const unsigned x0 = (t % tilesX) * TILE, y0 = (t / tilesX) * TILE;
    for (unsigned i = threadIdx.x; i < TILE * TILE; i += blockDim.x) {
      const unsigned x = x0 + i % TILE, y = y0 + i / TILE;
      if (x < width && y < height) out[size_t(y) * width + x] = tile[s][i] * a + b;
    }
    __syncthreads();  // every thread is done with stage s before a copy refills it
  }
}
