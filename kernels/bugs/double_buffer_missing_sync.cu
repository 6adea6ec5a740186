// racecheck: a tiled loop refills its shared tile at the top of each iteration; the barrier at
// the end of the iteration is missing, so a fast warp overwrites the tile while a slow warp
// still reads the previous one (write after read across iterations).
#define TILE 64

extern "C" __global__ void double_buffer_missing_sync(const float* x, float* y, unsigned tiles) {
  __shared__ float s[TILE];
  const unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (unsigned k = 0; k < tiles; ++k) {
    s[t] = x[k * TILE + t];
    __syncthreads();
    acc += s[(t + 32) % TILE];
  }
  y[t] = acc;
}

extern "C" __global__ void double_buffer_missing_sync_fixed(const float* x, float* y,
                                                            unsigned tiles) {
  __shared__ float s[TILE];
  const unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (unsigned k = 0; k < tiles; ++k) {
    s[t] = x[k * TILE + t];
    __syncthreads();
    acc += s[(t + 32) % TILE];
    __syncthreads();
  }
  y[t] = acc;
}
