// memcheck: the result is read from a block after the block was freed.
extern "C" __global__ void heap_use_after_free(const int* x, int* y) {
  const unsigned i = threadIdx.x;
  int* acc = static_cast<int*>(malloc(sizeof(int)));
  *acc = 2 * x[i];
  free(acc);
  y[i] = *acc;
}

extern "C" __global__ void heap_use_after_free_fixed(const int* x, int* y) {
  const unsigned i = threadIdx.x;
  int* acc = static_cast<int*>(malloc(sizeof(int)));
  *acc = 2 * x[i];
  y[i] = *acc;
  free(acc);
}
