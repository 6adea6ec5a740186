// C = A * B with a 64x64 block tile and a 4x4 register tile per thread (256 threads): per step
// of 8 in k, the block stages A's 64x8 panel transposed (As[k][m]) and B's 8x64 panel in shared
// memory with float4 global loads, then each thread reads a float4 of A's column and a float4 of
// B's row and does 16 fmas, reusing each loaded value four times. M and N are multiples of 64,
// K of 8. Every C element is still one fma chain over k = 0 .. K-1.
#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4

extern "C" __global__ void __launch_bounds__(256)
    sgemm_regblock_f32(const float* __restrict__ A, const float* __restrict__ B,
                       float* __restrict__ C, unsigned M, unsigned N, unsigned K) {
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  const unsigned tid = threadIdx.x;
  const unsigned tx = tid % (BN / TN), ty = tid / (BN / TN);  // 16 x 16 threads
  const unsigned bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (unsigned k0 = 0; k0 < K; k0 += BK) {
    if (tid < 128) {  // A panel: 64 rows x 8 k = 128 float4, stored transposed
      const unsigned r = tid / 2, kq = (tid % 2) * 4;
      const float4 a = *reinterpret_cast<const float4*>(&A[(bm + r) * K + k0 + kq]);
      As[kq + 0][r] = a.x;
      As[kq + 1][r] = a.y;
      As[kq + 2][r] = a.z;
      As[kq + 3][r] = a.w;
    } else {  // B panel: 8 k x 64 columns = 128 float4
      const unsigned u = tid - 128, r = u / 16, c = (u % 16) * 4;
      *reinterpret_cast<float4*>(&Bs[r][c]) =
          *reinterpret_cast<const float4*>(&B[(k0 + r) * N + bn + c]);
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < BK; ++k) {
      const float4 a = *reinterpret_cast<const float4*>(&As[k][ty * TM]);
      const float4 b = *reinterpret_cast<const float4*>(&Bs[k][tx * TN]);
      const float av[TM] = {a.x, a.y, a.z, a.w}, bv[TN] = {b.x, b.y, b.z, b.w};
#pragma unroll
      for (unsigned i = 0; i < TM; ++i)
#pragma unroll
        for (unsigned j = 0; j < TN; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (unsigned i = 0; i < TM; ++i) {
    const float4 c = {acc[i][0], acc[i][1], acc[i][2], acc[i][3]};
    *reinterpret_cast<float4*>(&C[(bm + ty * TM + i) * N + bn + tx * TN]) = c;
  }
}
