// C = A * B with 16x16 tiles double-buffered through cp.async: while the block multiplies the
// tiles of stage s, the copies of the next k-tile into stage s^1 are in flight (one commit group
// per k-tile; wait_prior(1) waits for all but the newest). Threads 0-63 copy A's tile and 64-127
// B's, 16 bytes each (cp.async.cg); every thread commits, so groups line up across the block.
// M, N and K are multiples of 16. Each C element is the fma chain k = 0 .. K-1, as sgemm_tiled.
#include <cuda_pipeline.h>

#define TILE 16

extern "C" __global__ void sgemm_cp_async_f32(const float* __restrict__ A,
                                              const float* __restrict__ B, float* __restrict__ C,
                                              unsigned M, unsigned N, unsigned K) {
  __shared__ __align__(16) float As[2][TILE][TILE];
  __shared__ __align__(16) float Bs[2][TILE][TILE];
  const unsigned tx = threadIdx.x, ty = threadIdx.y, tid = ty * TILE + tx;
  const unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  auto load = [&](unsigned stage, unsigned k0) {
    if (tid < 64) {
      const unsigned r = tid / 4, c = (tid % 4) * 4;
      __pipeline_memcpy_async(&As[stage][r][c], &A[(blockIdx.y * TILE + r) * K + k0 + c], 16);
    } else if (tid < 128) {
      const unsigned t = tid - 64, r = t / 4, c = (t % 4) * 4;
      __pipeline_memcpy_async(&Bs[stage][r][c], &B[(k0 + r) * N + blockIdx.x * TILE + c], 16);
    }
    __pipeline_commit();
  };
  float acc = 0.0f;
  unsigned stage = 0;
  load(0, 0);
  for (unsigned k0 = 0; k0 < K; k0 += TILE) {
    if (k0 + TILE < K) {
      load(stage ^ 1, k0 + TILE);
      __pipeline_wait_prior(1);  // this stage's group has landed; the next one may be in flight
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < TILE; ++k) acc += As[stage][ty][k] * Bs[stage][k][tx];
    __syncthreads();  // this stage is overwritten by the copies issued next iteration
    stage ^= 1;
  }
  C[row * N + col] = acc;
}
