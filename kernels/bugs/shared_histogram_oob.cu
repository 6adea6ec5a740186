// memcheck: a shared-memory histogram with 16 bins computes the bin as v / 16 for values up to
// 256 inclusive, so the value 256 lands in bin 16, one past the end (a shared atomic out of
// bounds).
#define BINS 16

extern "C" __global__ void shared_histogram_oob(const unsigned* v, unsigned* hist) {
  __shared__ unsigned bins[BINS];
  const unsigned t = threadIdx.x;
  if (t < BINS) bins[t] = 0;
  __syncthreads();
  atomicAdd(&bins[v[t] / 16], 1u);
  __syncthreads();
  if (t < BINS) hist[t] = bins[t];
}

extern "C" __global__ void shared_histogram_oob_fixed(const unsigned* v, unsigned* hist) {
  __shared__ unsigned bins[BINS];
  const unsigned t = threadIdx.x;
  if (t < BINS) bins[t] = 0;
  __syncthreads();
  atomicAdd(&bins[min(v[t] / 16, BINS - 1u)], 1u);
  __syncthreads();
  if (t < BINS) hist[t] = bins[t];
}
