// GELU in its tanh form, as transformer MLPs write it and build it (--use_fast_math):
// y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))). tanhf becomes tanh.approx.f32 (MUFU.TANH),
// and ptxas fuses some of nvcc's multiplies with the adds after them: both must be the chip's
// for the output to match bit for bit.
// nvcc-flags: --use_fast_math

extern "C" __global__ void gelu_fast_f32(const float* __restrict__ x, float* __restrict__ y,
                                         unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const float v = x[i];
    const float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(inner));
  }
}
