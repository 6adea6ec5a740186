// Device printf: lane 0 of every warp of the first two blocks prints one line with %d, %u, %x
// and %f conversions (vprintf with an argument buffer in local memory); all threads also write
// out[i] = 2 * in[i] so the card has something exact to compare. The printed lines are the
// point: their text and count (8 lines for the default launch) are what a run shows.
#include <cstdio>

extern "C" __global__ void printf_lanes(const float* __restrict__ in, float* __restrict__ out,
                                        unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = in[i];
  out[i] = 2.0f * v;
  if (threadIdx.x % 32 == 0 && blockIdx.x < 2)
    printf("block %d warp %u lane0 index 0x%x in %f out %f\n", int(blockIdx.x), threadIdx.x / 32, i,
           double(v), double(2.0f * v));
}
