// racecheck: rank 0 of each thread-block cluster adds up the CTAs' partial sums out of their
// shared memory (distributed shared memory: cluster.map_shared_rank). It reads them after
// __syncthreads() only, which orders the threads of its own CTA, not the other CTAs of the
// cluster: their partial sums may not be written yet. cluster.sync() (barrier.cluster.arrive +
// wait) before the reads orders every CTA's writes before them.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void cluster_read_before_sync(const float* in, float* out) {
  __shared__ float part;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) part = 2.0f * in[blockIdx.x];
  __syncthreads();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) s += *cluster.map_shared_rank(&part, r);
    out[blockIdx.x / cluster.num_blocks()] = s;
  }
  cluster.sync();  // the CTAs' shared memory stays until rank 0 has read it
}

extern "C" __global__ void cluster_read_before_sync_fixed(const float* in, float* out) {
  __shared__ float part;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) part = 2.0f * in[blockIdx.x];
  cluster.sync();  // every CTA's partial sum is written
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    float s = 0.0f;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) s += *cluster.map_shared_rank(&part, r);
    out[blockIdx.x / cluster.num_blocks()] = s;
  }
  cluster.sync();  // the CTAs' shared memory stays until rank 0 has read it
}
