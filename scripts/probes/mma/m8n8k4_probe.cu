// mma.sync.aligned.m8n8k4 (f16 inputs) on the chip: ptxas 13 for sm_90 replaces it with a call
// to __cuda_sm_8x_mma_row_col_f32_f16_f16_f32, SASS that gathers the other lanes' operands with
// SHFL.IDX and sums on the CUDA cores (m8n8k4_sass.py reads it). This probe prints, per lane,
// the 8 f32 results of row.col f32.f16.f16.f32 for A = lane-distinct small integers, B
// likewise, C = 1000 * element index, so that the output shows which products each result sums. One line per lane: "L lane d0 .. d7" (%g).
// Build: nvcc -arch=sm_90 -o m8n8k4_probe m8n8k4_probe.cu
#include <cuda_fp16.h>
#include <cstdio>

__global__ void k(float* out) {
  const unsigned l = threadIdx.x;
  __half a[4], b[4];
  for (int i = 0; i < 4; ++i) {
    a[i] = __float2half(float(l % 8 + 1 + 8 * i));       // distinct per row/k
    b[i] = __float2half(float(1 << (i + (l / 8) % 2)));  // powers of two per k
  }
  unsigned ar[2], br[2];
  ar[0] = __half_as_ushort(a[0]) | unsigned(__half_as_ushort(a[1])) << 16;
  ar[1] = __half_as_ushort(a[2]) | unsigned(__half_as_ushort(a[3])) << 16;
  br[0] = __half_as_ushort(b[0]) | unsigned(__half_as_ushort(b[1])) << 16;
  br[1] = __half_as_ushort(b[2]) | unsigned(__half_as_ushort(b[3])) << 16;
  float c[8], d[8];
  for (int i = 0; i < 8; ++i) c[i] = 1000.0f * i;
  asm volatile(
      "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]), "=f"(d[6]),
        "=f"(d[7])
      : "r"(ar[0]), "r"(ar[1]), "r"(br[0]), "r"(br[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
        "f"(c[3]), "f"(c[4]), "f"(c[5]), "f"(c[6]), "f"(c[7]));
  for (int i = 0; i < 8; ++i) out[l * 8 + i] = d[i];
}

int main() {
  float* d;
  cudaMalloc(&d, 32 * 8 * sizeof(float));
  k<<<1, 32>>>(d);
  float h[256];
  const cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) {
    std::printf("error %s\n", cudaGetErrorString(e));
    return 1;
  }
  for (int l = 0; l < 32; ++l) {
    std::printf("L %d", l);
    for (int i = 0; i < 8; ++i) std::printf(" %g", h[l * 8 + i]);
    std::printf("\n");
  }
  return 0;
}
