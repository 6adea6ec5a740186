// Row softmax, one warp per row: lane l takes columns l, l+32, ...; the row maximum and the
// sum of exponentials are combined across the warp with __shfl_xor_sync butterflies, so every
// lane ends with the same value and no shared memory or barrier is needed. expf compiles to an
// ex2.approx.ftz.f32 sequence, the one non-IEEE step.
#define WARPS_PER_BLOCK 4

extern "C" __global__ void softmax_row_f32(const float* __restrict__ x, float* __restrict__ y,
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
  const float inv = 1.0f / s;
  for (unsigned c = lane; c < cols; c += 32) yr[c] *= inv;
}
