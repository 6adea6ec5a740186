// What the chip reports for each way a kernel stops itself (harness/driver/driver.cpp
// faultCode): a plain `trap`, `__trap()`, a failed device-side assert and an out-of-bounds store,
// each in a process of its own (the error ends the context). One line per case: the case, the
// launch's error and the synchronize's, by name and string. The same program runs on the chip
// and under `warpsim exec`; scripts/device_trap.sh runs both and diffs them.
//
//   nvcc -arch=sm_90 -lineinfo -o trap_probe trap_probe.cu && ./trap_probe trap
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void plainTrap(int* p) {
  if (threadIdx.x == 3) asm volatile("trap;");
  p[threadIdx.x] = 1;
}
__global__ void intrinsicTrap(int* p) {
  if (threadIdx.x == 3) __trap();
  p[threadIdx.x] = 1;
}
__global__ void failedAssert(int* p) {
  assert(threadIdx.x != 3);
  p[threadIdx.x] = 1;
}
__global__ void outOfBounds(int* p) { p[threadIdx.x + (threadIdx.x == 3 ? (1 << 28) : 0)] = 1; }

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  int* p = nullptr;
  cudaMalloc(&p, 32 * sizeof(int));
  if (!std::strcmp(which, "trap"))
    plainTrap<<<1, 32>>>(p);
  else if (!std::strcmp(which, "__trap"))
    intrinsicTrap<<<1, 32>>>(p);
  else if (!std::strcmp(which, "assert"))
    failedAssert<<<1, 32>>>(p);
  else if (!std::strcmp(which, "oob"))
    outOfBounds<<<1, 32>>>(p);
  else {
    std::printf("usage: %s trap|__trap|assert|oob\n", argv[0]);
    return 2;
  }
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  std::printf("%s: launch %s (%s), sync %s (%s)\n", which, cudaGetErrorName(launch),
              cudaGetErrorString(launch), cudaGetErrorName(sync), cudaGetErrorString(sync));
  return 0;
}
