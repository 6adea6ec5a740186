// memcheck: a shift through a static shared array reads s[t + 1], one element past its end for
// the last thread.
extern "C" __global__ void static_shared_overflow(const float* x, float* y) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  y[t] = s[t + 1] - s[t];
}

extern "C" __global__ void static_shared_overflow_fixed(const float* x, float* y) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  y[t] = (t + 1 < 64 ? s[t + 1] : 0.0f) - s[t];
}
