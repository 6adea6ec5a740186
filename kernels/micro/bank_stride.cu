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

// Predicated-off loads beside a conflicted one: micro_skip_conflict's chain with the load
// predicated in the PTX (inline, so that ptxas keeps `@P LDS` rather than a branch): threads at
// or past `active` issue it with the predicate false, as a scan's upper levels do in SASS.
extern "C" __global__ void micro_pred_conflict(unsigned* out, const unsigned* words,
                                               unsigned stride, unsigned iters, unsigned active) {
  __shared__ unsigned table[1024];
  for (unsigned k = threadIdx.x; k < 1024; k += blockDim.x) table[k] = words[k];
  __syncthreads();
  unsigned v = 0;
  const unsigned base = threadIdx.x * stride;
  const unsigned on = threadIdx.x < active;
  for (unsigned i = 0; i < iters; ++i) {
    const unsigned addr =
        static_cast<unsigned>(__cvta_generic_to_shared(&table[(base + v) & 1023]));
    unsigned w;
    asm volatile(
        "{\n .reg .pred q;\n setp.ne.u32 q, %2, 0;\n mov.u32 %0, 0;\n @q ld.shared.u32 %0, [%1];\n}"
        : "=r"(w)
        : "r"(addr), "r"(on));
    v = w + v;
  }
  out[threadIdx.x] = v + base;
}

// The MIO queue: every warp issues `iters` rounds of 8 independent shared stores (volatile, so
// all are kept) with lane stride `stride` (1 or 32) and no barrier between them; from 1 to 32
// warps, how the stores' wavefronts queue (mio_throttle per issue). Each warp has its own words
// in the same banks (at stride 1 the next 32 words, at stride 32 the next word), so there is no
// race; `base` is the seed's (the values, not the timing, differ between seeds).
extern "C" __global__ void micro_store_burst(unsigned* out, unsigned stride, unsigned iters,
                                             unsigned base) {
  __shared__ unsigned table[8 * 1024];
  volatile unsigned* s = table;
  const unsigned at = (threadIdx.x & 31) * stride + (threadIdx.x >> 5) * (33 - stride);
  for (unsigned i = 0; i < iters; ++i)
#pragma unroll
    for (unsigned j = 0; j < 8; ++j) s[at + 1024 * j] = base + i + j;  // the banks of `at`
  __syncthreads();
  out[threadIdx.x] = s[at];
}
