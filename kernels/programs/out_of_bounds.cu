// A kernel with an off-by-one bound writes past the end of its buffer: on the GPU the next CUDA
// call fails with cudaErrorIllegalAddress, and so it does here, with warpsim naming the thread,
// block and line on stderr. The error is sticky: later calls fail too.
#include <cstdio>

__global__ void fill(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = i;  // the bug: <= instead of <
}

int main() {
  const int n = 1000;
  int* out;
  cudaMalloc(&out, n * sizeof(int));
  fill<<<4, 256>>>(out, n);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  int first = -1;
  const cudaError_t later = cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  std::printf("launch: %s\n", cudaGetErrorName(launch));
  std::printf("synchronize: %s\n", cudaGetErrorName(sync));
  std::printf("later copy: %s\n", cudaGetErrorName(later));
  return sync == cudaErrorIllegalAddress && later == cudaErrorIllegalAddress ? 3 : 0;
}
