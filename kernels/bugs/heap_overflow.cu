// memcheck: a per-thread block of n ints filled with <= n: one int past its end.
extern "C" __global__ void heap_overflow(int* y, int n) {
  const unsigned i = threadIdx.x;
  int* row = static_cast<int*>(malloc(n * sizeof(int)));
  for (int k = 0; k <= n; ++k) row[k] = int(i) * k;
  y[i] = row[n - 1];
  free(row);
}

extern "C" __global__ void heap_overflow_fixed(int* y, int n) {
  const unsigned i = threadIdx.x;
  int* row = static_cast<int*>(malloc(n * sizeof(int)));
  for (int k = 0; k < n; ++k) row[k] = int(i) * k;
  y[i] = row[n - 1];
  free(row);
}
