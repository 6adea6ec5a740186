// Sum over a thread-block cluster through distributed shared memory: each CTA reduces its
// 2048-element chunk into shared memory, then rank 0 reads its cluster's partial sums out of the
// other CTAs' shared memory (cluster.map_shared_rank: mapa + a generic load) and every CTA
// reads the cluster's total back out of rank 0's. Launched with clusters of 4 (--cluster 4):
// cluster.sync() is barrier.cluster.arrive + wait.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr unsigned kPerThread = 8;

extern "C" __global__ void cluster_reduce_f32(const float* in, float* clusterSums, float* ctaTotals,
                                              unsigned n) {
  __shared__ float part[256];
  __shared__ float total;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned tid = threadIdx.x;
  const unsigned base = blockIdx.x * blockDim.x * kPerThread;
  float acc = 0.0f;
  for (unsigned k = 0; k < kPerThread; ++k) {
    const unsigned i = base + k * blockDim.x + tid;
    if (i < n) acc += in[i];
  }
  part[tid] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) part[tid] += part[tid + s];
    __syncthreads();
  }
  cluster.sync();  // every CTA's partial sum is in its shared memory
  if (cluster.block_rank() == 0 && tid == 0) {
    float t = 0.0f;
    for (unsigned r = 0; r < cluster.num_blocks(); ++r) t += *cluster.map_shared_rank(&part[0], r);
    total = t;
    clusterSums[blockIdx.x / cluster.num_blocks()] = t;
  }
  cluster.sync();  // rank 0's total is written
  if (tid == 0) ctaTotals[blockIdx.x] = *cluster.map_shared_rank(&total, 0);
  cluster.sync();  // rank 0's shared memory stays until every CTA has read it
}
