// Sorts each segment of 512 unsigned keys ascending with a bitonic network in shared memory:
// 256 threads each compare-exchange one pair per step, with a barrier between steps. The
// partial last segment is padded with 0xffffffff, which sorts to its end and is not stored.
#define THREADS 256
#define SEG (2 * THREADS)

extern "C" __global__ void bitonic_shared_u32(const unsigned* __restrict__ in,
                                              unsigned* __restrict__ out, unsigned n) {
  __shared__ unsigned s[SEG];
  const unsigned tid = threadIdx.x, base = blockIdx.x * SEG;
  for (unsigned i = tid; i < SEG; i += THREADS) s[i] = base + i < n ? in[base + i] : 0xffffffffu;
  for (unsigned k = 2; k <= SEG; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      __syncthreads();
      const unsigned lo = 2 * tid - (tid & (j - 1));  // the pair (lo, lo + j) of thread tid
      const unsigned hi = lo + j;
      const bool ascending = (lo & k) == 0;
      const unsigned a = s[lo], b = s[hi];
      if ((a > b) == ascending) {
        s[lo] = b;
        s[hi] = a;
      }
    }
  }
  __syncthreads();
  for (unsigned i = tid; i < SEG; i += THREADS)
    if (base + i < n) out[base + i] = s[i];
}
