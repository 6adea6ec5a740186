// A mipmapped array through the runtime, as cuda-samples' bindlessTexture uses one:
// cudaMallocMipmappedArray, each level filled through cudaGetMipmappedArrayLevel, a texture
// object of resource type cudaResourceTypeMipmappedArray with linear mipmap filtering, and
// tex2DLod / tex2DGrad reading levels that hold 1, 2, 4 and 8 (warpsim exec; isa/insns/
// texture_mipmap.h gives the level selection).
#include <cstdio>
#include <vector>

#include "check.h"

__global__ void sample(cudaTextureObject_t t, const float* lod, const float* grad, float* out) {
  const int i = threadIdx.x;
  out[2 * i] = tex2DLod<float>(t, 0.5f, 0.5f, lod[i]);
  out[2 * i + 1] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(grad[i], 0), make_float2(0, 0));
}

int main() {
  const unsigned size = 8, levels = 4;
  cudaMipmappedArray_t mip;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaMallocMipmappedArray(&mip, &desc, make_cudaExtent(size, size, 0), levels));
  for (unsigned l = 0; l < levels; ++l) {
    cudaArray_t level;
    CHECK(cudaGetMipmappedArrayLevel(&level, mip, l));
    const unsigned n = size >> l;
    const std::vector<float> texels(n * n, float(1u << l));
    CHECK(cudaMemcpy2DToArray(level, 0, 0, texels.data(), n * sizeof(float), n * sizeof(float), n,
                              cudaMemcpyHostToDevice));
  }
  cudaArray_t none;
  const cudaError_t pastLast = cudaGetMipmappedArrayLevel(&none, mip, levels);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mip;
  cudaTextureDesc td = {};
  td.normalizedCoords = 1;
  td.filterMode = cudaFilterModePoint;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.maxMipmapLevelClamp = float(levels - 1);
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
  // Level-of-detail inputs and the level-0 texel spans of the gradients (1/8 of the width is
  // one texel: lod 0; 1/2 is four: lod 2).
  const std::vector<float> lods = {-1.0f, 0.0f, 0.5f, 1.0f, 2.25f, 3.0f, 7.0f};
  const std::vector<float> grads = {0.125f, 0.25f, 0.5f, 1.0f, 2.0f, 0.0f, 0.125f};
  const float wantLod[] = {1, 1, 1.5f, 2, 5, 8, 8};
  const float wantGrad[] = {1, 2, 4, 8, 8, 1, 1};
  const int n = int(lods.size());
  float *dLod, *dGrad, *dOut;
  CHECK(cudaMalloc(&dLod, n * sizeof(float)));
  CHECK(cudaMalloc(&dGrad, n * sizeof(float)));
  CHECK(cudaMalloc(&dOut, 2 * n * sizeof(float)));
  CHECK(cudaMemcpy(dLod, lods.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dGrad, grads.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  sample<<<1, n>>>(tex, dLod, dGrad, dOut);
  std::vector<float> out(2 * n);
  CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = pastLast == cudaErrorInvalidValue;
  for (int i = 0; i < n; ++i) {
    if (out[2 * i] != wantLod[i] || out[2 * i + 1] != wantGrad[i]) ok = false;
    std::printf("lod %5.2f: %g (want %g); gradient %5.3f: %g (want %g)\n", lods[i], out[2 * i],
                wantLod[i], grads[i], out[2 * i + 1], wantGrad[i]);
  }
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeMipmappedArray(mip));
  std::printf("texture_mipmap: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
