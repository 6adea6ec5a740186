// memcheck (compute-sanitizer: --leak-check full): a block freed only on one path.
extern "C" __global__ void heap_leak(const int* x, int* y) {
  const unsigned i = threadIdx.x;
  int* pair = static_cast<int*>(malloc(2 * sizeof(int)));
  pair[0] = x[i];
  pair[1] = x[i] * x[i];
  y[i] = pair[0] + pair[1];
  if (i % 2 == 0) free(pair);
}

extern "C" __global__ void heap_leak_fixed(const int* x, int* y) {
  const unsigned i = threadIdx.x;
  int* pair = static_cast<int*>(malloc(2 * sizeof(int)));
  pair[0] = x[i];
  pair[1] = x[i] * x[i];
  y[i] = pair[0] + pair[1];
  free(pair);
}
