// memcheck: a tiled matrix-vector product whose tile loop runs one tile too far (t <= n / TILE
// instead of t < n / TILE), so the last iteration reads past the end of each row's tile.
#define TILE 32

extern "C" __global__ void tiled_off_by_one(const float* a, const float* x, float* y, unsigned n) {
  __shared__ float xs[TILE];
  const unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (unsigned t = 0; t <= n / TILE; ++t) {
    xs[threadIdx.x] = x[t * TILE + threadIdx.x];
    __syncthreads();
    for (unsigned k = 0; k < TILE; ++k) sum += a[row * n + t * TILE + k] * xs[k];
    __syncthreads();
  }
  y[row] = sum;
}

extern "C" __global__ void tiled_off_by_one_fixed(const float* a, const float* x, float* y,
                                                  unsigned n) {
  __shared__ float xs[TILE];
  const unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (unsigned t = 0; t < n / TILE; ++t) {
    xs[threadIdx.x] = x[t * TILE + threadIdx.x];
    __syncthreads();
    for (unsigned k = 0; k < TILE; ++k) sum += a[row * n + t * TILE + k] * xs[k];
    __syncthreads();
  }
  y[row] = sum;
}
