// A recursive __noinline__ device function: the PTX keeps `call` to itself, so each lane has
// its own chain of frames. The kernel counts the compositions of v into parts 1 and 2
// (Fibonacci numbers) by plain two-way recursion; lanes recurse to different depths, so the
// calls and returns diverge within a warp.
__device__ __noinline__ unsigned compositions(unsigned v) {
  if (v < 2) return 1;
  return compositions(v - 1) + compositions(v - 2);
}

extern "C" __global__ void calls_recursive(const unsigned* __restrict__ depth,
                                           unsigned* __restrict__ out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = compositions(depth[i]);
}
