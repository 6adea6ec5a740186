// Block sums of floats with warp shuffles: each thread first adds two elements a block apart
// (halving the blocks), each warp reduces with __shfl_down_sync, and the first warp reduces the
// eight warp sums. Shared memory is touched twice per warp instead of at every level, and there
// is one barrier.
#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ float warpSumDown(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;  // lane 0 holds the warp's sum
}

extern "C" __global__ void reduce_shuffle_f32(const float* __restrict__ in,
                                              float* __restrict__ blockSums, unsigned n) {
  __shared__ float warpSums[WARPS];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned i = blockIdx.x * (2 * BLOCK) + tid;
  float v = i < n ? in[i] : 0.0f;
  if (i + BLOCK < n) v += in[i + BLOCK];
  v = warpSumDown(v);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < WARPS ? warpSums[lane] : 0.0f;
    v = warpSumDown(v);
    if (lane == 0) blockSums[blockIdx.x] = v;
  }
}
