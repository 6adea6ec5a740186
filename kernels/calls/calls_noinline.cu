// Real calls, not inlined code: __noinline__ device functions become PTX .func bodies reached
// by `call` with .param arguments and return values. horner() takes a pointer, an int and a
// float and returns a float; collatzSteps() runs a data-dependent loop and is called only by
// the lanes with odd seeds, so the call itself sits under a divergent branch and the lanes
// inside it leave its loop at different times; mix() serves the even lanes.
__device__ __noinline__ float horner(const float* __restrict__ c, int degree, float x) {
  float r = c[degree];
  for (int i = degree - 1; i >= 0; --i) r = r * x + c[i];  // fma.rn.f32, highest power first
  return r;
}

__device__ __noinline__ unsigned collatzSteps(unsigned v, unsigned limit) {
  unsigned steps = 0;
  while (v != 1 && steps < limit) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  return steps;
}

__device__ __noinline__ unsigned mix(unsigned v, unsigned salt) {
  v ^= salt;
  v *= 0x9e3779b1u;
  return v ^ (v >> 15);
}

extern "C" __global__ void calls_noinline(const unsigned* __restrict__ seeds,
                                          const float* __restrict__ x,
                                          const float* __restrict__ coef, float* __restrict__ poly,
                                          unsigned* __restrict__ tag, unsigned n, int degree) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  poly[i] = horner(coef, degree, x[i]);
  const unsigned s = seeds[i];
  tag[i] = (s & 1) ? collatzSteps(s, 1000) : mix(s, i);
}
