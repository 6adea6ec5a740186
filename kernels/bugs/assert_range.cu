// memcheck: an assertion on the input's range fails for the negative elements.
#include <cassert>

extern "C" __global__ void assert_range(const float* x, float* y) {
  const unsigned i = threadIdx.x;
  assert(x[i] >= 0.0f);
  y[i] = sqrtf(x[i]);
}

extern "C" __global__ void assert_range_fixed(const float* x, float* y) {
  const unsigned i = threadIdx.x;
  y[i] = sqrtf(fmaxf(x[i], 0.0f));
}
