// memcheck: a 2-D kernel over a rows x cols matrix indexes its input with the dimensions
// swapped ([row * rows + col]: the row stride should be cols), which runs past the end when
// rows > cols.
extern "C" __global__ void swapped_dims(const float* a, float* b, unsigned rows, unsigned cols) {
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) b[row * cols + col] = a[row * rows + col];
}

extern "C" __global__ void swapped_dims_fixed(const float* a, float* b, unsigned rows,
                                              unsigned cols) {
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) b[row * cols + col] = a[row * cols + col];
}
