// A double-precision dot product in two launches. ddot_partial_f64: a fixed grid walks the
// vectors with a grid-stride loop (one fma.rn.f64 chain per thread), each warp reduces with
// __shfl_down_sync on doubles (two 32-bit shuffles each), and the first warp reduces the warp
// sums into one partial per block. dsum_f64: one block folds the partials the same way.
#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ double warpSumDown(double v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

// Reduces one value per thread to lane 0 of warp 0.
__device__ __forceinline__ double blockSum(double v, double* warpSums) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warpSumDown(v);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  v = 0.0;
  if (warp == 0) v = warpSumDown(lane < WARPS ? warpSums[lane] : 0.0);
  return v;
}

extern "C" __global__ void ddot_partial_f64(const double* __restrict__ x,
                                            const double* __restrict__ y,
                                            double* __restrict__ partials, unsigned n) {
  __shared__ double warpSums[WARPS];
  double acc = 0.0;
  for (unsigned i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
    acc += x[i] * y[i];
  acc = blockSum(acc, warpSums);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

extern "C" __global__ void dsum_f64(const double* __restrict__ partials,
                                    double* __restrict__ result, unsigned count) {
  __shared__ double warpSums[WARPS];
  double acc = 0.0;
  for (unsigned i = threadIdx.x; i < count; i += BLOCK) acc += partials[i];
  acc = blockSum(acc, warpSums);
  if (threadIdx.x == 0) result[0] = acc;
}
