// C = A * B for row-major A (M x K), B (K x N), C (M x N): one thread per element of C, each
// reading a row of A and a column of B straight from global memory. The k loop is one chain of
// fma.rn.f32 from k = 0 up, which the reference repeats.
#define BS 16

extern "C" __global__ void sgemm_naive_f32(const float* __restrict__ A, const float* __restrict__ B,
                                           float* __restrict__ C, unsigned M, unsigned N,
                                           unsigned K) {
  const unsigned row = blockIdx.y * BS + threadIdx.y;
  const unsigned col = blockIdx.x * BS + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (unsigned k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
