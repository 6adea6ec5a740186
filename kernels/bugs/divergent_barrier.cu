// synccheck: a __syncthreads() inside a branch that only some threads of a warp take (the
// threads past the end of the data skip it).
extern "C" __global__ void divergent_barrier(const float* x, float* y, unsigned n) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  if (t < n) {
    s[t] = x[t];
    __syncthreads();
    y[t] = s[n - 1 - t];
  }
}

extern "C" __global__ void divergent_barrier_fixed(const float* x, float* y, unsigned n) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  if (t < n) s[t] = x[t];
  __syncthreads();
  if (t < n) y[t] = s[n - 1 - t];
}
