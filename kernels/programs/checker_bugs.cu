// Bugs that only the checkers see: the program runs to the end and prints its results on the
// GPU and on warpsim alike, and `warpsim exec --check` finds, over its five launches,
//  - initcheck: `partial` is cudaMalloc'd and the host copies in only its first half; the
//    fourth launch sums all of it (the first and third sum buffers the host and a kernel wrote:
//    no finding);
//  - racecheck: `rotate` reads a neighbour's shared-memory slot with no barrier after the writes.
#include <cstdio>

#include "check.h"

constexpr int kN = 256;

__global__ void sumAll(const int* in, int* total, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, in[i]);
}

__global__ void iota(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

__global__ void rotate(const int* in, int* out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = in[threadIdx.x];
  // The bug: no __syncthreads() here, so the slot of a thread in the other warp may be read
  // before that thread wrote it.
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}

int main() {
  int host[kN];
  for (int i = 0; i < kN; ++i) host[i] = 1;
  int *full, *made, *partial, *total, *rotated;
  CHECK(cudaMalloc(&full, kN * sizeof(int)));
  CHECK(cudaMalloc(&made, kN * sizeof(int)));
  CHECK(cudaMalloc(&partial, kN * sizeof(int)));
  CHECK(cudaMalloc(&total, 3 * sizeof(int)));
  CHECK(cudaMalloc(&rotated, 64 * sizeof(int)));
  CHECK(cudaMemcpy(full, host, kN * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(partial, host, kN / 2 * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(total, 0, 3 * sizeof(int)));
  sumAll<<<kN / 64, 64>>>(full, total, kN);
  iota<<<kN / 64, 64>>>(made, kN);
  sumAll<<<kN / 64, 64>>>(made, total + 1, kN);
  sumAll<<<kN / 64, 64>>>(partial, total + 2, kN);
  rotate<<<1, 64>>>(full, rotated);
  int sums[3];
  CHECK(cudaMemcpy(sums, total, sizeof sums, cudaMemcpyDeviceToHost));
  std::printf("checker_bugs: sums %d %d (the third reads uninitialized memory)\n", sums[0],
              sums[1]);
  return 0;
}
