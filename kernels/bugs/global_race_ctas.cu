// racecheck: every CTA writes its block sum into the same word (a plain store where an
// atomicAdd was meant): the CTAs race, and the last one to write wins.
extern "C" __global__ void global_race_ctas(const float* x, float* total) {
  __shared__ float s[32];
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * 32 + t];
  __syncthreads();
  if (t == 0) {
    float sum = 0.0f;
    for (unsigned k = 0; k < 32; ++k) sum += s[k];
    *total = *total + sum;
  }
}

extern "C" __global__ void global_race_ctas_fixed(const float* x, float* total) {
  __shared__ float s[32];
  const unsigned t = threadIdx.x;
  s[t] = x[blockIdx.x * 32 + t];
  __syncthreads();
  if (t == 0) {
    float sum = 0.0f;
    for (unsigned k = 0; k < 32; ++k) sum += s[k];
    atomicAdd(total, sum);
  }
}
