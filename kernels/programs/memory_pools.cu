// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync from the device's default pool and
// from a pool of the program's own (cudaMallocFromPoolAsync), the pools' attributes (release
// threshold, used and reserved bytes, their high-water marks and resets), and what graph
// allocations report (cudaDeviceGetGraphMemAttribute).
#include <cstdio>

#include "check.h"

__global__ void fill(int* x, int n, int v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v + i;
}

int failures = 0;

void expect(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

unsigned long long poolAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  unsigned long long v = 0;
  CHECK(cudaMemPoolGetAttribute(pool, attr, &v));
  return v;
}

int main() {
  int supported = 0;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
  expect(supported == 1, "the device supports memory pools");
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaMemPool_t defaultPool;
  CHECK(cudaDeviceGetDefaultMemPool(&defaultPool, 0));

  constexpr int kN = 1 << 12;
  int* a = nullptr;
  CHECK(cudaMallocAsync(&a, kN * sizeof(int), s));
  fill<<<kN / 256, 256, 0, s>>>(a, kN, 7);
  int host[kN];
  CHECK(cudaMemcpyAsync(host, a, sizeof host, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < kN; ++i) ok &= host[i] == 7 + i;
  expect(ok && poolAttribute(defaultPool, cudaMemPoolAttrUsedMemCurrent) == kN * sizeof(int),
         "cudaMallocAsync draws from the default pool");
  CHECK(cudaFreeAsync(a, s));
  CHECK(cudaStreamSynchronize(s));
  expect(poolAttribute(defaultPool, cudaMemPoolAttrUsedMemCurrent) == 0 &&
             poolAttribute(defaultPool, cudaMemPoolAttrUsedMemHigh) == kN * sizeof(int),
         "cudaFreeAsync returns it; the high-water mark stays");
  unsigned long long zero = 0;
  CHECK(cudaMemPoolSetAttribute(defaultPool, cudaMemPoolAttrUsedMemHigh, &zero));
  expect(poolAttribute(defaultPool, cudaMemPoolAttrUsedMemHigh) == 0, "the mark resets");

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CHECK(cudaMemPoolCreate(&pool, &props));
  unsigned long long threshold = 1 << 20;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  int* b = nullptr;
  CHECK(cudaMallocFromPoolAsync(&b, 1000, pool, s));
  expect(poolAttribute(pool, cudaMemPoolAttrReleaseThreshold) == threshold &&
             poolAttribute(pool, cudaMemPoolAttrUsedMemCurrent) == 1000 &&
             poolAttribute(defaultPool, cudaMemPoolAttrUsedMemCurrent) == 0,
         "a pool of the program's own");
  CHECK(cudaFreeAsync(b, s));
  CHECK(cudaMemPoolDestroy(pool));

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps = props;
  alloc.bytesize = 4096;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddMemAllocNode(&node, graph, nullptr, 0, &alloc));
  unsigned long long graphUsed = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &graphUsed));
  expect(graphUsed >= 4096, "graph allocations are graph memory");
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  std::printf("memory_pools: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
