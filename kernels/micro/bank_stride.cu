// Shared-memory bank conflicts: one warp loads word lane * stride of a 1024-word table,
// `iters` times, each load's address depending on the previous value (the table holds zeros,
// which the compiler cannot know), so the loads neither fold nor overlap. A stride of s words
// makes a gcd(s, 32)-way conflict (TIMING.md section 6, #6).
extern "C" __global__ void micro_bank_stride(unsigned* out, const unsigned* zeros, unsigned stride,
                                             unsigned iters) {
  __shared__ unsigned table[1024];
  for (unsigned k = threadIdx.x; k < 1024; k += blockDim.x) table[k] = zeros[k];
  __syncthreads();
  unsigned v = 0;
  const unsigned base = threadIdx.x * stride;
  for (unsigned i = 0; i < iters; ++i) v = table[(base + v) & 1023] + v;
  out[threadIdx.x] = v + base;
}
