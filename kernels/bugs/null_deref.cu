// memcheck: an optional bias pointer is used without testing it for null.
extern "C" __global__ void null_deref(const float* x, const float* bias, float* y) {
  const unsigned i = threadIdx.x;
  y[i] = x[i] + bias[i];
}

extern "C" __global__ void null_deref_fixed(const float* x, const float* bias, float* y) {
  const unsigned i = threadIdx.x;
  y[i] = x[i] + (bias ? bias[i] : 0.0f);
}
