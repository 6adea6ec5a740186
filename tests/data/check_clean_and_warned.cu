// For tests/check: kernels that the checkers must not call errors.
// exited_shuffle: threads past n return before a full-mask shuffle (PTX allows naming exited
// lanes): a synccheck warning, not an error. atomic_counters: atomics on shared and global
// words from every thread and CTA, and a volatile flag: no race.
extern "C" __global__ void exited_shuffle(const float* x, float* y, unsigned n) {
  const unsigned t = threadIdx.x;
  if (t >= n) return;
  float v = x[t];
  v += __shfl_down_sync(0xffffffffu, v, 1);
  y[t] = v;
}

extern "C" __global__ void atomic_counters(unsigned* total, volatile unsigned* flag) {
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1u);
  atomicAdd(total, 1u);
  __syncthreads();
  if (threadIdx.x == 0) *flag = count;
}
