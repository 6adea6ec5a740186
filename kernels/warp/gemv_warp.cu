// y = A x for a row-major rows x cols matrix, one warp per row: lane l accumulates columns
// l, l+32, ... (coalesced row reads, x shared through the cache) in one fma chain, and the warp
// sum is a __shfl_down_sync tree into lane 0.
#define WARPS_PER_BLOCK 8

extern "C" __global__ void gemv_warp_f32(const float* __restrict__ A, const float* __restrict__ x,
                                         float* __restrict__ y, unsigned rows, unsigned cols) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
  if (row >= rows) return;
  const float* a = A + size_t(row) * cols;
  float acc = 0.0f;
  for (unsigned c = lane; c < cols; c += 32) acc += a[c] * x[c];
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (lane == 0) y[row] = acc;
}
