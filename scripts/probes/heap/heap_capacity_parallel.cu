// How many blocks of SIZE bytes a heap limited to LIMIT MiB holds: many threads malloc in
// parallel until malloc returns NULL (each at most 64 times), and the non-NULL results are
// counted; also the lowest and highest address. The faster sibling of heap_capacity.cu (one
// thread, which ran past a 300 s device call at 8 MiB). Not run yet: the device was not lent
// when it was written (2026-12-04). Build and run on the H200:
//   nvcc -arch=sm_90 -o heap_capacity_parallel heap_capacity_parallel.cu
//   ./heap_capacity_parallel LIMIT_MIB SIZE
// or every case of scripts/probes/heap/run_capacity.sh. Check it against capacity.txt first
// (limits 1 and 4 MiB): parallel allocation might fill the heap differently from one thread.
#include <cstdio>
#include <cstdlib>

__global__ void fill(size_t size, unsigned long long* out) {
  unsigned long long n = 0, lo = ~0ull, hi = 0;
  for (int i = 0; i < 64; ++i) {
    void* p = malloc(size);
    if (!p) break;
    const unsigned long long a = reinterpret_cast<unsigned long long>(p);
    lo = a < lo ? a : lo;
    hi = a > hi ? a : hi;
    ++n;
  }
  atomicAdd(&out[0], n);
  atomicMin(&out[1], lo);
  atomicMax(&out[2], hi);
  if (n == 64) atomicAdd(&out[3], 1ull);  // threads that never saw NULL: the count is a floor
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s LIMIT_MIB SIZE\n", argv[0]);
    return 2;
  }
  const size_t limit = size_t(std::atoi(argv[1])) << 20, size = std::atoi(argv[2]);
  const cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, limit);
  unsigned long long* d = nullptr;
  const unsigned long long init[4] = {0, ~0ull, 0, 0};
  cudaMalloc(&d, sizeof init);
  cudaMemcpy(d, init, sizeof init, cudaMemcpyHostToDevice);
  cudaEvent_t t0, t1;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventRecord(t0);
  fill<<<132 * 8, 256>>>(size, d);  // 270,336 threads: 17 M mallocs before any hits the cap
  cudaEventRecord(t1);
  const cudaError_t k = cudaDeviceSynchronize();
  float ms = 0;
  cudaEventElapsedTime(&ms, t0, t1);
  unsigned long long h[4] = {};
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf(
      "limit_mib %s size %zu count %llu span %llu capped_threads %llu ms %.1f setlimit %s "
      "kernel %s\n",
      argv[1], size, h[0], h[0] ? h[2] - h[1] : 0ull, h[3], ms, cudaGetErrorString(e),
      cudaGetErrorString(k));
  return k == cudaSuccess ? 0 : 1;
}
