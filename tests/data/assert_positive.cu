// A kernel with a device-side assert, for tests/sim/assert_test.cpp: doubles non-negative
// values and asserts that every value is non-negative.
#include <cassert>

extern "C" __global__ void check_positive(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(in[i] >= 0);
    out[i] = in[i] * 2;
  }
}
