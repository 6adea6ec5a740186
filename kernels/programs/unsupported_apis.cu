// What the simulator's driver does not provide (memory pools, IPC memory handles) fails
// cleanly: the runtime answers cudaErrorCallRequiresNewerDriver, never a crash, and the
// program's other CUDA calls keep working.
#include <cstdio>

#include "check.h"

__global__ void setOne(int* p) { *p = 1; }

int main() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  cudaMemPool_t pool;
  const cudaError_t g = cudaMemPoolCreate(&pool, &props);
  int* p;
  CHECK(cudaMalloc(&p, sizeof(int)));
  cudaIpcMemHandle_t handle;
  const cudaError_t a = cudaIpcGetMemHandle(&handle, p);
  std::printf("cudaMemPoolCreate: %s\n", cudaGetErrorName(g));
  std::printf("cudaIpcGetMemHandle: %s\n", cudaGetErrorName(a));
  setOne<<<1, 1>>>(p);
  int v = 0;
  CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  const bool ok = g != cudaSuccess && a != cudaSuccess && v == 1;
  std::printf("unsupported_apis: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
