// racecheck: a Hillis-Steele inclusive scan in place with one barrier per step: a thread writes
// s[t] while the thread `offset` above it may still be reading it (the read and the write of a
// step need a barrier between them).
#define N 64

extern "C" __global__ void scan_missing_sync(const int* x, int* y) {
  __shared__ int s[N];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  for (unsigned offset = 1; offset < N; offset *= 2) {
    const int add = t >= offset ? s[t - offset] : 0;
    s[t] += add;
    __syncthreads();
  }
  y[t] = s[t];
}

extern "C" __global__ void scan_missing_sync_fixed(const int* x, int* y) {
  __shared__ int s[N];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  for (unsigned offset = 1; offset < N; offset *= 2) {
    const int add = t >= offset ? s[t - offset] : 0;
    __syncthreads();
    s[t] += add;
    __syncthreads();
  }
  y[t] = s[t];
}
