// memcheck: a backward difference reads x[i - 1] for i = 0, the element before the buffer.
extern "C" __global__ void negative_index(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] - x[i - 1];
}

extern "C" __global__ void negative_index_fixed(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = i > 0 ? x[i] - x[i - 1] : x[i];
}
