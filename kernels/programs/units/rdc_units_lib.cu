// The second translation unit of kernels/programs/rdc_units.cu (compiled with it, -rdc=true):
// it defines what the first declares extern, and has its own static offset() and printf.
#include <cstdio>

__device__ unsigned long long total = 7;

static __device__ __noinline__ int offset() { return 1; }

__device__ int scaled(int x) { return 3 * x + offset(); }

__global__ void report(unsigned long long* result) {
  *result = total;
  printf("report: unit 2 says total = %llu\n", total);
}
