// Dynamic parallelism on the chip (CDP2), for the limits warpsim had to guess
// (sim/func/device_launch.h): how deep launches nest, what a launch past the pending-launch
// limit returns, and the order of completion with a tail launch. Built by
// scripts/device_malloc.sh with nvcc -rdc=true ... -lcudadevrt.
//
//   cdp_probe MODE      MODE: deep | pending | order
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

// reached[d] = 1 at depth d; errors[d] = the error of the launch one level deeper.
__global__ void deep(unsigned* reached, unsigned* errors, int depth) {
  reached[depth] = 1;
  if (depth >= 40) return;
  deep<<<1, 1>>>(reached, errors, depth + 1);
  errors[depth] = cudaGetLastError();
}

__global__ void flag(unsigned* flags, unsigned i) { flags[i] = 1; }
__global__ void many(unsigned* flags, unsigned* errors) {
  flag<<<1, 1>>>(flags, threadIdx.x);
  errors[threadIdx.x] = cudaGetLastError();
}

__device__ void record(unsigned* log, unsigned id) { log[1 + atomicAdd(log, 1u)] = id; }
__global__ void mark(unsigned* log, unsigned id) { record(log, id); }
__global__ void order(unsigned* log) {
  record(log, 1);
  mark<<<1, 1, 0, cudaStreamTailLaunch>>>(log, 30);
  mark<<<1, 1>>>(log, 10);
  mark<<<1, 1, 0, cudaStreamFireAndForget>>>(log, 20);
  record(log, 2);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "deep";
  unsigned *a, *b;
  unsigned ha[256] = {}, hb[256] = {};
  size_t pending = 0;
  CHECK(cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
  std::printf("default_pending_launch_count %zu\n", pending);
  CHECK(cudaMalloc(&a, sizeof ha));
  CHECK(cudaMalloc(&b, sizeof hb));
  CHECK(cudaMemset(a, 0, sizeof ha));
  CHECK(cudaMemset(b, 0, sizeof hb));
  if (!std::strcmp(mode, "deep")) {
    deep<<<1, 1>>>(a, b, 0);
  } else if (!std::strcmp(mode, "pending")) {
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 32));
    many<<<1, 256>>>(a, b);
  } else if (!std::strcmp(mode, "order")) {
    order<<<1, 1>>>(a);
  } else {
    std::printf("unknown mode %s\n", mode);
    return 2;
  }
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t synced = cudaDeviceSynchronize();
  std::printf("kernel %s %s\n", cudaGetErrorName(launched), cudaGetErrorName(synced));
  CHECK(cudaMemcpy(ha, a, sizeof ha, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost));
  if (!std::strcmp(mode, "deep")) {
    int deepest = -1;
    for (int d = 0; d < 41; ++d)
      if (ha[d]) deepest = d;
    std::printf("deepest_depth_reached %d\n", deepest);
    std::printf("error_launching_past_it %s\n",
                deepest >= 0 && deepest < 40 ? cudaGetErrorName(cudaError_t(hb[deepest])) : "none");
  } else if (!std::strcmp(mode, "pending")) {
    int ran = 0, first = -1;
    for (int i = 0; i < 256; ++i) {
      ran += ha[i] != 0;
      if (hb[i] && first < 0) first = i;
    }
    std::printf("children_ran_of_256_with_limit_32 %d\n", ran);
    std::printf("first_failed_thread %d error %s\n", first,
                first >= 0 ? cudaGetErrorName(cudaError_t(hb[first])) : "none");
  } else {
    std::printf("order");
    for (unsigned i = 1; i <= ha[0] && i < 16; ++i) std::printf(" %u", ha[i]);
    std::printf("\n");
  }
  return 0;
}
