// Calibration of device-side malloc and free (issue 9): what one call costs alone and how the
// cost grows with the threads calling at once. micro_heap_malloc: each thread mallocs `calls`
// blocks of 16 bytes, one after another, and writes a value of its seed's sequence into each;
// micro_heap_free (the next launch) sums and frees them. One launch pair per shape, from one
// thread to heap_list's 32 CTAs of 128 threads; the difference between two sizes, over the
// calls between them, is a call's cost at that shape (the launch's own cost left out).

// Thread t's `calls` mallocs (each block holding the next value of t's seeded sequence) and
// their frees (the sum of the values read back), shared by both pairs of kernels.
__device__ __forceinline__ void mallocSeries(unsigned long long* __restrict__ ptrs, unsigned v,
                                             unsigned calls, unsigned t, unsigned threads) {
  for (unsigned k = 0; k < calls; ++k) {
    unsigned* p = static_cast<unsigned*>(malloc(16));
    v = v * 1664525u + 1013904223u;
    if (p) *p = v;
    ptrs[k * threads + t] = reinterpret_cast<unsigned long long>(p);
  }
}

__device__ __forceinline__ unsigned freeSeries(unsigned long long* __restrict__ ptrs,
                                               unsigned calls, unsigned t, unsigned threads) {
  unsigned sum = 0;
  for (unsigned k = 0; k < calls; ++k) {
    unsigned* p = reinterpret_cast<unsigned*>(ptrs[k * threads + t]);
    if (p) sum += *p;
    free(p);
    ptrs[k * threads + t] = 0;
  }
  return sum;
}

extern "C" __global__ void micro_heap_malloc(unsigned long long* __restrict__ ptrs,
                                             const unsigned* __restrict__ seeds, unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  mallocSeries(ptrs, seeds[t], calls, t, gridDim.x * blockDim.x);
}

extern "C" __global__ void micro_heap_free(unsigned long long* __restrict__ ptrs,
                                           unsigned* __restrict__ sums, unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  sums[t] = freeSeries(ptrs, calls, t, gridDim.x * blockDim.x);
}

// micro_heap_lanes (issue 9): the same calls by only the first `lanes` lanes of every warp (the
// others only write null pointers, so each call is made under a partial mask), on 32 CTAs of
// 128 threads: whether the allocator's cost on a contended device is per lane, per warp, or
// depends on the warp's mask being full (heap_list, whose warps call with the lanes whose lists are
// not yet done, pays 1,700 cycles a call where micro_heap_calls' full warps pay 250-2,000).
extern "C" __global__ void micro_heap_lanes_malloc(unsigned long long* __restrict__ ptrs,
                                                   const unsigned* __restrict__ seeds,
                                                   unsigned calls, unsigned lanes) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
  if ((threadIdx.x & 31u) < lanes) {
    mallocSeries(ptrs, seeds[t], calls, t, threads);
  } else {
    for (unsigned k = 0; k < calls; ++k) ptrs[k * threads + t] = 0;
  }
}

extern "C" __global__ void micro_heap_lanes_free(unsigned long long* __restrict__ ptrs,
                                                 unsigned* __restrict__ sums, unsigned calls,
                                                 unsigned lanes) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  sums[t] = (threadIdx.x & 31u) < lanes ? freeSeries(ptrs, calls, t, gridDim.x * blockDim.x) : 0;
}

// micro_heap_shrink (issue 9): lane l of every warp makes calls - calls * l / 32 mallocs (lane 0
// all of them, lane 31 a 32nd), so the warp's mask shrinks round by round as heap_list's does
// while its lists end (micro_heap_lanes' masks stay fixed); its other pointers stay null. On 32
// CTAs of 128 threads: whether a call under a mask that changed since the warp's last costs more
// (heap_list pays 1.4 times what the fitted cost of its calls a thread gives).
__device__ __forceinline__ unsigned shrinkCalls(unsigned calls) {
  return calls - calls * (threadIdx.x & 31u) / 32u;
}

extern "C" __global__ void micro_heap_shrink_malloc(unsigned long long* __restrict__ ptrs,
                                                    const unsigned* __restrict__ seeds,
                                                    unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
  const unsigned mine = shrinkCalls(calls);
  mallocSeries(ptrs, seeds[t], mine, t, threads);
  for (unsigned k = mine; k < calls; ++k) ptrs[k * threads + t] = 0;
}

extern "C" __global__ void micro_heap_shrink_free(unsigned long long* __restrict__ ptrs,
                                                  unsigned* __restrict__ sums, unsigned calls) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  sums[t] = freeSeries(ptrs, shrinkCalls(calls), t, gridDim.x * blockDim.x);
}
