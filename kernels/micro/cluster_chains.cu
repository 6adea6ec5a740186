// Thread-block cluster costs (TIMING.md section 6, #12): barrier.cluster rounds and a chase
// through another CTA's shared memory (distributed shared memory).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// `iters` rounds of cluster.sync() (barrier.cluster.arrive + wait) over every CTA of the
// cluster, a counter stepped in registers between them.
extern "C" __global__ void micro_cluster_bar(unsigned* out, const unsigned* in, unsigned iters) {
  cg::cluster_group cluster = cg::this_cluster();
  unsigned v = in[threadIdx.x];
  for (unsigned i = 0; i < iters; ++i) {
    v = v * 3u + 1u;
    cluster.sync();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Clusters of two: every CTA copies the chain `next` (n words) into its shared memory; then
// thread 0 of rank 0 follows it `iters` steps through rank 1's copy, each load waiting for the
// last (the remote shared-memory latency).
extern "C" __global__ void micro_dsmem_chase(unsigned* out, const unsigned* next, unsigned n,
                                             unsigned iters) {
  __shared__ unsigned s[4096];
  cg::cluster_group cluster = cg::this_cluster();
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) s[i] = next[i];
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    const unsigned* remote = cluster.map_shared_rank(s, 1);
    unsigned j = 0;
    for (unsigned k = 0; k < iters; ++k) j = remote[j];
    out[blockIdx.x / 2] = j;
  }
  cluster.sync();  // rank 1's shared memory stays until the chase is done
}
