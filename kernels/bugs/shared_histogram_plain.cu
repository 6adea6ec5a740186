// racecheck: a shared-memory histogram that increments its bins with a plain s[bin]++ instead
// of atomicAdd: threads of different warps read and write the same bin with nothing between.
#define BINS 8

extern "C" __global__ void shared_histogram_plain(const unsigned* v, unsigned* hist) {
  __shared__ unsigned bins[BINS];
  const unsigned t = threadIdx.x;
  if (t < BINS) bins[t] = 0;
  __syncthreads();
  bins[v[t] % BINS]++;
  __syncthreads();
  if (t < BINS) hist[t] = bins[t];
}

extern "C" __global__ void shared_histogram_plain_fixed(const unsigned* v, unsigned* hist) {
  __shared__ unsigned bins[BINS];
  const unsigned t = threadIdx.x;
  if (t < BINS) bins[t] = 0;
  __syncthreads();
  atomicAdd(&bins[v[t] % BINS], 1u);
  __syncthreads();
  if (t < BINS) hist[t] = bins[t];
}
