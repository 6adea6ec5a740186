// The texture probe: random texture objects (1d/2d/3d, every element format warpsim models in
// 1, 2 and 4 channels, point and linear filtering, the four address modes, normalized and
// unnormalized coordinates, element and normalized-float reads) sampled by one warp with
// `tex.{1d,2d,3d}.v4.{f32,s32,u32}.f32` at random coordinates and at coordinates placed on and
// around the 1/256 steps of the linear filter's weights. Every case is written as text: the
// texture's description, texels, coordinates and the 4 result words per lane, for
// tests/sim/texture_replay_test.cpp to replay through the simulator.
//
//   nvcc -arch=sm_90 -o texture_probe scripts/probes/texture/texture_probe.cu
//   ./texture_probe CASES FIRST_SEED OUT.txt        (on the H200: scripts/device_texture.sh)
//   warpsim exec ./texture_probe 20 1 sim.txt       (the same program on the simulator)
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    const cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                \
                   cudaGetErrorString(e_));                                             \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

enum Dst { kF32, kS32, kU32 };

template <int Dims, int D>
__global__ void sample(cudaTextureObject_t t, const float* coords, unsigned* out) {
  const int l = threadIdx.x;
  const float x = coords[l * 3], y = coords[l * 3 + 1], z = coords[l * 3 + 2];
  unsigned r[4];
  if (D == kF32) {
    float f[4];
    if (Dims == 1)
      asm volatile("tex.1d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5}];"
                   : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3]) : "l"(t), "f"(x));
    else if (Dims == 2)
      asm volatile("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                   : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3]) : "l"(t), "f"(x), "f"(y));
    else
      asm volatile("tex.3d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];"
                   : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3])
                   : "l"(t), "f"(x), "f"(y), "f"(z), "f"(0.0f));
    for (int i = 0; i < 4; ++i) r[i] = __float_as_uint(f[i]);
  } else if (D == kS32) {
    if (Dims == 1)
      asm volatile("tex.1d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5}];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(t), "f"(x));
    else if (Dims == 2)
      asm volatile("tex.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(t), "f"(x), "f"(y));
    else
      asm volatile("tex.3d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "l"(t), "f"(x), "f"(y), "f"(z), "f"(0.0f));
  } else {
    if (Dims == 1)
      asm volatile("tex.1d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5}];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(t), "f"(x));
    else if (Dims == 2)
      asm volatile("tex.2d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(t), "f"(x), "f"(y));
    else
      asm volatile("tex.3d.v4.u32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "l"(t), "f"(x), "f"(y), "f"(z), "f"(0.0f));
  }
  for (int i = 0; i < 4; ++i) out[l * 4 + i] = r[i];
}

template <int Dims>
void launch(int dst, cudaTextureObject_t t, const float* c, unsigned* o) {
  if (dst == kF32) sample<Dims, kF32><<<1, 32>>>(t, c, o);
  if (dst == kS32) sample<Dims, kS32><<<1, 32>>>(t, c, o);
  if (dst == kU32) sample<Dims, kU32><<<1, 32>>>(t, c, o);
}

// The formats in the order of isa::tex::Channel (u8 s8 u16 s16 u32 s32 f16 f32).
const char* kFormat[] = {"u8", "s8", "u16", "s16", "u32", "s32", "f16", "f32"};
const int kBits[] = {8, 8, 16, 16, 32, 32, 16, 32};
const char* kAddress[] = {"wrap", "clamp", "mirror", "border"};

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: texture_probe CASES FIRST_SEED OUT.txt\n");
    return 2;
  }
  const int cases = std::atoi(argv[1]);
  const unsigned first = unsigned(std::strtoul(argv[2], nullptr, 10));
  FILE* out = std::fopen(argv[3], "w");
  if (!out) {
    std::perror(argv[3]);
    return 2;
  }
  float* dcoords;
  unsigned* dout;
  CHECK(cudaMalloc(&dcoords, 32 * 3 * sizeof(float)));
  CHECK(cudaMalloc(&dout, 32 * 4 * sizeof(unsigned)));
  for (int c = 0; c < cases; ++c) {
    const unsigned seed = first + unsigned(c);
    std::mt19937 g(seed);
    auto pick = [&](int n) { return int(g() % unsigned(n)); };
    const int dims = 1 + pick(3);
    const int w = 1 + pick(12), h = dims >= 2 ? 1 + pick(8) : 1, d = dims == 3 ? 1 + pick(6) : 1;
    const int fmt = pick(8), channels = (int[]){1, 2, 4}[pick(3)];
    const bool isFloat = fmt >= 6, narrowInt = !isFloat && kBits[fmt] <= 16;
    const bool readNorm = narrowInt && pick(3) != 0;
    const bool floatRead = isFloat || readNorm;
    const bool linear = floatRead && pick(2) == 0;
    const bool norm = pick(2) == 0;
    const int address = norm ? pick(4) : 1 + 2 * pick(2);  // unnormalized: clamp or border
    const int dst = floatRead ? kF32 : (fmt == 1 || fmt == 3 || fmt == 5) ? kS32 : kU32;
    float border[4] = {0, 0, 0, 0};
    if (isFloat)
      for (float& b : border) b = float(pick(17) - 8) * 0.25f;
    // Texels: random bits for integers, floats of moderate size (no NaN or infinity).
    const int cb = kBits[fmt] / 8, tb = cb * channels;
    std::vector<uint8_t> texels(size_t(w) * h * d * tb);
    for (size_t i = 0; i < texels.size(); i += cb) {
      if (fmt == 7) {
        const float v = std::ldexp(float(int(g() % 2000001) - 1000000), -pick(24));
        std::memcpy(&texels[i], &v, 4);
      } else if (fmt == 6) {
        const __half hv = __float2half(std::ldexp(float(int(g() % 4001) - 2000), -pick(12)));
        std::memcpy(&texels[i], &hv, 2);
      } else {
        for (int b = 0; b < cb; ++b) texels[i + b] = uint8_t(g());
      }
    }
    // Coordinates: random, on texel centres, and on and around the filter's 1/256 steps.
    const int size[3] = {w, h, d};
    std::vector<float> coords(32 * 3, 0.0f);
    for (int l = 0; l < 32; ++l)
      for (int a = 0; a < dims; ++a) {
        const int n = size[a];
        double u;
        const int mode = l % 4;
        if (mode == 0) {
          u = (double(g()) / 4294967296.0) * (n + 2) - 1;  // anywhere, a texel past each edge
        } else if (mode == 1) {
          u = pick(n) + 0.5;  // a centre
        } else {
          // alpha = k/256 plus a tie (mode 2: exactly (k + 0.5)/256) or a nudge (mode 3).
          const int k = pick(256);
          const double frac = mode == 2 ? (k + 0.5) / 256 : (k + (pick(2) ? 0.49 : 0.51)) / 256;
          u = pick(n) + 0.5 + frac;
        }
        coords[l * 3 + a] = norm ? float(u / n) : float(u);
      }
    // The array, its contents and the object.
    const int bits = kBits[fmt];
    const cudaChannelFormatKind kind =
        isFloat ? cudaChannelFormatKindFloat
                : (fmt == 1 || fmt == 3 || fmt == 5) ? cudaChannelFormatKindSigned
                                                     : cudaChannelFormatKindUnsigned;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc(
        bits, channels >= 2 ? bits : 0, channels >= 4 ? bits : 0, channels >= 4 ? bits : 0, kind);
    cudaArray_t array;
    const cudaExtent extent = make_cudaExtent(w, dims >= 2 ? h : 0, dims == 3 ? d : 0);
    CHECK(cudaMalloc3DArray(&array, &desc, extent));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(texels.data(), size_t(w) * tb, w, h);
    p.dstArray = array;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc td = {};
    for (int a = 0; a < 3; ++a) td.addressMode[a] = cudaTextureAddressMode(address);
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = readNorm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = norm;
    std::memcpy(td.borderColor, border, sizeof border);
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
    CHECK(cudaMemcpy(dcoords, coords.data(), coords.size() * sizeof(float),
                     cudaMemcpyHostToDevice));
    if (dims == 1) launch<1>(dst, t, dcoords, dout);
    if (dims == 2) launch<2>(dst, t, dcoords, dout);
    if (dims == 3) launch<3>(dst, t, dcoords, dout);
    CHECK(cudaGetLastError());
    unsigned result[32 * 4];
    CHECK(cudaMemcpy(result, dout, sizeof result, cudaMemcpyDeviceToHost));
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(array));
    std::fprintf(out, "case %u\n", seed);
    std::fprintf(out, "texture dims=%d width=%d height=%d depth=%d format=%s channels=%d read=%s "
                 "filter=%s address=%s norm=%d\n",
                 dims, w, h, d, kFormat[fmt], channels, readNorm ? "norm" : "elem",
                 linear ? "linear" : "point", kAddress[address], norm ? 1 : 0);
    std::fprintf(out, "border");
    for (float b : border) {
      unsigned u;
      std::memcpy(&u, &b, 4);
      std::fprintf(out, " %08x", u);
    }
    std::fprintf(out, "\ntexels ");
    for (uint8_t b : texels) std::fprintf(out, "%02x", b);
    std::fprintf(out, "\ncoords");
    for (float f : coords) {
      unsigned u;
      std::memcpy(&u, &f, 4);
      std::fprintf(out, " %08x", u);
    }
    std::fprintf(out, "\nresults");
    for (unsigned r : result) std::fprintf(out, " %08x", r);
    std::fprintf(out, "\n");
  }
  std::fclose(out);
  std::printf("texture_probe: %d cases from seed %u written to %s\n", cases, first, argv[3]);
  return 0;
}
