// TMA im2col mode on the chip and on the simulator (scripts/device_bulk_reduce.sh runs it
// natively and under `warpsim exec` and diffs the outputs; docs/FIDELITY.md, "TMA im2col
// mode"). A 4d NHWC f32 tensor (C 8, W 5, H 4, N 2; element i = 1000 + i), a map for a 3 x 3
// filter with padding 1 (corners -1, -1), 8 channels per pixel, 16 pixels per column; for two
// starting pixels and every filter tap, one line per loaded word: "I w h tapw taph i value".
// Build: nvcc -arch=sm_90 -o im2col_probe im2col_probe.cu
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    const cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                            \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

constexpr int kWords = 16 * 8;

__device__ __forceinline__ unsigned smem(const void* p) {
  return unsigned(__cvta_generic_to_shared(p));
}

__global__ void column(const __grid_constant__ CUtensorMap map, int w, int h, unsigned short tw,
                       unsigned short th, uint32_t* out) {
  __shared__ alignas(128) uint32_t box[kWords];
  __shared__ alignas(8) unsigned long long bar;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar)),
                 "r"(kWords * 4)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
        "[%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(smem(box)),
        "l"(&map), "r"(0), "r"(w), "r"(h), "r"(0), "r"(smem(&bar)), "h"(tw), "h"(th)
        : "memory");
  }
  __syncthreads();
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, "
        "0, p;\n}"
        : "=r"(done)
        : "r"(smem(&bar))
        : "memory");
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) out[i] = box[i];
}

int main() {
  PFN_cuTensorMapEncodeIm2col_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col",
                                         reinterpret_cast<void**>(&encode), 12000,
                                         cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !encode) {
    std::printf("no cuTensorMapEncodeIm2col\n");
    return 1;
  }
  std::vector<float> t(8 * 5 * 4 * 2);
  for (size_t i = 0; i < t.size(); ++i) t[i] = float(1000 + i);
  float* d;
  uint32_t* dOut;
  CHECK(cudaMalloc(&d, t.size() * 4));
  CHECK(cudaMalloc(&dOut, kWords * 4));
  CHECK(cudaMemcpy(d, t.data(), t.size() * 4, cudaMemcpyHostToDevice));
  alignas(64) CUtensorMap m;
  const cuuint64_t dims[4] = {8, 5, 4, 2}, strides[3] = {32, 160, 640};
  const int lower[2] = {-1, -1}, upper[2] = {-1, -1};
  const cuuint32_t estr[4] = {1, 1, 1, 1};
  const CUresult r = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, d, dims, strides, lower, upper,
                            8, 16, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                            CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::printf("cuTensorMapEncodeIm2col failed (%d)\n", int(r));
    return 1;
  }
  const int starts[2][2] = {{-1, -1}, {2, 2}};
  for (const auto& s : starts)
    for (unsigned short th = 0; th < 3; ++th)
      for (unsigned short tw = 0; tw < 3; ++tw) {
        column<<<1, 32>>>(m, s[0], s[1], tw, th, dOut);
        CHECK(cudaDeviceSynchronize());
        std::vector<uint32_t> out(kWords);
        CHECK(cudaMemcpy(out.data(), dOut, kWords * 4, cudaMemcpyDeviceToHost));
        for (int i = 0; i < kWords; ++i)
          std::printf("I %d %d %u %u %d %x\n", s[0], s[1], tw, th, i, out[i]);
      }
  return 0;
}
