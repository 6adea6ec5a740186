// Dynamic parallelism in a whole program (built with -rdc=true, as CDP needs): every node of a
// binary tree of depth 4 is a grid launched by its parent grid (the right child into a stream
// made on the device), which records its depth and the sum of its path (through device-side
// cudaMalloc memory); a tail launch runs after the grid that made it and checks the children's
// results were written before it (tail launches wait for all other work). The host checks all
// 31 nodes and that no device runtime call failed. Run it: warpsim exec build/programs/cdp_tree
// nvcc-flags: -rdc=true
#include <cstdio>

#include "check.h"

constexpr int kDepth = 4;
constexpr int kNodes = (1 << (kDepth + 1)) - 1;

__global__ void verifyChildren(int* nodes, int node, int* bad) {
  // In a tail launch of `node`'s grid: its children (and their subtrees) have finished.
  if (2 * node + 2 < kNodes && (nodes[2 * node + 1] == 0 || nodes[2 * node + 2] == 0))
    atomicAdd(bad, 1);
}

__global__ void visit(int* nodes, int node, int depth, int pathSum, int* bad) {
  // The path sum goes through a block of device-side cudaMalloc memory, freed again.
  int* scratch = nullptr;
  if (cudaMalloc(&scratch, sizeof(int)) != cudaSuccess || !scratch) {
    atomicAdd(bad, 1);
    return;
  }
  *scratch = pathSum + node;
  const int sum = *scratch;
  if (cudaFree(scratch) != cudaSuccess) atomicAdd(bad, 1);
  nodes[node] = 1000 * depth + sum;
  if (depth == kDepth) return;
  // The right child goes into a stream made here; a stream must be non-blocking on the device.
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamDefault) == cudaSuccess) atomicAdd(bad, 1);
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) atomicAdd(bad, 1);
  visit<<<1, 1>>>(nodes, 2 * node + 1, depth + 1, sum, bad);
  visit<<<1, 1, 0, s>>>(nodes, 2 * node + 2, depth + 1, sum, bad);
  if (cudaStreamDestroy(s) != cudaSuccess) atomicAdd(bad, 1);
  verifyChildren<<<1, 1, 0, cudaStreamTailLaunch>>>(nodes, node, bad);
}

int main() {
  int *nodes, *bad;
  CHECK(cudaMalloc(&nodes, kNodes * sizeof(int)));
  CHECK(cudaMalloc(&bad, sizeof(int)));
  CHECK(cudaMemset(nodes, 0, kNodes * sizeof(int)));
  CHECK(cudaMemset(bad, 0, sizeof(int)));
  visit<<<1, 1>>>(nodes, 0, 0, 0, bad);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int h[kNodes], hbad = 0;
  CHECK(cudaMemcpy(h, nodes, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hbad, bad, sizeof hbad, cudaMemcpyDeviceToHost));
  for (int node = 0; node < kNodes; ++node) {
    int depth = 0, sum = 0;
    for (int n = node + 1; n > 1; n /= 2) ++depth;
    for (int n = node; n > 0; n = (n - 1) / 2) sum += n;
    if (h[node] != 1000 * depth + sum) {
      std::printf("cdp_tree: FAILED at node %d: %d, expected %d\n", node, h[node],
                  1000 * depth + sum);
      return 1;
    }
  }
  if (hbad) {
    std::printf("cdp_tree: FAILED: %d device runtime checks failed\n", hbad);
    return 1;
  }
  std::printf("cdp_tree: PASSED (%d grids)\n", kNodes);
  return 0;
}
