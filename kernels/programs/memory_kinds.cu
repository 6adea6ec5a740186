// Every kind of memory a program uses: __constant__ and __device__ variables through the
// symbol API, managed memory, mapped pinned memory, registered host memory, pitched 2-D
// allocations and copies, memset; plus kernel printf, function attributes and occupancy.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"

__constant__ float coefficients[4];
__device__ int counter;

__global__ void polynomial(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  y[i] = coefficients[0] + v * (coefficients[1] + v * (coefficients[2] + v * coefficients[3]));
  atomicAdd(&counter, 1);
}

__global__ void increment(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += i;
}

__global__ void addRows(float* m, size_t pitch, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + y * pitch);
    row[x] += float(y);
  }
}

__global__ void hello(int value) {
  if (threadIdx.x == 0) printf("hello from block %d: value %d\n", blockIdx.x, value);
}

int main() {
  int failures = 0;
  auto expect = [&](bool ok, const char* what) {
    std::printf("%s: %s\n", what, ok ? "ok" : "WRONG");
    failures += !ok;
  };
  // __constant__ / __device__ symbols.
  const int n = 1000;
  const float c[4] = {1.0f, 0.5f, 0.25f, 0.125f};
  CHECK(cudaMemcpyToSymbol(coefficients, c, sizeof c));
  const int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  for (int i = 0; i < n; ++i) x[i] = float(i) / n;  // managed: written by the host directly
  polynomial<<<(n + 127) / 128, 128>>>(x, y, n);
  CHECK(cudaDeviceSynchronize());
  int count = 0;
  CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof count));
  bool ok = count == n;
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    // The device contracts to fused multiply-adds, the host may not: compare within 1e-6.
    ok = ok && std::fabs(y[i] - (c[0] + v * (c[1] + v * (c[2] + v * c[3])))) < 1e-6f;
  }
  expect(ok, "constant and device symbols, managed memory");

  // Mapped pinned memory: the kernel writes the host's memory through the device pointer.
  int* host;
  CHECK(cudaHostAlloc(&host, n * sizeof(int), cudaHostAllocMapped));
  for (int i = 0; i < n; ++i) host[i] = 1;
  int* mapped;
  CHECK(cudaHostGetDevicePointer(&mapped, host, 0));
  increment<<<(n + 255) / 256, 256>>>(mapped, n);
  CHECK(cudaDeviceSynchronize());
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && host[i] == 1 + i;
  expect(ok, "mapped pinned memory");
  CHECK(cudaFreeHost(host));

  // Registered host memory.
  std::vector<int> plain(n, 5);
  CHECK(cudaHostRegister(plain.data(), n * sizeof(int), cudaHostRegisterMapped));
  int* registered;
  CHECK(cudaHostGetDevicePointer(&registered, plain.data(), 0));
  increment<<<(n + 255) / 256, 256>>>(registered, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaHostUnregister(plain.data()));
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && plain[i] == 5 + i;
  expect(ok, "registered host memory");

  // Pitched 2-D memory, memset and 2-D copies.
  const int width = 100, height = 7;
  float* m;
  size_t pitch = 0;
  CHECK(cudaMallocPitch(&m, &pitch, width * sizeof(float), height));
  CHECK(cudaMemset2D(m, pitch, 0, width * sizeof(float), height));
  std::vector<float> h(width * height, 1.5f);
  CHECK(cudaMemcpy2D(m, pitch, h.data(), width * sizeof(float), width * sizeof(float), height,
                     cudaMemcpyHostToDevice));
  addRows<<<dim3(1, height), 128>>>(m, pitch, width, height);
  std::vector<float> back(width * height, 0);
  CHECK(cudaMemcpy2D(back.data(), width * sizeof(float), m, pitch, width * sizeof(float), height,
                     cudaMemcpyDeviceToHost));
  ok = pitch >= width * sizeof(float);
  for (int r = 0; r < height; ++r)
    for (int col = 0; col < width; ++col) ok = ok && back[r * width + col] == 1.5f + r;
  expect(ok, "pitched 2-D memory");
  int* bytes;
  CHECK(cudaMalloc(&bytes, 64 * sizeof(int)));
  CHECK(cudaMemset(bytes, 0x7f, 64 * sizeof(int)));
  int hb[64];
  CHECK(cudaMemcpy(hb, bytes, sizeof hb, cudaMemcpyDefault));
  expect(hb[0] == 0x7f7f7f7f && hb[63] == 0x7f7f7f7f, "memset and cudaMemcpyDefault");

  // Kernel printf, function attributes, occupancy.
  hello<<<2, 32>>>(42);
  CHECK(cudaDeviceSynchronize());
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, addRows));
  std::printf("addRows: %d registers per thread\n", attr.numRegs);
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, polynomial, 128, 0));
  int minGrid = 0, blockSize = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, polynomial));
  expect(attr.maxThreadsPerBlock == 1024 && blocks > 0 && blockSize > 0 && minGrid > 0,
         "function attributes and occupancy");
  size_t freeBytes, totalBytes;
  CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  expect(freeBytes < totalBytes, "cudaMemGetInfo");
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(m));
  CHECK(cudaFree(bytes));
  std::printf("memory_kinds: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
