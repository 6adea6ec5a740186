// A 5-point stencil on a width x height float grid with zero values outside it:
// out = c0 * u + c1 * ((north + south) + (west + east)).
// The shared variant stages a 16x16 tile plus a one-cell halo (18x18, loaded cooperatively by
// the 256 threads, zeros outside the grid) and reads the five values from shared memory; the
// naive variant reads them from global memory with per-neighbour bounds checks.
#define TX 16
#define TY 16
#define HX (TX + 2)
#define HY (TY + 2)

__device__ __forceinline__ float stencilPoint(float c0, float c1, float u, float n, float s,
                                              float w, float e) {
  return c0 * u + c1 * ((n + s) + (w + e));
}

extern "C" __global__ void stencil5_shared_f32(const float* __restrict__ in,
                                               float* __restrict__ out, unsigned width,
                                               unsigned height, float c0, float c1) {
  __shared__ float tile[HY][HX];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = int(blockIdx.x * TX) - 1, y0 = int(blockIdx.y * TY) - 1;
  for (unsigned idx = ty * TX + tx; idx < HX * HY; idx += TX * TY) {
    const int gx = x0 + int(idx % HX), gy = y0 + int(idx / HX);
    const bool inside = gx >= 0 && gy >= 0 && gx < int(width) && gy < int(height);
    tile[idx / HX][idx % HX] = inside ? in[gy * width + gx] : 0.0f;
  }
  __syncthreads();
  const unsigned x = blockIdx.x * TX + tx, y = blockIdx.y * TY + ty;
  if (x >= width || y >= height) return;
  out[y * width + x] = stencilPoint(c0, c1, tile[ty + 1][tx + 1], tile[ty][tx + 1],
                                    tile[ty + 2][tx + 1], tile[ty + 1][tx], tile[ty + 1][tx + 2]);
}

extern "C" __global__ void stencil5_naive_f32(const float* __restrict__ in, float* __restrict__ out,
                                              unsigned width, unsigned height, float c0, float c1) {
  const unsigned x = blockIdx.x * TX + threadIdx.x, y = blockIdx.y * TY + threadIdx.y;
  if (x >= width || y >= height) return;
  const unsigned i = y * width + x;
  const float n = y > 0 ? in[i - width] : 0.0f;
  const float s = y + 1 < height ? in[i + width] : 0.0f;
  const float w = x > 0 ? in[i - 1] : 0.0f;
  const float e = x + 1 < width ? in[i + 1] : 0.0f;
  out[i] = stencilPoint(c0, c1, in[i], n, s, w, e);
}
