// memcheck: de-interleaving with the wrong stride: out[i] = in[3 * i] for an array of pairs
// (the stride should be 2) runs past the end of the input for the upper half of the threads.
extern "C" __global__ void stride_overrun(const float* in, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[3 * i];
}

extern "C" __global__ void stride_overrun_fixed(const float* in, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[2 * i];
}
