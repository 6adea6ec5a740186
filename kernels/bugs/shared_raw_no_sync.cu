// racecheck: each thread reads the element its partner (t ^ 32, in the other warp) wrote, with
// no __syncthreads() between the write and the read.
extern "C" __global__ void shared_raw_no_sync(const float* x, float* y) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  y[t] = s[t ^ 32];
}

extern "C" __global__ void shared_raw_no_sync_fixed(const float* x, float* y) {
  __shared__ float s[64];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  y[t] = s[t ^ 32];
}
