// Block sums of floats by sequential addressing: at stride s (halving from 128) the first s
// threads add the element s away, so active threads stay contiguous (whole warps retire
// together) and consecutive lanes touch consecutive banks. Each block's float sum follows this
// fixed tree, which the CPU reference mirrors.
#define BLOCK 256

extern "C" __global__ void reduce_sequential_f32(const float* __restrict__ in,
                                                 float* __restrict__ blockSums, unsigned n) {
  __shared__ float s[BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * BLOCK + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) blockSums[blockIdx.x] = s[0];
}
