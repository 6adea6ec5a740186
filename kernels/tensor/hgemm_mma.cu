// C (f32) = A (f16, M x K row-major) * B (f16, K x N row-major) on the tensor cores: a block of
// 4 warps computes a 32x32 tile, each warp 16x16 as two mma.sync.m16n8k16 per k-step of 16. The
// k-tiles of A and B are staged in shared memory with cp.async and read into fragments with
// ldmatrix: A's 16x16 block with .x4 (matrices: rows 0-7 / 8-15 by columns 0-7 / 8-15, lane l
// addressing row l%8 + 8((l/8)%2) at column 8(l/16)), B's 16x16 block with .x4.trans (k-rows
// stored, so .trans gives the "col" fragment; the same lane addressing). M, N multiples of 32, K
// of 16.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

extern "C" __global__ void hgemm_mma_f16_f32(const __half* __restrict__ A,
                                             const __half* __restrict__ B, float* __restrict__ C,
                                             unsigned M, unsigned N, unsigned K) {
  __shared__ __align__(16) __half As[32][16];
  __shared__ __align__(16) __half Bs[16][32];
  const unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const unsigned wm = (warp / 2) * 16, wn = (warp % 2) * 16;  // the warp's tile in the block's
  const unsigned bm = blockIdx.y * 32, bn = blockIdx.x * 32;
  float d[2][4] = {};
  for (unsigned k0 = 0; k0 < K; k0 += 16) {
    // 64 threads copy A's 32x16 halves (16 bytes = 8 halves each), 64 copy B's 16x32.
    if (tid < 64) {
      const unsigned r = tid / 2, c = (tid % 2) * 8;
      __pipeline_memcpy_async(&As[r][c], &A[(bm + r) * K + k0 + c], 16);
    } else {
      const unsigned t = tid - 64, r = t / 4, c = (t % 4) * 8;
      __pipeline_memcpy_async(&Bs[r][c], &B[(k0 + r) * N + bn + c], 16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    const unsigned r = lane % 8 + 8 * ((lane / 8) % 2), c = 8 * (lane / 16);
    unsigned a[4], b[4];
    const unsigned aAddr = unsigned(__cvta_generic_to_shared(&As[wm + r][c]));
    const unsigned bAddr = unsigned(__cvta_generic_to_shared(&Bs[r][wn + c]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(aAddr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3])
                 : "r"(bAddr));
    for (int j = 0; j < 2; ++j)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
          "{%8, %9}, {%0, %1, %2, %3};"
          : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
          : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * j]), "r"(b[2 * j + 1]));
    __syncthreads();  // the tiles are overwritten next k-step
  }
  const unsigned g = lane / 4, t = lane % 4;
  for (int j = 0; j < 2; ++j) {
    const unsigned row = bm + wm + g, col = bn + wn + 8 * j + 2 * t;
    C[row * N + col] = d[j][0];
    C[row * N + col + 1] = d[j][1];
    C[(row + 8) * N + col] = d[j][2];
    C[(row + 8) * N + col + 1] = d[j][3];
  }
}
