// How many blocks of SIZE bytes one thread can malloc from a heap limited to LIMIT MiB before
// malloc returns NULL, and the span of their addresses (a probe for the device heap's capacity,
// run by hand on the H200: nvcc -arch=sm_90 -o heap_capacity heap_capacity.cu, then
// ./heap_capacity LIMIT_MIB SIZE; the 2026-12-04 results are tests/recorded/heap/capacity.txt).
#include <cstdio>
#include <cstdlib>
__global__ void fill(size_t size, unsigned long long* out) {
  unsigned long long n = 0, lo = ~0ull, hi = 0;
  for (;;) {
    void* p = malloc(size);
    if (!p) break;
    unsigned long long a = (unsigned long long)p;
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    ++n;
  }
  out[0] = n; out[1] = lo; out[2] = hi;
}
int main(int argc, char** argv) {
  size_t limit = size_t(atoi(argv[1])) << 20, size = atoi(argv[2]);
  cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, limit);
  unsigned long long* d; cudaMalloc(&d, 24);
  fill<<<1, 1>>>(size, d);
  cudaError_t k = cudaDeviceSynchronize();
  unsigned long long h[3] = {}; cudaMemcpy(h, d, 24, cudaMemcpyDeviceToHost);
  printf("limit_mib %s size %zu count %llu span %llu bytes_per_block %.1f setlimit %s kernel %s\n", argv[1], size, h[0], h[2] - h[1], h[0] ? double(h[2] - h[1]) / double(h[0] > 1 ? h[0] - 1 : 1) : 0.0, cudaGetErrorString(e), cudaGetErrorString(k));
  return 0;
}
