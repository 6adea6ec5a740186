// racecheck: a producer/consumer hand-off over a named barrier. Warps 0-1 fill a shared tile
// and signal with bar.arrive 1; warps 2-3 wait with bar.sync 1 and read it. The thread count
// says 64 where producers and consumers are 128 threads together: the barrier completes as soon
// as any 64 threads arrived (twice per hand-off), so a consumer may be released before the
// producer warp that wrote its elements arrived.
__device__ __forceinline__ void namedSync(unsigned id, unsigned count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}
__device__ __forceinline__ void namedArrive(unsigned id, unsigned count) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}

extern "C" __global__ void named_barrier_count(const float* x, float* y) {
  __shared__ float tile[64];
  const unsigned t = threadIdx.x;
  if (t < 64) {
    tile[t] = 2.0f * x[blockIdx.x * 64 + t];
    namedArrive(1, 64);
  } else {
    namedSync(1, 64);
    y[blockIdx.x * 64 + t - 64] = tile[127 - t];
  }
}

// The count names every thread of the hand-off: 64 producers and 64 consumers.
extern "C" __global__ void named_barrier_count_fixed(const float* x, float* y) {
  __shared__ float tile[64];
  const unsigned t = threadIdx.x;
  if (t < 64) {
    tile[t] = 2.0f * x[blockIdx.x * 64 + t];
    namedArrive(1, 128);
  } else {
    namedSync(1, 128);
    y[blockIdx.x * 64 + t - 64] = tile[127 - t];
  }
}
