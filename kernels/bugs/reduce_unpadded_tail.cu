// initcheck: a block reduction over the tail of an array loads only the n valid elements into
// shared memory but the tree adds all BLOCK slots (the tail needs zero padding).
#define BLOCK 64

extern "C" __global__ void reduce_unpadded_tail(const float* x, float* sum, unsigned n) {
  __shared__ float s[BLOCK];
  const unsigned t = threadIdx.x;
  if (t < n) s[t] = x[t];
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) *sum = s[0];
}

extern "C" __global__ void reduce_unpadded_tail_fixed(const float* x, float* sum, unsigned n) {
  __shared__ float s[BLOCK];
  const unsigned t = threadIdx.x;
  s[t] = t < n ? x[t] : 0.0f;
  __syncthreads();
  for (unsigned stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) *sum = s[0];
}
