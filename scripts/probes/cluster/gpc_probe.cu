// How the H200's SMs group into GPCs, which decides where thread-block clusters can run (a
// cluster's CTAs share one GPC): for each cluster size k = 1..16 and one CTA per SM (a kernel
// that takes all of an SM's shared memory), cudaOccupancyMaxActiveClusters, which is
// sum over GPCs of floor(SMs / k); then that many clusters of k launched at once, each CTA
// writing its %smid: the SMs of one cluster are in one GPC. Prints
//   max k N                     N clusters of k fit at once
//   sms k cluster smid...       the SMs of each cluster of that launch
// The timing model's sm.gpcs (sim/timing/config.h) comes from these lines.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void where(unsigned* out) {
  extern __shared__ unsigned char pad[];
  unsigned smid;
  asm("mov.u32 %0, %%smid;" : "=r"(smid));
  if (threadIdx.x == 0) {
    pad[0] = 1;
    out[blockIdx.x] = smid + pad[0] - 1;
  }
}

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess) {                                                          \
      std::printf("error %s at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

int main() {
  int dev = 0, smem = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  std::printf("sms %d smem_optin %d\n", sms, smem);
  CHECK(cudaFuncSetAttribute(where, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CHECK(cudaFuncSetAttribute(where, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  unsigned* out = nullptr;
  CHECK(cudaMalloc(&out, 4096 * sizeof(unsigned)));
  for (int k = 1; k <= 16; ++k) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = k;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.blockDim = dim3(128);
    cfg.dynamicSmemBytes = size_t(smem);
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cfg.gridDim = dim3(k * 64);
    int n = 0;
    cudaError_t e = cudaOccupancyMaxActiveClusters(&n, where, &cfg);
    if (e != cudaSuccess) {
      std::printf("max %d error %s\n", k, cudaGetErrorString(e));
      cudaGetLastError();
      continue;
    }
    std::printf("max %d %d\n", k, n);
    if (n == 0) continue;
    cfg.gridDim = dim3(unsigned(n * k));
    e = cudaLaunchKernelEx(&cfg, where, out);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      std::printf("launch %d error %s\n", k, cudaGetErrorString(e));
      cudaGetLastError();
      continue;
    }
    std::vector<unsigned> h(size_t(n) * k);
    CHECK(cudaMemcpy(h.data(), out, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int c = 0; c < n; ++c) {
      std::printf("sms %d %d", k, c);
      for (int r = 0; r < k; ++r) std::printf(" %u", h[size_t(c) * k + r]);
      std::printf("\n");
    }
  }
  return 0;
}
