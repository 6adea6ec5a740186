// racecheck: the last warp of a shared-memory reduction goes on without barriers, relying on
// the warp executing in lockstep (the pre-Volta idiom with a volatile pointer). On sm_70 and
// later a warp's threads are scheduled independently: each step needs __syncwarp().
#define BLOCK 64

extern "C" __global__ void warp_reduce_no_syncwarp(const float* x, float* sums) {
  __shared__ float s[BLOCK];
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * BLOCK + t];
  __syncthreads();
  if (t < 32) {
    volatile float* v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0) sums[blockIdx.x] = s[0];
}

extern "C" __global__ void warp_reduce_no_syncwarp_fixed(const float* x, float* sums) {
  __shared__ float s[BLOCK];
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * BLOCK + t];
  __syncthreads();
  if (t < 32) {
    float v = s[t] + s[t + 32];
    for (unsigned off = 16; off > 0; off /= 2) {
      s[t] = v;
      __syncwarp();
      v += s[(t + off) % 32];
      __syncwarp();
    }
    if (t == 0) sums[blockIdx.x] = v;
  }
}
