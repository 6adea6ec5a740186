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

// Barriers after conflicted stores: `iters` rounds in which every thread of the CTA (8 warps)
// stores one word at threadIdx.x * stride (a gcd(stride, 32)-way conflict within each warp) and
// then waits at bar.sync, which cannot release before the stores are performed (PTX gives
// bar.sync membar.cta's ordering). At the end each thread reads its neighbour's last word.
extern "C" __global__ void micro_bar_store(unsigned* out, const unsigned* in, unsigned stride,
                                           unsigned iters) {
  __shared__ unsigned s[8192];
  const unsigned at = threadIdx.x * stride;
  const unsigned v = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    s[at] = v + i;
    __syncthreads();
  }
  out[threadIdx.x] = s[((threadIdx.x + 1) % blockDim.x) * stride];
}
