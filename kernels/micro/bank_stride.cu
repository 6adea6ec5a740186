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

// Conflicted loads beside skipping warps: micro_bank_stride's chain, in a CTA whose threads
// below `active >> (i & zero)` load and the rest skip the load (`zero` is 0 at run time: the
// condition depends on the round as a scan's does, so ptxas cannot hoist it out of the loop and
// the skipping warps run the loop with the load predicated off or branched around).
extern "C" __global__ void micro_skip_conflict(unsigned* out, const unsigned* words,
                                               unsigned stride, unsigned iters, unsigned active,
                                               unsigned zero) {
  __shared__ unsigned table[1024];
  for (unsigned k = threadIdx.x; k < 1024; k += blockDim.x) table[k] = words[k];
  __syncthreads();
  unsigned v = 0;
  const unsigned base = threadIdx.x * stride;
  for (unsigned i = 0; i < iters; ++i)
    if (threadIdx.x < (active >> (i & zero))) v = table[(base + v) & 1023] + v;
  out[threadIdx.x] = v + base;
}
