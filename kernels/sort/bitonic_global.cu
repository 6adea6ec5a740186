// One compare-exchange step (k, j) of a bitonic sort over a power-of-two array in global
// memory; the card launches it log2(n)(log2(n)+1)/2 times, each launch a grid-wide barrier.
extern "C" __global__ void bitonic_global_step_u32(unsigned* __restrict__ keys, unsigned pairs,
                                                   unsigned j, unsigned k) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= pairs) return;
  const unsigned lo = 2 * t - (t & (j - 1)), hi = lo + j;
  const bool ascending = (lo & k) == 0;
  const unsigned a = keys[lo], b = keys[hi];
  if ((a > b) == ascending) {
    keys[lo] = b;
    keys[hi] = a;
  }
}
