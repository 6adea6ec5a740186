// What device-side malloc and free do on the chip, for the facts warpsim had to guess
// (sim/func/device_heap.h): run on the H200 by scripts/device_malloc.sh, and under
// `warpsim exec` for the side by side. Every line is "key value ..." and deterministic on the
// chip (one thread allocates; absolute addresses are printed only as offsets and alignments).
//
//   heap_probe MODE     MODE: layout | exhaust | zero | persist | limit | doublefree | badfree
//                       | leak | fail
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                              \
  do {                                                           \
    const cudaError_t e_ = (call);                               \
    if (e_ != cudaSuccess) {                                     \
      std::printf("error %s %s\n", #call, cudaGetErrorName(e_)); \
      std::exit(1);                                              \
    }                                                            \
  } while (0)

__constant__ int kSizes[] = {1, 8, 16, 17, 24, 32, 48, 100, 128, 256, 1000, 4096};
constexpr int kCount = 12;
// The same sizes for the host's report (a __constant__ array is device-only).
constexpr int kHostSizes[kCount] = {1, 8, 16, 17, 24, 32, 48, 100, 128, 256, 1000, 4096};

// One thread: blocks of the sizes above, one after the other; their addresses as deltas.
__global__ void layout(unsigned long long* out) {
  for (int i = 0; i < kCount; ++i) out[i] = reinterpret_cast<unsigned long long>(malloc(kSizes[i]));
  for (int i = 0; i < kCount; ++i) free(reinterpret_cast<void*>(out[i]));
  // The same sizes again after freeing them all: is the first block's address reused?
  out[kCount] = reinterpret_cast<unsigned long long>(malloc(kSizes[0]));
  free(reinterpret_cast<void*>(out[kCount]));
}

// One thread allocates `bytes` until malloc returns NULL: how many fit the heap.
__global__ void exhaust(unsigned long long* out, unsigned long long bytes) {
  unsigned long long n = 0, first = 0, last = 0;
  for (void* p; (p = malloc(bytes)) != nullptr; ++n) {
    if (!first) first = reinterpret_cast<unsigned long long>(p);
    last = reinterpret_cast<unsigned long long>(p);
  }
  out[0] = n;
  out[1] = first;
  out[2] = last;
}

__global__ void zero(unsigned long long* out) {
  void* p = malloc(0);
  out[0] = reinterpret_cast<unsigned long long>(p);
  free(p);
  free(nullptr);
}

__global__ void keep(unsigned long long* out) {
  unsigned* p = static_cast<unsigned*>(malloc(sizeof(unsigned)));
  *p = 0xC0FFEEu;
  out[0] = reinterpret_cast<unsigned long long>(p);
}
__global__ void readBack(unsigned long long* out) {
  unsigned* p = reinterpret_cast<unsigned*>(out[0]);
  out[1] = *p;
  free(p);
}

__global__ void doubleFree(unsigned long long* out) {
  void* p = malloc(64);
  free(p);
  free(p);
  out[0] = 1;
}
__global__ void badFree(unsigned long long* out) {
  char* p = static_cast<char*>(malloc(64));
  free(p + 16);
  out[0] = 1;
}
__global__ void leak(unsigned long long* out) {
  out[threadIdx.x] = reinterpret_cast<unsigned long long>(malloc(24));
}
__global__ void fail(unsigned long long* out) {
  void* p = malloc(1ull << 40);  // more than any heap: NULL
  out[0] = reinterpret_cast<unsigned long long>(p);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "layout";
  unsigned long long* d;
  unsigned long long h[64] = {};
  size_t heap = 0;
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  std::printf("default_heap_bytes %zu\n", heap);
  if (!std::strcmp(mode, "exhaust")) CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemset(d, 0, sizeof h));
  if (!std::strcmp(mode, "layout")) {
    layout<<<1, 1>>>(d);
  } else if (!std::strcmp(mode, "exhaust")) {
    exhaust<<<1, 1>>>(d, 1024);
  } else if (!std::strcmp(mode, "zero")) {
    zero<<<1, 1>>>(d);
  } else if (!std::strcmp(mode, "persist")) {
    keep<<<1, 1>>>(d);
    CHECK(cudaDeviceSynchronize());
    readBack<<<1, 1>>>(d);
  } else if (!std::strcmp(mode, "limit")) {
    keep<<<1, 1>>>(d);
    CHECK(cudaDeviceSynchronize());
    const cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);
    std::printf("set_limit_after_malloc %s\n", cudaGetErrorName(e));
    const cudaError_t same = cudaDeviceSetLimit(cudaLimitMallocHeapSize, heap);
    std::printf("set_same_limit_after_malloc %s\n", cudaGetErrorName(same));
  } else if (!std::strcmp(mode, "doublefree")) {
    doubleFree<<<1, 1>>>(d);
  } else if (!std::strcmp(mode, "badfree")) {
    badFree<<<1, 1>>>(d);
  } else if (!std::strcmp(mode, "leak")) {
    leak<<<1, 4>>>(d);
  } else if (!std::strcmp(mode, "fail")) {
    fail<<<1, 1>>>(d);
  } else {
    std::printf("unknown mode %s\n", mode);
    return 2;
  }
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t synced = cudaDeviceSynchronize();
  std::printf("kernel %s %s\n", cudaGetErrorName(launched), cudaGetErrorName(synced));
  if (synced != cudaSuccess) return 1;
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  if (!std::strcmp(mode, "layout")) {
    for (int i = 0; i < kCount; ++i)
      std::printf("block size %d align16 %d align256 %d delta_from_previous %lld\n", kHostSizes[i],
                  int(h[i] % 16 == 0), int(h[i] % 256 == 0),
                  i ? (long long)(h[i] - h[i - 1]) : 0LL);
    std::printf("reuse_first_after_free %d\n", int(h[kCount] == h[0]));
  } else if (!std::strcmp(mode, "exhaust")) {
    std::printf("blocks_of_1024_in_1MiB %llu span %llu\n", h[0], h[2] - h[1]);
  } else if (!std::strcmp(mode, "zero")) {
    std::printf("malloc0_null %d\n", int(h[0] == 0));
  } else if (!std::strcmp(mode, "persist")) {
    std::printf("persisted_value 0x%llx\n", h[1]);
  } else if (!std::strcmp(mode, "fail")) {
    std::printf("huge_malloc_null %d\n", int(h[0] == 0));
  }
  return 0;
}
