// Row softmax built as many projects build it, with --use_fast_math: expf becomes
// ex2.approx.ftz of x * log2(e), the division a div.approx (rcp.approx and a multiply), and
// every f32 operation flushes subnormals (.ftz). One warp per row: lane l takes columns l,
// l+32, ...; the row maximum and the sum are combined by __shfl_xor_sync butterflies.
// nvcc-flags: --use_fast_math
#define WARPS_PER_BLOCK 4

extern "C" __global__ void softmax_fast_f32(const float* __restrict__ x, float* __restrict__ y,
                                            unsigned rows, unsigned cols) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
  if (row >= rows) return;  // whole warps leave together: the shuffles below stay full-warp
  const float* xr = x + size_t(row) * cols;
  float* yr = y + size_t(row) * cols;
  float m = -INFINITY;
  for (unsigned c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
  for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  float s = 0.0f;
  for (unsigned c = lane; c < cols; c += 32) {
    const float e = expf(xr[c] - m);
    yr[c] = e;
    s += e;
  }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  for (unsigned c = lane; c < cols; c += 32) yr[c] = yr[c] / s;
}
