// Gaussian elimination of an n x n system [A | b], one pivot step per pair of launches (the
// shape of Rodinia's gaussian, Fan1/Fan2). Written plainly, as real code is: nvcc (default
// -fmad=true) emits `A[i][j] - m * A[k][j]` as mul.f32 + sub.f32 without a rounding modifier,
// and ptxas fuses the pair into one FFMA, so the chip rounds once per update (the contraction
// pass, isa/contract.h, makes warpsim do the same).

// The multipliers of pivot k: m[i][k] = A[i][k] / A[k][k] for the rows below it.
extern "C" __global__ void gauss_fan1_f32(const float* a, float* m, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + k + 1;
  if (i < n) m[i * n + k] = a[i * n + k] / a[k * n + k];
}

// Every row below k loses m[i][k] times row k, from column k on; so does b.
extern "C" __global__ void gauss_fan2_f32(float* a, float* b, const float* m, int n, int k) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y + k + 1;
  const int j = blockIdx.x * blockDim.x + threadIdx.x + k;
  if (i >= n || j >= n) return;
  const float mult = m[i * n + k];
  a[i * n + j] -= mult * a[k * n + j];
  if (j == k) b[i] -= mult * b[k];
}
