// Dynamic parallelism (CDP2, compiled with -rdc=true): a quicksort in which every partition is
// one single-thread grid that launches a child grid for each side (fire and forget: CDP2 has no
// device-side synchronize, and the host's grid is complete only once every descendant is).
// Short ranges, and ranges past the nesting limit, are sorted in place by insertion.
constexpr int kInsertionBelow = 32;
constexpr int kMaxDepth = 16;  // the chip allows 24 levels below the host's grid

__device__ void insertionSort(unsigned* data, int left, int right) {
  for (int i = left + 1; i <= right; ++i) {
    const unsigned v = data[i];
    int j = i - 1;
    while (j >= left && data[j] > v) {
      data[j + 1] = data[j];
      --j;
    }
    data[j + 1] = v;
  }
}

extern "C" __global__ void cdp_quicksort(unsigned* data, int left, int right, int depth) {
  if (right - left < kInsertionBelow || depth >= kMaxDepth) {
    insertionSort(data, left, right);
    return;
  }
  // Hoare partition around the middle element.
  const unsigned pivot = data[left + (right - left) / 2];
  int i = left, j = right;
  while (i <= j) {
    while (data[i] < pivot) ++i;
    while (data[j] > pivot) --j;
    if (i <= j) {
      const unsigned t = data[i];
      data[i] = data[j];
      data[j] = t;
      ++i;
      --j;
    }
  }
  if (left < j) cdp_quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(data, left, j, depth + 1);
  if (i < right) cdp_quicksort<<<1, 1, 0, cudaStreamFireAndForget>>>(data, i, right, depth + 1);
}
