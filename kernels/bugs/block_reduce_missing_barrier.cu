// racecheck: a two-level block sum: lane 0 of each warp stores its warp's sum, and warp 0 adds
// them up without the __syncthreads() that makes the other warps' stores visible.
__device__ float warpSum(float v) {
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
  return v;
}

extern "C" __global__ void block_reduce_missing_barrier(const float* x, float* sums) {
  __shared__ float partial[4];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  const float v = warpSum(x[blockIdx.x * 128 + t]);
  if (lane == 0) partial[warp] = v;
  if (warp == 0) {
    const float p = warpSum(lane < 4 ? partial[lane] : 0.0f);
    if (lane == 0) sums[blockIdx.x] = p;
  }
}

extern "C" __global__ void block_reduce_missing_barrier_fixed(const float* x, float* sums) {
  __shared__ float partial[4];
  const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32;
  const float v = warpSum(x[blockIdx.x * 128 + t]);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const float p = warpSum(lane < 4 ? partial[lane] : 0.0f);
    if (lane == 0) sums[blockIdx.x] = p;
  }
}
