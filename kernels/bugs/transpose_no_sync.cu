// racecheck: a tiled transpose that reads the shared tile transposed without the barrier after
// filling it.
#define T 16

extern "C" __global__ void transpose_no_sync(const float* in, float* out, unsigned n) {
  __shared__ float tile[T][T + 1];
  const unsigned x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  const unsigned tx = blockIdx.y * T + threadIdx.x, ty = blockIdx.x * T + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void transpose_no_sync_fixed(const float* in, float* out, unsigned n) {
  __shared__ float tile[T][T + 1];
  const unsigned x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  const unsigned tx = blockIdx.y * T + threadIdx.x, ty = blockIdx.x * T + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}
