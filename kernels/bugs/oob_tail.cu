// memcheck: the bounds test lets one thread too many through (i <= n), which reads and writes
// one element past the end of both buffers.
extern "C" __global__ void oob_tail(const float* x, float* y, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) y[i] = 2.0f * x[i];
}

extern "C" __global__ void oob_tail_fixed(const float* x, float* y, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i];
}
