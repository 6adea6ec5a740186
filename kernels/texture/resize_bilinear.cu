// Bilinear image resize through a texture object: each thread samples the source texture
// (f32, linear filtering, clamped, unnormalized coordinates) at the centre of its output
// pixel mapped back into the source: ((x + 0.5) * scaleX, (y + 0.5) * scaleY).
#include <cuda_runtime.h>

extern "C" __global__ void resize_bilinear_f32(cudaTextureObject_t src, float* __restrict__ dst,
                                               unsigned outW, unsigned outH, float scaleX,
                                               float scaleY) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= outW || y >= outH) return;
  dst[y * outW + x] = tex2D<float>(src, (x + 0.5f) * scaleX, (y + 0.5f) * scaleY);
}
