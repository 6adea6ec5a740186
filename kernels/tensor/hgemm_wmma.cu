// C (f32) = A (f16, M x K row-major) * B (f16, K x N row-major) through the wmma API: one warp
// per 16x16 tile of C, one m16n16k16 mma per k-step of 16, fragments loaded straight from
// global memory with the matrices' leading dimensions. M, N, K multiples of 16.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

extern "C" __global__ void hgemm_wmma_f16_f32(const __half* __restrict__ A,
                                              const __half* __restrict__ B, float* __restrict__ C,
                                              unsigned M, unsigned N, unsigned K) {
  const unsigned tileRow = blockIdx.y * 16, tileCol = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (unsigned k0 = 0; k0 < K; k0 += 16) {
    wmma::load_matrix_sync(a, A + size_t(tileRow) * K + k0, K);
    wmma::load_matrix_sync(b, B + size_t(k0) * N + tileCol, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + size_t(tileRow) * N + tileCol, acc, N, wmma::mem_row_major);
}
