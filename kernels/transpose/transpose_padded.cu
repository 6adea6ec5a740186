// out = transpose(in) through a 32x33 shared-memory tile: the extra column shifts each row by
// one bank, so reading a column touches 32 different banks and the conflicts of
// transpose_tiled disappear.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_padded_f32(const float* __restrict__ in,
                                                float* __restrict__ out, unsigned width,
                                                unsigned height) {
  __shared__ float tile[TILE][TILE + 1];
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
