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

// Through cp.async: each step copies the entry into shared memory (4 bytes with .ca, or the
// 16-byte vector that holds it with .cg, which skips the L1), waits for it (commit_group,
// wait_group 0) and reads it there: an asynchronous copy's round trip, plus a shared load.
extern "C" __global__ void micro_chase_async(unsigned* out, const unsigned* next, unsigned steps,
                                             unsigned wide) {
  __shared__ __align__(16) unsigned slot[4];
  const unsigned at = unsigned(__cvta_generic_to_shared(slot));
  unsigned i = 0;
  if (wide) {
    for (unsigned s = 0; s < steps; ++s) {
      asm volatile(
          "cp.async.cg.shared.global [%0], [%1], 16;\n\tcp.async.commit_group;\n\t"
          "cp.async.wait_group 0;" ::"r"(at),
          "l"(next + i)
          : "memory");
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(i) : "r"(at) : "memory");
    }
  } else {
    for (unsigned s = 0; s < steps; ++s) {
      asm volatile(
          "cp.async.ca.shared.global [%0], [%1], 4;\n\tcp.async.commit_group;\n\t"
          "cp.async.wait_group 0;" ::"r"(at),
          "l"(next + i)
          : "memory");
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(i) : "r"(at) : "memory");
    }
  }
  out[0] = i;
}
