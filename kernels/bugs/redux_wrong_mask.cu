// synccheck: a warp sum by __reduce_add_sync whose member mask names the lower half-warp only
// while every lane executes it.
extern "C" __global__ void redux_wrong_mask(const unsigned* x, unsigned* sums) {
  const unsigned v = __reduce_add_sync(0x0000ffffu, x[blockIdx.x * 32 + threadIdx.x]);
  if (threadIdx.x == 0) sums[blockIdx.x] = v;
}

extern "C" __global__ void redux_wrong_mask_fixed(const unsigned* x, unsigned* sums) {
  const unsigned v = __reduce_add_sync(0xffffffffu, x[blockIdx.x * 32 + threadIdx.x]);
  if (threadIdx.x == 0) sums[blockIdx.x] = v;
}
