// A grand total in one launch: each block reduces with warp shuffles and adds its sum to a
// global total with one atomicAdd. Unsigned addition is associative, so the arbitrary order in
// which blocks arrive cannot change the result.
#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ unsigned warpSumDown(unsigned v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

extern "C" __global__ void reduce_atomic_u32(const unsigned* __restrict__ in,
                                             unsigned* __restrict__ total, unsigned n) {
  __shared__ unsigned warpSums[WARPS];
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned i = blockIdx.x * BLOCK + tid;
  unsigned v = warpSumDown(i < n ? in[i] : 0u);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSumDown(lane < WARPS ? warpSums[lane] : 0u);
    if (lane == 0) atomicAdd(total, v);
  }
}
