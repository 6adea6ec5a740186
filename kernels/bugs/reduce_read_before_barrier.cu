// racecheck: a tree reduction whose barrier comes after the read of the next level instead of
// between the levels, so a thread reads s[t + stride] while its owner may still be adding to it.
#define BLOCK 128

extern "C" __global__ void reduce_read_before_barrier(const float* x, float* sums) {
  __shared__ float s[BLOCK];
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
  }
  __syncthreads();
  if (t == 0) sums[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_read_before_barrier_fixed(const float* x, float* sums) {
  __shared__ float s[BLOCK];
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = s[0];
}
