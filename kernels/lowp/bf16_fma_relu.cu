// out = relu(x*w + b) in bfloat16, two elements per thread with __hfma2_relu on
// __nv_bfloat162 (fma.rn.relu.bf16x2: one rounding, then negative results become zero); the
// odd last element uses the scalar __hfma_relu (fma.rn.relu.bf16).
#include <cuda_bf16.h>

extern "C" __global__ void bf16_fma_relu(const __nv_bfloat16* __restrict__ x,
                                         const __nv_bfloat16* __restrict__ w,
                                         const __nv_bfloat16* __restrict__ b,
                                         __nv_bfloat16* __restrict__ out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned pairs = n / 2;
  if (i < pairs) {
    const __nv_bfloat162 xv = reinterpret_cast<const __nv_bfloat162*>(x)[i];
    const __nv_bfloat162 wv = reinterpret_cast<const __nv_bfloat162*>(w)[i];
    const __nv_bfloat162 bv = reinterpret_cast<const __nv_bfloat162*>(b)[i];
    reinterpret_cast<__nv_bfloat162*>(out)[i] = __hfma2_relu(xv, wv, bv);
  } else if (i == pairs && (n & 1)) {
    out[n - 1] = __hfma_relu(x[n - 1], w[n - 1], b[n - 1]);
  }
}
