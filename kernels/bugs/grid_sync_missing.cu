// racecheck: an iterative 1-D smoothing in one cooperative kernel. Each iteration reads the
// element's neighbours (a CTA's first and last threads read the neighbouring CTAs' elements),
// waits at grid.sync() until every thread has read, then overwrites its element. The second
// grid.sync() of the iteration, after the write, is missing: the next iteration's reads race
// with the neighbours' writes of this one (within a CTA and between CTAs).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void grid_sync_missing(float* x, unsigned n, unsigned iterations) {
  cg::grid_group grid = cg::this_grid();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned it = 0; it < iterations; ++it) {
    float v = 0.0f;
    if (i < n) v = (x[i == 0 ? 0 : i - 1] + x[i] + x[i + 1 < n ? i + 1 : i]) / 3.0f;
    grid.sync();
    if (i < n) x[i] = v;
  }
}

// Plain loads and stores (no volatile): the two grid-wide syncs order every read of an
// iteration before the writes, and every write before the next iteration's reads.
extern "C" __global__ void grid_sync_missing_fixed(float* x, unsigned n, unsigned iterations) {
  cg::grid_group grid = cg::this_grid();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned it = 0; it < iterations; ++it) {
    float v = 0.0f;
    if (i < n) v = (x[i == 0 ? 0 : i - 1] + x[i] + x[i + 1 < n ? i + 1 : i]) / 3.0f;
    grid.sync();
    if (i < n) x[i] = v;
    grid.sync();
  }
}
