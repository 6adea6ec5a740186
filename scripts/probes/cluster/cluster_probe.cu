// What the H200 does with clusters and cooperative launches, printed as lines that the
// simulator (`warpsim exec`) must print the same: the cluster special registers of a 2-D
// cluster, distributed shared memory through cooperative_groups, cluster.sync(), a two-phase
// cooperative grid sync, and the errors of refused launches (cudaLaunchKernelEx with a cluster
// the grid is no multiple of, 9 and 17 CTAs, a shape other than __cluster_dims__; a cooperative
// grid one CTA too large). scripts/device_cluster.sh runs it on the chip and on the simulator.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

__global__ void registers(unsigned* out) {
  cg::cluster_group c = cg::this_cluster();
  if (threadIdx.x != 0) return;
  unsigned* w = out + 12 * (blockIdx.x + gridDim.x * blockIdx.y);
  unsigned r, nr, cx, cy, ncx, ncy, idx, idy, nidx, nidy, expl;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nr));
  asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(cx));
  asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(cy));
  asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(ncx));
  asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(ncy));
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(idx));
  asm("mov.u32 %0, %%clusterid.y;" : "=r"(idy));
  asm("mov.u32 %0, %%nclusterid.x;" : "=r"(nidx));
  asm("mov.u32 %0, %%nclusterid.y;" : "=r"(nidy));
  asm("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(expl));
  const unsigned v[12] = {r, nr, cx, cy, ncx, ncy, idx, idy, nidx, nidy, expl, c.block_rank()};
  for (int i = 0; i < 12; ++i) w[i] = v[i];
}

// Each CTA: its rank's square into shared; sum of every rank's value, read through DSMEM, and
// an atomicAdd into rank 0's counter.
__global__ void dsmem(unsigned* out) {
  __shared__ unsigned v, counter;
  cg::cluster_group c = cg::this_cluster();
  if (threadIdx.x == 0) {
    v = c.block_rank() * c.block_rank() + 1;
    counter = 0;
  }
  c.sync();
  if (threadIdx.x < c.num_blocks()) {
    atomicAdd(c.map_shared_rank(&counter, 0), *c.map_shared_rank(&v, threadIdx.x));
  }
  c.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = *c.map_shared_rank(&counter, 0) * 1000 + v;
  c.sync();
}

__global__ void __cluster_dims__(2, 1, 1) fixed(unsigned* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = cg::this_cluster().num_blocks();
}

__global__ void gridsum(const unsigned* in, unsigned* partial, unsigned* out, unsigned n) {
  cg::grid_group g = cg::this_grid();
  unsigned acc = 0;
  for (unsigned i = g.thread_rank(); i < n; i += g.size()) acc += in[i];
  atomicAdd(&partial[blockIdx.x], acc);
  g.sync();
  if (g.thread_rank() == 0) {
    unsigned t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *out = t;
  }
}

__global__ void big(unsigned* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}

static cudaError_t launchCluster(const void* k, dim3 grid, dim3 block, dim3 cluster, void** args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  cudaLaunchAttribute a[1];
  a[0].id = cudaLaunchAttributeClusterDimension;
  a[0].val.clusterDim.x = cluster.x;
  a[0].val.clusterDim.y = cluster.y;
  a[0].val.clusterDim.z = cluster.z;
  config.attrs = a;
  config.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelExC(&config, k, args);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  cudaGetLastError();
  return e;
}

int main() {
  unsigned *out, *in, *partial, *sum;
  cudaMalloc(&out, 4096 * sizeof(unsigned));
  cudaMalloc(&in, 100000 * sizeof(unsigned));
  cudaMalloc(&partial, 4096 * sizeof(unsigned));
  cudaMalloc(&sum, sizeof(unsigned));
  unsigned host[4096];
  void* args[] = {&out};

  cudaError_t e = launchCluster((const void*)registers, dim3(4, 4), dim3(32), dim3(2, 2), args);
  std::printf("registers: %s\n", cudaGetErrorName(e));
  cudaMemcpy(host, out, 16 * 12 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 16; ++b) {
    std::printf("  cta %2d:", b);
    for (int i = 0; i < 12; ++i) std::printf(" %u", host[b * 12 + i]);
    std::printf("\n");
  }

  for (unsigned size : {2u, 4u, 8u}) {
    e = launchCluster((const void*)dsmem, dim3(16), dim3(64), dim3(size), args);
    cudaMemcpy(host, out, 16 * sizeof(unsigned), cudaMemcpyDeviceToHost);
    std::printf("dsmem cluster %u: %s:", size, cudaGetErrorName(e));
    for (int b = 0; b < 16; ++b) std::printf(" %u", host[b]);
    std::printf("\n");
  }

  std::printf("grid 6 cluster 4: %s\n",
              cudaGetErrorName(launchCluster((const void*)big, dim3(6), dim3(32), dim3(4), args)));
  std::printf("cluster 9: %s\n",
              cudaGetErrorName(launchCluster((const void*)big, dim3(18), dim3(32), dim3(9), args)));
  cudaFuncSetAttribute((const void*)big, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  std::printf(
      "cluster 16 non-portable: %s\n",
      cudaGetErrorName(launchCluster((const void*)big, dim3(32), dim3(32), dim3(16), args)));
  std::printf(
      "cluster 17 non-portable: %s\n",
      cudaGetErrorName(launchCluster((const void*)big, dim3(34), dim3(32), dim3(17), args)));
  fixed<<<4, 32>>>(out);
  e = cudaDeviceSynchronize();
  cudaMemcpy(host, out, 4 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("__cluster_dims__(2) plain launch: %s %u %u\n", cudaGetErrorName(e), host[0],
              host[3]);
  std::printf(
      "__cluster_dims__(2) launched with 4: %s\n",
      cudaGetErrorName(launchCluster((const void*)fixed, dim3(8), dim3(32), dim3(4), args)));

  std::vector<unsigned> ones(100000);
  for (unsigned i = 0; i < ones.size(); ++i) ones[i] = i % 7;
  cudaMemcpy(in, ones.data(), ones.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  int perSm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridsum, 1024, 0);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  unsigned n = 100000;
  for (int extra : {0, 1}) {
    cudaMemset(partial, 0, 4096 * sizeof(unsigned));
    dim3 grid(perSm * sms + extra);
    void* gargs[] = {&in, &partial, &sum, &n};
    e = cudaLaunchCooperativeKernel((const void*)gridsum, grid, dim3(1024), gargs);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    cudaGetLastError();
    unsigned total = 0;
    cudaMemcpy(&total, sum, sizeof total, cudaMemcpyDeviceToHost);
    std::printf("cooperative %d x %d + %d CTAs of 1024: %s", sms, perSm, extra,
                cudaGetErrorName(e));
    if (extra == 0) std::printf(" sum %u", total);
    std::printf("\n");
  }
  // Last: the trap ends the context.
  void* plainArgs[] = {&in, &partial, &sum, &n};
  e = cudaLaunchKernel((const void*)gridsum, dim3(2), dim3(64), plainArgs, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::printf("grid sync without a cooperative launch: %s\n", cudaGetErrorName(e));
  return 0;
}
