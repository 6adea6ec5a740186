// out = transpose(in) through a 32x32 shared-memory tile: both global reads and global writes
// are coalesced, but the tile is read down its columns, so the 32 lanes of a warp hit one bank
// (a 32-way conflict) on every shared load.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_tiled_f32(const float* __restrict__ in,
                                               float* __restrict__ out, unsigned width,
                                               unsigned height) {
  __shared__ float tile[TILE][TILE];
  unsigned x = blockIdx.x * TILE + threadIdx.x;
  unsigned y = blockIdx.y * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;  // the output's column index runs over the input's rows
  y = blockIdx.x * TILE + threadIdx.y;
  for (unsigned j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
