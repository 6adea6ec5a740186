// Warp-shuffle and barrier costs (TIMING.md section 6, #9).

// `iters` dependent shuffles: lane l takes lane l+1's value and adds one.
extern "C" __global__ void micro_shfl_chain(unsigned* out, const unsigned* in, unsigned iters) {
  unsigned v = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) v = __shfl_sync(0xffffffffu, v, (threadIdx.x + 1) & 31) + 1;
  out[threadIdx.x] = v;
}

// `iters` rounds of write, bar.sync, read the neighbour's, bar.sync, over the whole CTA.
extern "C" __global__ void micro_bar_chain(unsigned* out, const unsigned* in, unsigned iters) {
  __shared__ unsigned s[1024];
  unsigned v = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    s[threadIdx.x] = v;
    __syncthreads();
    v = s[(threadIdx.x + 1) % blockDim.x] + 1;
    __syncthreads();
  }
  out[threadIdx.x] = v;
}
