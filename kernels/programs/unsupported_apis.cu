// What the simulator's driver does not provide (graphs, stream capture) fails
// cleanly: the runtime answers cudaErrorCallRequiresNewerDriver, never a crash, and the
// program's other CUDA calls keep working.
#include <cstdio>

#include "check.h"

__global__ void setOne(int* p) { *p = 1; }

int main() {
  cudaGraph_t graph;
  const cudaError_t g = cudaGraphCreate(&graph, 0);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  const cudaError_t a = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  std::printf("cudaGraphCreate: %s\n", cudaGetErrorName(g));
  std::printf("cudaStreamBeginCapture: %s\n", cudaGetErrorName(a));
  int* p;
  CHECK(cudaMalloc(&p, sizeof(int)));
  setOne<<<1, 1>>>(p);
  int v = 0;
  CHECK(cudaMemcpy(&v, p, sizeof v, cudaMemcpyDeviceToHost));
  const bool ok =
      g == cudaErrorCallRequiresNewerDriver && a == cudaErrorCallRequiresNewerDriver && v == 1;
  std::printf("unsupported_apis: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
