// For the nvcc-flag tests: compiles only with -I include (the header) and -DOFFSET=N.
#include "scale_factor.h"

#ifndef OFFSET
#error "compile with -DOFFSET=N"
#endif

__global__ void scale(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = kScaleFactor * x[i] + OFFSET;
}
