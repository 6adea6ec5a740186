// racecheck: each CTA writes a tile of 33 outputs for 32 inputs (the tile size off by one), so
// neighbouring CTAs both write the element at their boundary.
extern "C" __global__ void overlapping_tiles(const float* x, float* y) {
  const unsigned base = blockIdx.x * 32;
  y[base + threadIdx.x] = 2.0f * x[base + threadIdx.x];
  if (threadIdx.x == 0) y[base + 32] = 0.0f;
}

extern "C" __global__ void overlapping_tiles_fixed(const float* x, float* y) {
  const unsigned base = blockIdx.x * 32;
  y[base + threadIdx.x] = 2.0f * x[base + threadIdx.x];
  if (threadIdx.x == 0 && blockIdx.x + 1 == gridDim.x) y[base + 32] = 0.0f;
}
