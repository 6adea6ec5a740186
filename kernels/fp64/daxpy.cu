// y = a*x + y over n doubles: fma.rn.f64, the fp64 pipe's streaming baseline.
extern "C" __global__ void daxpy_f64(double a, const double* __restrict__ x, double* __restrict__ y,
                                     unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
