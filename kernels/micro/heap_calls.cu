// Calibration of device-side malloc and free (issue 9): what one call costs alone and how the
// cost grows with the threads calling at once. micro_heap_malloc: each thread mallocs `calls`
// blocks of 16 bytes, one after another, and writes a value of its seed's sequence into each;
// micro_heap_free (the next launch) sums and frees them. One launch pair per shape, from one
// thread to heap_list's 32 CTAs of 128 threads; the difference between two sizes, over the
// calls between them, is a call's cost at that shape (the launch's own cost left out).
extern "C" __global__ void micro_heap_malloc(unsigned long long* __restrict__ ptrs,
                                             const unsigned* __restrict__ seeds, unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
  unsigned v = seeds[t];
  for (unsigned k = 0; k < calls; ++k) {
    unsigned* p = static_cast<unsigned*>(malloc(16));
    v = v * 1664525u + 1013904223u;
    if (p) *p = v;
    ptrs[k * threads + t] = reinterpret_cast<unsigned long long>(p);
  }
}

extern "C" __global__ void micro_heap_free(unsigned long long* __restrict__ ptrs,
                                           unsigned* __restrict__ sums, unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
  unsigned sum = 0;
  for (unsigned k = 0; k < calls; ++k) {
    unsigned* p = reinterpret_cast<unsigned*>(ptrs[k * threads + t]);
    if (p) sum += *p;
    free(p);
    ptrs[k * threads + t] = 0;
  }
  sums[t] = sum;
}
