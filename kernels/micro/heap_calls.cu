// Calibration of device-side malloc and free (issue 9): what one call costs alone and how the
// cost grows with the threads calling at once. micro_heap_malloc: each thread mallocs `calls`
// blocks of 16 bytes, one after another, keeping the pointers; micro_heap_free (the next
// launch) frees them. One launch pair per shape, from one thread to heap_list's 32 CTAs of 128
// threads; the difference between two sizes, over the calls between them, is a call's cost at
// that shape (the launch's own cost left out).
extern "C" __global__ void micro_heap_malloc(unsigned long long* __restrict__ ptrs,
                                             unsigned* __restrict__ made, unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
  unsigned n = 0;
  for (unsigned k = 0; k < calls; ++k) {
    void* p = malloc(16);
    ptrs[k * threads + t] = reinterpret_cast<unsigned long long>(p);
    n += p != nullptr;
  }
  made[t] = n;
}

extern "C" __global__ void micro_heap_free(unsigned long long* __restrict__ ptrs,
                                           unsigned* __restrict__ freed, unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
  unsigned n = 0;
  for (unsigned k = 0; k < calls; ++k) {
    void* p = reinterpret_cast<void*>(ptrs[k * threads + t]);
    n += p != nullptr;
    free(p);
    ptrs[k * threads + t] = 0;
  }
  freed[t] = n;
}
