// memcheck: a scratch block freed on the early-exit path and again at the end.
extern "C" __global__ void heap_double_free(const int* x, int* y) {
  const unsigned i = threadIdx.x;
  int* tmp = static_cast<int*>(malloc(4 * sizeof(int)));
  for (int k = 0; k < 4; ++k) tmp[k] = x[i] + k;
  y[i] = tmp[0] + tmp[3];
  if (x[i] < 0) free(tmp);
  free(tmp);
}

extern "C" __global__ void heap_double_free_fixed(const int* x, int* y) {
  const unsigned i = threadIdx.x;
  int* tmp = static_cast<int*>(malloc(4 * sizeof(int)));
  for (int k = 0; k < 4; ++k) tmp[k] = x[i] + k;
  y[i] = tmp[0] + tmp[3];
  free(tmp);
}
