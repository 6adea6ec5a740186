// racecheck: shifting a shared array left in place: a thread writes s[t] while the thread below
// it (in another warp at the warp boundary) may not yet have read it (write after read), with no
// barrier between the read and the write.
extern "C" __global__ void shared_war_shift(const float* x, float* y) {
  __shared__ float s[129];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  if (t == 0) s[128] = 0.0f;
  __syncthreads();
  const float next = s[t + 1];
  s[t] = next;
  __syncthreads();
  y[t] = s[t];
}

extern "C" __global__ void shared_war_shift_fixed(const float* x, float* y) {
  __shared__ float s[129];
  const unsigned t = threadIdx.x;
  s[t] = x[t];
  if (t == 0) s[128] = 0.0f;
  __syncthreads();
  const float next = s[t + 1];
  __syncthreads();
  s[t] = next;
  __syncthreads();
  y[t] = s[t];
}
