// out = transpose(in) for a height x width row-major float matrix, straight from global memory:
// the reads are coalesced, the writes stride by `height` floats (one sector per lane).
// A 32x8 block covers a 32x32 tile, each thread moving four rows, as the tiled variants do.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_naive_f32(const float* __restrict__ in,
                                               float* __restrict__ out, unsigned width,
                                               unsigned height) {
  const unsigned x = blockIdx.x * TILE + threadIdx.x;
  const unsigned y = blockIdx.y * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) out[x * height + (y + j)] = in[(y + j) * width + x];
}
