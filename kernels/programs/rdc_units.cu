// A program whose device code spans two translation units (nvcc -rdc=true): the kernel here
// calls a device function and updates a __device__ variable that units/rdc_units_lib.cu
// defines, and each unit has its own printf format strings and its own static helper of the
// same name. The runtime hands the driver both units' PTX; warpsim links them
// (isa/ptx_link.h). Run it: warpsim exec build/programs/rdc_units
// nvcc-flags: -rdc=true
// nvcc-units: units/rdc_units_lib.cu
#include <cuda_runtime.h>

#include <cstdio>

#include "check.h"

extern __device__ unsigned long long total;  // units/rdc_units_lib.cu
__device__ int scaled(int x);                // units/rdc_units_lib.cu: 3 * x + 1

// Unit-local: the library unit has a static offset() of its own that returns 1.
static __device__ __noinline__ int offset() { return 1000; }

__global__ void apply(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = scaled(i) + offset();
  atomicAdd(&total, static_cast<unsigned long long>(i));
  if (i == 0) printf("apply: unit 1 says hello\n");
}

__global__ void report(unsigned long long* result);  // units/rdc_units_lib.cu

int main() {
  const int n = 1000;
  int* out = nullptr;
  unsigned long long* result = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&result, sizeof(unsigned long long)));
  apply<<<(n + 255) / 256, 256>>>(out, n);
  report<<<1, 1>>>(result);
  CHECK(cudaDeviceSynchronize());
  int h[n];
  unsigned long long sum = 0;
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&sum, result, sizeof sum, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (h[i] != 3 * i + 1 + 1000) {
      std::printf("rdc_units: FAILED at %d: %d\n", i, h[i]);
      return 1;
    }
  const unsigned long long expected = 7 + static_cast<unsigned long long>(n) * (n - 1) / 2;
  if (sum != expected) {
    std::printf("rdc_units: FAILED: total %llu, expected %llu\n", sum, expected);
    return 1;
  }
  std::printf("rdc_units: PASSED (2 translation units)\n");
  return 0;
}
