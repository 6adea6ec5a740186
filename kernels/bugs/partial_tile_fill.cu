// initcheck: the shared tile is filled by the first 32 threads only, but all 64 read their
// neighbour's element from it.
extern "C" __global__ void partial_tile_fill(const float* x, float* y) {
  __shared__ float tile[64];
  const unsigned t = threadIdx.x;
  if (t < 32) tile[t] = x[t];
  __syncthreads();
  y[t] = tile[63 - t];
}

extern "C" __global__ void partial_tile_fill_fixed(const float* x, float* y) {
  __shared__ float tile[64];
  const unsigned t = threadIdx.x;
  tile[t] = x[t];
  __syncthreads();
  y[t] = tile[63 - t];
}
