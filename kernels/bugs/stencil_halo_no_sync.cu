// racecheck: a 1-D stencil whose tile (with a halo loaded by the first threads) is read before
// the barrier that should follow the loads.
#define B 64
#define R 2

extern "C" __global__ void stencil_halo_no_sync(const float* x, float* y, unsigned n) {
  __shared__ float tile[B + 2 * R];
  const unsigned t = threadIdx.x, i = blockIdx.x * B + t;
  tile[t + R] = x[i];
  if (t < R) {
    tile[t] = i >= R ? x[i - R] : 0.0f;
    tile[t + B + R] = i + B < n ? x[i + B] : 0.0f;
  }
  float sum = 0.0f;
  for (int k = -R; k <= R; ++k) sum += tile[t + R + k];
  y[i] = sum;
}

extern "C" __global__ void stencil_halo_no_sync_fixed(const float* x, float* y, unsigned n) {
  __shared__ float tile[B + 2 * R];
  const unsigned t = threadIdx.x, i = blockIdx.x * B + t;
  tile[t + R] = x[i];
  if (t < R) {
    tile[t] = i >= R ? x[i - R] : 0.0f;
    tile[t + B + R] = i + B < n ? x[i + B] : 0.0f;
  }
  __syncthreads();
  float sum = 0.0f;
  for (int k = -R; k <= R; ++k) sum += tile[t + R + k];
  y[i] = sum;
}
