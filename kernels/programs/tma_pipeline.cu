// A TMA + mbarrier pipelined copy, as a user writes it: the host encodes two tensor maps with
// cuTensorMapEncodeTiled (through cudaGetDriverEntryPointByVersion) and passes them by value
// (__grid_constant__); each CTA walks a band of 8 rows in tiles of 16 x 8 floats, loading tile
// t + 1 with cp.async.bulk.tensor into the other of two stages (each with its mbarrier,
// expect_tx armed by thread 0) while it computes 2x + 1 on tile t, then stores the result tile
// with a bulk_group tensor store. The tensor (72 x 40) is not a multiple of the tile: edge tiles
// read zeros outside and their stores skip what lies outside. Prints "tma_pipeline: PASSED".
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int kW = 72, kH = 40, kTW = 16, kTH = 8;

__device__ __forceinline__ unsigned smem(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}

__global__ void scaleTiles(const __grid_constant__ CUtensorMap in,
                           const __grid_constant__ CUtensorMap out, int tilesX) {
  __shared__ alignas(128) float buf[2][kTH][kTW];
  __shared__ alignas(128) float res[kTH][kTW];
  __shared__ alignas(8) unsigned long long bar[2];
  const int tid = threadIdx.x, y = blockIdx.x * kTH;
  const unsigned bytes = sizeof(buf[0]);
  auto issue = [&](int t, int s) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar[s])),
                 "r"(bytes));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], "
        "[%1, {%2, %3}], [%4];" ::"r"(smem(buf[s])),
        "l"(&in), "r"(t * kTW), "r"(y), "r"(smem(&bar[s]))
        : "memory");
  };
  if (tid == 0) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(&in));
    for (int s = 0; s < 2; ++s)
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar[s])));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (tid == 0) issue(0, 0);
  for (int t = 0; t < tilesX; ++t) {
    const int s = t & 1;
    const unsigned parity = (t >> 1) & 1;
    if (tid == 0 && t + 1 < tilesX) issue(t + 1, s ^ 1);
    unsigned done = 0;
    while (!done)
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, "
          "0, p; }"
          : "=r"(done)
          : "r"(smem(&bar[s])), "r"(parity)
          : "memory");
    const int r = tid / kTW, c = tid % kTW;
    res[r][c] = buf[s][r][c] * 2.0f + 1.0f;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();  // res complete; buf[s] consumed before tile t + 2 overwrites it
    if (tid == 0) {
      asm volatile(
          "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(
              &out),
          "r"(t * kTW), "r"(y), "r"(smem(res))
          : "memory");
      asm volatile("cp.async.bulk.commit_group;");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
    __syncthreads();  // res is free again
  }
}

int main() {
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion(
      "cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000, cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !encode) {
    std::printf("tma_pipeline: no cuTensorMapEncodeTiled\n");
    return 1;
  }
  std::vector<float> h(kW * kH);
  for (int i = 0; i < kW * kH; ++i) h[i] = float(i % 997) * 0.25f - 7.0f;
  float *dIn, *dOut;
  CHECK(cudaMalloc(&dIn, h.size() * sizeof(float)));
  CHECK(cudaMalloc(&dOut, h.size() * sizeof(float)));
  CHECK(cudaMemcpy(dIn, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dOut, 0, h.size() * sizeof(float)));
  alignas(64) CUtensorMap mIn, mOut;
  const cuuint64_t dims[2] = {kW, kH}, strides[1] = {kW * sizeof(float)};
  const cuuint32_t box[2] = {kTW, kTH}, estr[2] = {1, 1};
  for (auto [m, p] : {std::pair{&mIn, dIn}, std::pair{&mOut, dOut}}) {
    const CUresult r = encode(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, p, dims, strides, box, estr,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                              CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      std::printf("tma_pipeline: cuTensorMapEncodeTiled failed (%d)\n", int(r));
      return 1;
    }
  }
  // A box whose inner dimension is not a multiple of 16 bytes is refused, as the driver does.
  const cuuint32_t badBox[2] = {3, kTH};
  alignas(64) CUtensorMap scratch;
  if (encode(&scratch, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dIn, dims, strides, badBox, estr,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
             CU_TENSOR_MAP_L2_PROMOTION_NONE,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_ERROR_INVALID_VALUE) {
    std::printf("tma_pipeline: WRONG: a 12-byte box row was accepted\n");
    return 1;
  }
  const int tilesX = (kW + kTW - 1) / kTW;
  scaleTiles<<<kH / kTH, kTW * kTH>>>(mIn, mOut, tilesX);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> o(h.size());
  CHECK(cudaMemcpy(o.data(), dOut, o.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < kW * kH; ++i)
    if (o[i] != h[i] * 2.0f + 1.0f && bad++ < 5)
      std::printf("WRONG at (%d, %d): %g, expected %g\n", i % kW, i / kW, o[i], h[i] * 2 + 1);
  if (bad) return 1;
  std::printf("tma_pipeline: PASSED\n");
  return 0;
}
