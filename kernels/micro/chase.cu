// Pointer chases: one thread follows next[] through a table, each load's address the previous
// load's value, so every step costs one full load latency of the level the table lives in
// (TIMING.md section 6, #4 and #6). `steps` loads; the final index is the result.

// Global memory: the table's size decides the level (L1, L2 or DRAM).
extern "C" __global__ void micro_chase_global(unsigned* out, const unsigned* next, unsigned steps) {
  unsigned i = 0;
  for (unsigned s = 0; s < steps; ++s) i = next[i];
  out[0] = i;
}

// Shared memory: the table (`n` entries) is copied in by the whole CTA first, then thread 0
// chases it.
extern "C" __global__ void micro_chase_shared(unsigned* out, const unsigned* next, unsigned n,
                                              unsigned steps) {
  extern __shared__ unsigned table[];
  for (unsigned k = threadIdx.x; k < n; k += blockDim.x) table[k] = next[k];
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned i = 0;
    for (unsigned s = 0; s < steps; ++s) i = table[i];
    out[0] = i;
  }
}
