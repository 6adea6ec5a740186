// What the program sees of the device: cudaGetDeviceProperties and friends describe an H200.
#include <cuda_profiler_api.h>

#include <cstdio>

#include "check.h"

int main() {
  int count = 0, driver = 0, runtime = 0;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  size_t freeBytes = 0, totalBytes = 0;
  CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  int smemOptin = 0;
  CHECK(cudaDeviceGetAttribute(&smemOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CHECK(cudaProfilerStart());  // no profiler here: both succeed, as with no tool attached
  CHECK(cudaProfilerStop());
  std::printf("devices: %d, driver %d, runtime %d\n", count, driver, runtime);
  std::printf("name: %s\n", p.name);
  std::printf("compute capability: %d.%d\n", p.major, p.minor);
  std::printf("multiprocessors: %d\n", p.multiProcessorCount);
  std::printf("global memory: %zu bytes (free %zu)\n", p.totalGlobalMem, freeBytes);
  std::printf("warp size: %d, max threads per block: %d, per SM: %d\n", p.warpSize,
              p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor);
  std::printf("shared memory per block: %zu (opt-in %d), per SM: %zu\n", p.sharedMemPerBlock,
              smemOptin, p.sharedMemPerMultiprocessor);
  std::printf("L2: %d bytes, memory bus: %d bits\n", p.l2CacheSize, p.memoryBusWidth);
  const bool ok = count == 1 && p.major == 9 && p.minor == 0 && p.multiProcessorCount == 132 &&
                  p.warpSize == 32 && totalBytes == p.totalGlobalMem && smemOptin == 227 * 1024;
  std::printf("device_query: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
