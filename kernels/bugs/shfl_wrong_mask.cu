// synccheck: a warp reduction by shuffles whose member mask names only the lower 16 lanes
// (0xffff, meant as "all lanes") while all 32 lanes execute it.
extern "C" __global__ void shfl_wrong_mask(const float* x, float* sums) {
  float v = x[blockIdx.x * 32 + threadIdx.x];
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffff, v, off);
  if (threadIdx.x == 0) sums[blockIdx.x] = v;
}

extern "C" __global__ void shfl_wrong_mask_fixed(const float* x, float* sums) {
  float v = x[blockIdx.x * 32 + threadIdx.x];
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffff, v, off);
  if (threadIdx.x == 0) sums[blockIdx.x] = v;
}
