// What the simulator's driver does not provide (graph memory nodes, IPC memory handles) fails
// cleanly: the runtime answers cudaErrorCallRequiresNewerDriver, never a crash, and the
// program's other CUDA calls keep working.
#include <cstdio>

#include "check.h"

__global__ void setOne(int* p) { *p = 1; }

int main() {
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.bytesize = 1024;
  cudaGraphNode_t node;
  const cudaError_t g = cudaGraphAddMemAllocNode(&node, graph, nullptr, 0, &alloc);
  int* p;
  CHECK(cudaMalloc(&p, sizeof(int)));
  cudaIpcMemHandle_t handle;
  const cudaError_t a = cudaIpcGetMemHandle(&handle, p);
  std::printf("cudaGraphAddMemAllocNode: %s\n", cudaGetErrorName(g));
  std::printf("cudaIpcGetMemHandle: %s\n", cudaGetErrorName(a));
  setOne<<<1, 1>>>(p);
  int v = 0;
  CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphDestroy(graph));
  const bool ok = g != cudaSuccess && a != cudaSuccess && v == 1;
  std::printf("unsupported_apis: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
