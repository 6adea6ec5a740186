// y = alpha*x + y in half precision, two elements per thread with __hfma2 (fma.rn.f16x2 on a
// packed pair); the odd element of an odd n is done with a scalar __hfma (fma.rn.f16). alpha
// arrives as a float and is rounded to half once (cvt.rn.f16.f32).
#include <cuda_fp16.h>

extern "C" __global__ void haxpy_half2(float alpha, const __half* __restrict__ x,
                                       __half* __restrict__ y, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned pairs = n / 2;
  const __half2 a2 = __float2half2_rn(alpha);
  if (i < pairs) {
    const __half2 xv = reinterpret_cast<const __half2*>(x)[i];
    __half2* yp = reinterpret_cast<__half2*>(y) + i;
    *yp = __hfma2(a2, xv, *yp);
  } else if (i == pairs && (n & 1)) {
    y[n - 1] = __hfma(__low2half(a2), x[n - 1], y[n - 1]);
  }
}
