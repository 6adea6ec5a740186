// initcheck: a 1-D stencil tile whose right halo is never loaded (only the left one is), so
// the last threads read shared bytes nobody wrote.
#define B 64
#define R 1

extern "C" __global__ void stencil_halo_unloaded(const float* x, float* y) {
  __shared__ float tile[B + 2 * R];
  const unsigned t = threadIdx.x, i = blockIdx.x * B + t;
  tile[t + R] = x[i + R];
  if (t < R) tile[t] = x[i];
  __syncthreads();
  y[i] = tile[t] + tile[t + R] + tile[t + 2 * R];
}

extern "C" __global__ void stencil_halo_unloaded_fixed(const float* x, float* y) {
  __shared__ float tile[B + 2 * R];
  const unsigned t = threadIdx.x, i = blockIdx.x * B + t;
  tile[t + R] = x[i + R];
  if (t < R) {
    tile[t] = x[i];
    tile[t + B + R] = x[i + B + R];
  }
  __syncthreads();
  y[i] = tile[t] + tile[t + R] + tile[t + 2 * R];
}
