// A two-phase sum in one cooperative kernel: every CTA reduces a grid-strided share of the
// input and writes its partial sum; cg::this_grid().sync() (a barrier and a spin on the launch's
// grid-sync workspace, found through %envreg1/%envreg2); then CTA 0 sums the partials, and
// every CTA copies its right neighbour's partial, which only the grid-wide sync makes visible.
// The partials are volatile, so that `warpsim check`'s racecheck (which does not follow the
// grid-wide sync's ordering) sees synchronization, not plain accesses of different CTAs.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void grid_sync_reduce_f32(const float* in, volatile float* partials,
                                                float* neighbours, float* out, unsigned n) {
  __shared__ float s[256];
  cg::grid_group grid = cg::this_grid();
  const unsigned tid = threadIdx.x;
  float acc = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) acc += in[i];
  s[tid] = acc;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0) partials[blockIdx.x] = s[0];
  grid.sync();
  if (tid == 0) neighbours[blockIdx.x] = partials[(blockIdx.x + 1) % gridDim.x];
  if (blockIdx.x == 0) {
    float a = 0.0f;
    for (unsigned b = tid; b < gridDim.x; b += blockDim.x) a += partials[b];
    s[tid] = a;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
      if (tid < st) s[tid] += s[tid + st];
      __syncthreads();
    }
    if (tid == 0) out[0] = s[0];
  }
}
