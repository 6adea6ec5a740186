// Block sums by interleaved addressing: at stride s the threads whose index is a multiple of
// 2s add their neighbour s away. The `tid % (2*s)` test leaves most lanes of every warp idle
// (divergent branches, poor SIMD efficiency) and the widening stride conflicts on banks: the
// textbook first step that the other reduction variants improve on.
#define BLOCK 256

extern "C" __global__ void reduce_interleaved_u32(const unsigned* __restrict__ in,
                                                  unsigned* __restrict__ blockSums, unsigned n) {
  __shared__ unsigned s[BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * BLOCK + tid;
  s[tid] = i < n ? in[i] : 0u;  // the tail of the last block contributes zeros
  __syncthreads();
  for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) blockSums[blockIdx.x] = s[0];
}
