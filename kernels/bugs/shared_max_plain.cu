// schedules (with racecheck off): a block maximum kept in a shared word by a plain
// compare-and-store. Each warp reads the word and stores its larger values; when another warp
// stores between one warp's read and its store, the larger value is overwritten. The fixed
// order runs one warp's read and store before the next warp reads, and happens to be right.
extern "C" __global__ void shared_max_plain(const int* x, int* result) {
  __shared__ int best;
  const unsigned t = threadIdx.x;
  if (t == 0) best = 0;
  __syncthreads();
  const int v = x[blockIdx.x * blockDim.x + t];
  if (v > best) best = v;
  __syncthreads();
  if (t == 0) result[blockIdx.x] = best;
}

extern "C" __global__ void shared_max_plain_fixed(const int* x, int* result) {
  __shared__ int best;
  const unsigned t = threadIdx.x;
  if (t == 0) best = 0;
  __syncthreads();
  const int v = x[blockIdx.x * blockDim.x + t];
  atomicMax(&best, v);
  __syncthreads();
  if (t == 0) result[blockIdx.x] = best;
}
