// Texture and surface objects through the runtime as CUDA programs use them: a CUDA array
// filled with cudaMemcpy2DToArray and sampled with tex2D (point and bilinear, clamped, in
// unnormalized and normalized coordinates), tex1Dfetch on linear memory, and surf2Dwrite into
// a surface array read back with cudaMemcpy2DFromArray. The texels are small integers and the
// coordinates put the filter weights on multiples of 1/4, so every result is exact on any
// correct implementation: the program checks itself and prints PASSED.
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int W = 8, H = 4;

__global__ void sample(cudaTextureObject_t point, cudaTextureObject_t linear,
                       cudaTextureObject_t norm, float* out) {
  const int x = threadIdx.x, y = threadIdx.y, i = y * W + x;
  out[i] = tex2D<float>(point, x + 0.5f, y + 0.5f);
  out[W * H + i] = tex2D<float>(linear, x + 1.0f, y + 0.75f);                // alpha 0.5, beta 0.25
  out[2 * W * H + i] = tex2D<float>(norm, (x + 0.75f) / W, (y + 0.5f) / H);  // alpha 0.25
}

__global__ void fetch(cudaTextureObject_t lin, int* out, int n) {
  const int i = threadIdx.x;
  out[i] = tex1Dfetch<int>(lin, i - 2);  // out of range below: 0
  (void)n;
}

__global__ void write(cudaSurfaceObject_t s) {
  const int x = threadIdx.x, y = threadIdx.y;
  surf2Dwrite(x * 100 + y, s, x * int(sizeof(int)), y);
}

float texel(const std::vector<float>& t, int x, int y) {
  x = x < 0 ? 0 : x >= W ? W - 1 : x;
  y = y < 0 ? 0 : y >= H ? H - 1 : y;
  return t[y * W + x];
}

float bilinear(const std::vector<float>& t, float u, float v) {
  const float xb = u - 0.5f, yb = v - 0.5f;
  const int i = int(floorf(xb)), j = int(floorf(yb));
  const float a = xb - i, b = yb - j;
  return (1 - a) * (1 - b) * texel(t, i, j) + a * (1 - b) * texel(t, i + 1, j) +
         (1 - a) * b * texel(t, i, j + 1) + a * b * texel(t, i + 1, j + 1);
}

int main() {
  std::vector<float> host(W * H);
  for (int i = 0; i < W * H; ++i) host[i] = float(i % W + 10 * (i / W));
  cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &fdesc, W, H));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, host.data(), W * sizeof(float), W * sizeof(float), H,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t point, linear, norm;
  CHECK(cudaCreateTextureObject(&point, &res, &td, nullptr));
  td.filterMode = cudaFilterModeLinear;
  CHECK(cudaCreateTextureObject(&linear, &res, &td, nullptr));
  td.normalizedCoords = 1;
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
  CHECK(cudaCreateTextureObject(&norm, &res, &td, nullptr));
  float* dout;
  CHECK(cudaMalloc(&dout, 3 * W * H * sizeof(float)));
  sample<<<1, dim3(W, H)>>>(point, linear, norm, dout);
  CHECK(cudaGetLastError());
  std::vector<float> out(3 * W * H);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const int i = y * W + x;
      // Wrap at the right edge: x + 0.75 - 0.5 between texel x and x+1 mod W.
      const int x1 = (x + 1) % W;
      const float wrapped = 0.75f * texel(host, x, y) + 0.25f * texel(host, x1, y);
      const float want[3] = {host[i], bilinear(host, x + 1.0f, y + 0.75f), wrapped};
      for (int k = 0; k < 3; ++k)
        if (out[k * W * H + i] != want[k]) {
          if (++wrong <= 5)
            std::printf("WRONG sample %d at (%d,%d): %g, expected %g\n", k, x, y,
                        out[k * W * H + i], want[k]);
        }
    }
  // tex1Dfetch on linear memory.
  std::vector<int> ints(16);
  for (int i = 0; i < 16; ++i) ints[i] = 1000 + i;
  int *dints, *dfetched;
  CHECK(cudaMalloc(&dints, 16 * sizeof(int)));
  CHECK(cudaMalloc(&dfetched, 16 * sizeof(int)));
  CHECK(cudaMemcpy(dints, ints.data(), 16 * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc lres = {};
  lres.resType = cudaResourceTypeLinear;
  lres.res.linear.devPtr = dints;
  lres.res.linear.desc = cudaCreateChannelDesc<int>();
  lres.res.linear.sizeInBytes = 16 * sizeof(int);
  cudaTextureDesc ltd = {};
  ltd.readMode = cudaReadModeElementType;
  cudaTextureObject_t lin;
  CHECK(cudaCreateTextureObject(&lin, &lres, &ltd, nullptr));
  fetch<<<1, 16>>>(lin, dfetched, 16);
  CHECK(cudaGetLastError());
  std::vector<int> fetched(16);
  CHECK(cudaMemcpy(fetched.data(), dfetched, 16 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; ++i) {
    const int want = i < 2 ? 0 : 1000 + i - 2;
    if (fetched[i] != want && ++wrong <= 10)
      std::printf("WRONG tex1Dfetch %d: %d, expected %d\n", i, fetched[i], want);
  }
  // A surface written by a kernel, read back through the array.
  cudaChannelFormatDesc idesc = cudaCreateChannelDesc<int>();
  cudaArray_t sarray;
  CHECK(cudaMallocArray(&sarray, &idesc, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc sres = {};
  sres.resType = cudaResourceTypeArray;
  sres.res.array.array = sarray;
  cudaSurfaceObject_t surf;
  CHECK(cudaCreateSurfaceObject(&surf, &sres));
  write<<<1, dim3(W, H)>>>(surf);
  CHECK(cudaGetLastError());
  std::vector<int> back(W * H);
  CHECK(cudaMemcpy2DFromArray(back.data(), W * sizeof(int), sarray, 0, 0, W * sizeof(int), H,
                              cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      if (back[y * W + x] != x * 100 + y && ++wrong <= 15)
        std::printf("WRONG surface (%d,%d): %d\n", x, y, back[y * W + x]);
  CHECK(cudaDestroyTextureObject(point));
  CHECK(cudaDestroyTextureObject(linear));
  CHECK(cudaDestroyTextureObject(norm));
  CHECK(cudaDestroyTextureObject(lin));
  CHECK(cudaDestroySurfaceObject(surf));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFreeArray(sarray));
  std::printf("texture_objects: %s\n", wrong ? "FAILED" : "PASSED");
  return wrong ? 1 : 0;
}
