// initcheck: y += a * x into an output buffer the host allocated but never filled (in
// `warpsim check`, a buffer given without INIT: y=f32[N]).
extern "C" __global__ void uninit_global_output(const float* x, float* y, float a) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] += a * x[i];
}

extern "C" __global__ void uninit_global_output_fixed(const float* x, float* y, float a) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i];
}
