// C (f32) = A (f16, M x K row-major) * B (f16, K x N row-major) with wgmma (sm_90a): one
// warpgroup (128 threads) computes a 64x64 tile of C. Per k-tile of 64 the threads stage A's
// 64x64 block K-major and B's 64x64 block MN-major (its rows run along N) in shared memory in
// the 128-byte swizzle (8 rows of 128 bytes per atom; 16-byte chunk c of row r stored at chunk
// c ^ r, as TMA would write them), then issue four wgmma.mma_async.m64n64k16 (A advancing 32
// bytes inside its atoms, B two 8-row K groups of 1024 bytes), commit them as one group and
// wait for it. M, N multiples of 64, K of 64.
#include <cuda_fp16.h>
#include <stdint.h>

// A shared-memory matrix descriptor: start, leading and stride byte offsets (>> 4), 128B swizzle.
__device__ __forceinline__ uint64_t smemDesc(const void* p, unsigned lbo, unsigned sbo) {
  const uint32_t a = unsigned(__cvta_generic_to_shared(p));
  return uint64_t((a & 0x3FFFF) >> 4) | uint64_t(lbo >> 4) << 16 | uint64_t(sbo >> 4) << 32 |
         1ull << 62;
}

extern "C" __global__ void __launch_bounds__(128)
    hgemm_wgmma_f16_f32(const __half* __restrict__ A, const __half* __restrict__ B,
                        float* __restrict__ C, unsigned M, unsigned N, unsigned K) {
  __shared__ __align__(1024) uint8_t As[64 * 64 * 2];
  __shared__ __align__(1024) uint8_t Bs[64 * 64 * 2];
  const unsigned tid = threadIdx.x, bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0.0f;
  for (unsigned k0 = 0; k0 < K; k0 += 64) {
    for (unsigned c = tid; c < 512; c += 128) {
      const unsigned r = c / 8, ch = c % 8;  // A: row m = r, chunk ch along K
      const uint4 v = *reinterpret_cast<const uint4*>(&A[(bm + r) * K + k0 + ch * 8]);
      *reinterpret_cast<uint4*>(&As[(r / 8) * 1024 + (r % 8) * 128 + ((ch ^ (r % 8)) * 16)]) = v;
      // B: row k = r, chunk ch along N
      const uint4 w = *reinterpret_cast<const uint4*>(&B[(k0 + r) * N + bn + ch * 8]);
      *reinterpret_cast<uint4*>(&Bs[(r / 8) * 1024 + (r % 8) * 128 + ((ch ^ (r % 8)) * 16)]) = w;
    }
    // The generic-proxy stores must be visible to the async proxy that wgmma reads through.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int j = 0; j < 4; ++j) {
      const uint64_t da = smemDesc(As + 32 * j, 16, 1024);
      const uint64_t db = smemDesc(Bs + 2048 * j, 8192, 1024);
      asm volatile(
          "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
          "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%"
          "24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, 1, 1, 1, 0, 1;"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
            "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),
            "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
            "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]),
            "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
          : "l"(da), "l"(db)
          : "memory");
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();  // the tiles are overwritten next k-tile
  }
  // D's fragment: element i of thread (warp w, g = lane / 4, t = lane % 4) is row
  // 16 w + g + 8 ((i / 2) % 2), column 8 (i / 4) + 2 t + i % 2.
  const unsigned w = tid / 32, g = (tid % 32) / 4, t = tid % 4;
  for (int i = 0; i < 32; ++i) {
    const unsigned row = bm + 16 * w + g + 8 * ((i / 2) % 2),
                   col = bn + 8 * (i / 4) + 2 * t + i % 2;
    C[row * N + col] = d[i];
  }
}
