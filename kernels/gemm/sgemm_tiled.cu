// C = A * B through 16x16 shared-memory tiles: each block stages a tile of A and a tile of B,
// synchronises, and accumulates 16 products per element before the next pair of tiles, so that
// every global element is read once per block instead of once per thread. M, N and K are
// multiples of 16. The fma chain per element still runs k = 0 .. K-1 in order.
#define TILE 16

extern "C" __global__ void sgemm_tiled_f32(const float* __restrict__ A, const float* __restrict__ B,
                                           float* __restrict__ C, unsigned M, unsigned N,
                                           unsigned K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (unsigned k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // the tiles are overwritten next iteration
  }
  C[row * N + col] = acc;
}
