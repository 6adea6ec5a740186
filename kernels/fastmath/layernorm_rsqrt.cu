// Layer normalisation as most code writes it: rstd = rsqrtf(var + eps), the hardware's
// reciprocal square root (rsqrt.approx.f32, MUFU.RSQ), without fast math elsewhere. One warp per
// row; the mean and the variance are warp sums by __shfl_xor_sync butterflies.
#define WARPS_PER_BLOCK 4

__device__ __forceinline__ float warpSumXor(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

extern "C" __global__ void layernorm_rsqrt_f32(const float* __restrict__ x,
                                               const float* __restrict__ gamma,
                                               const float* __restrict__ beta,
                                               float* __restrict__ y, unsigned rows,
                                               unsigned cols, float eps) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
  if (row >= rows) return;
  const float* xr = x + size_t(row) * cols;
  float* yr = y + size_t(row) * cols;
  const float invCols = 1.0f / float(cols);
  float s = 0.0f;
  for (unsigned c = lane; c < cols; c += 32) s += xr[c];
  const float mean = warpSumXor(s) * invCols;
  float q = 0.0f;
  for (unsigned c = lane; c < cols; c += 32) {
    const float d = xr[c] - mean;
    q += d * d;
  }
  const float rstd = rsqrtf(warpSumXor(q) * invCols + eps);
  for (unsigned c = lane; c < cols; c += 32) yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
}
