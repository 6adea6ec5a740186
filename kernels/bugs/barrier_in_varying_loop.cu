// synccheck: a loop whose trip count depends on the thread's data holds a __syncthreads():
// threads of one warp reach the barrier different numbers of times.
extern "C" __global__ void barrier_in_varying_loop(const int* count, float* y) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  float acc = 0.0f;
  s[t] = float(t);
  for (int k = 0; k < count[t]; ++k) {
    __syncthreads();
    acc += s[(t + k) % 64];
  }
  y[t] = acc;
}

extern "C" __global__ void barrier_in_varying_loop_fixed(const int* count, float* y) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  float acc = 0.0f;
  s[t] = float(t);
  __syncthreads();
  for (int k = 0; k < count[t]; ++k) acc += s[(t + k) % 64];
  y[t] = acc;
}
