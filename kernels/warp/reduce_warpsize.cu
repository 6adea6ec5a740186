// Block sums of unsigned integers written for any warp size, the way portable CUDA code is:
// lanes, warps and the shuffle distances come from `warpSize`, which nvcc compiles to the PTX
// predefined constant WARP_SZ (`mov.u32 %r, WARP_SZ;`, `rem.u32 %r, %r, WARP_SZ;`). Each warp
// sums with __shfl_xor_sync, warp 0 sums the warps' sums; integer sums wrap, so the result is
// exact in any order.
#define BLOCK 256

__device__ __forceinline__ unsigned warpSum(unsigned v) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

extern "C" __global__ void reduce_warpsize_u32(const unsigned* __restrict__ in,
                                               unsigned* __restrict__ blockSums, unsigned n) {
  __shared__ unsigned warpSums[BLOCK];  // room for warps of any size
  const unsigned tid = threadIdx.x, lane = tid % warpSize, warp = tid / warpSize;
  const unsigned warps = (blockDim.x + warpSize - 1) / warpSize;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  unsigned v = warpSum(i < n ? in[i] : 0u);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = warpSum(lane < warps ? warpSums[lane] : 0u);
    if (lane == 0) blockSums[blockIdx.x] = v;
  }
}
