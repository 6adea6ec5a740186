// What the simulator's driver does not provide (external memory, IPC memory handles) fails
// cleanly: the runtime answers cudaErrorCallRequiresNewerDriver, never a crash, and the
// program's other CUDA calls keep working.
#include <cstdio>

#include "check.h"

__global__ void setOne(int* p) { *p = 1; }

int main() {
  cudaExternalMemoryHandleDesc desc = {};
  desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = 0;
  desc.size = 4096;
  cudaExternalMemory_t external;
  const cudaError_t g = cudaImportExternalMemory(&external, &desc);
  int* p;
  CHECK(cudaMalloc(&p, sizeof(int)));
  cudaIpcMemHandle_t handle;
  const cudaError_t a = cudaIpcGetMemHandle(&handle, p);
  std::printf("cudaImportExternalMemory: %s\n", cudaGetErrorName(g));
  std::printf("cudaIpcGetMemHandle: %s\n", cudaGetErrorName(a));
  setOne<<<1, 1>>>(p);
  int v = 0;
  CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  const bool ok = g != cudaSuccess && a != cudaSuccess && v == 1;
  std::printf("unsupported_apis: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
