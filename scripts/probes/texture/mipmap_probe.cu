// The mipmap probe (docs/FIDELITY.md, "Mipmaps"): level selection and blending of mipmapped
// textures, and layered and cube-map textures, as the chip does them. The same program runs on
// the H200 and under `warpsim exec`; scripts/device_probe_diff.sh diffs the two outputs line by
// line, so every line is one fetch with its inputs: the first differing line names the inputs
// that disagree.
//
// Covered (what warpsim simulates):
//   - 1-d (64), 2-d (32 x 16 and 20 x 12, which is not a power of two) and 3-d (16 x 8 x 4)
//     mipmapped arrays, every level filled with distinct texels (f32 x 4: the level in the
//     integer part, 24 random fraction bits; f16 x 4 the same rounded; u8 x 4 read as normalized
//     floats), sampled through
//     objects with point and linear filtering, point and linear mipmap filtering, the four
//     address modes, mipmapLevelBias, minMipmapLevelClamp and maxMipmapLevelClamp;
//   - tex{1D,2D,3D}Lod over a sweep of the level of detail (steps of 1/64 up to 2 then 1/16 at
//     four coordinates, or 1/8 at two for the objects not marked full), 1/256 steps either side of
//     every level and half-level, the 8-bit blend weight's ties ((m + 0.5) / 256) and one ulp
//     either side, and -inf, inf, NaN, -0;
//   - tex{1D,2D,3D}Grad over gradient lengths 2^-3 .. 2^7 texels in steps of 2^(1/8), one axis,
//     anisotropic (4:1 and 8:1), rotated and degenerate pairs; zero, tiny, huge, inf and NaN;
//   - tex{1D,2D,3D} (no level of detail) on every mipmapped object: level 0 plus the bias;
//   - tex1DLayered and tex2DLayered (no mipmaps) over coordinates and the layers -1 .. 3 of 3;
//   - texCubemap and texCubemapLayered (no mipmaps): point, linear, and linear with
//     seamlessCubemap, at directions across every face, its edges and corners.
// Layered and cube-map mipmaps (tex2DLayeredLod, texCubemapLod, ...) have a probe of their own,
// mip_layered_probe.cu, which includes this file. Not modelled, so not probed: maxAnisotropy > 1.
//
// Output: a line `texture NAME ...: STATUS` per object, then one line per fetch,
//   NAME OP inputs (%a) = r g b a (the four result words in hex)
// and a `launch` status line per batch.
//
//   nvcc -arch=sm_90 -lineinfo -o mipmap_probe scripts/probes/texture/mipmap_probe.cu
//   ./mipmap_probe > h200.txt;  warpsim exec ./mipmap_probe > sim.txt;  diff h200.txt sim.txt
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    const cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                             \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// What a fetch does with its Sample.
enum Op {
  kLod1,
  kLod2,
  kLod3,
  kGrad1,
  kGrad2,
  kGrad3,
  kPlain1,
  kPlain2,
  kPlain3,
  kLayer1,
  kLayer2,
  kCube,
  kCubeLayer,
  // Layered and cube-map mipmaps (scripts/probes/texture/mip_layered_probe.cu).
  kLayerLod1,
  kLayerLod2,
  kLayerGrad1,
  kLayerGrad2,
  kCubeLod,
  kCubeLayerLod
};
const char* const kOpName[] = {
    "lod1",      "lod2",      "lod3",       "grad1",      "grad2",   "grad3",
    "tex1",      "tex2",      "tex3",       "layer1",     "layer2",  "cube",
    "cubelayer", "layerlod1", "layerlod2",  "layergrad1", "layergrad2", "cubelod",
    "cubelayerlod"};

struct Sample {
  float c[3];
  float lod;
  float ddx[3], ddy[3];
  int layer;
};

__global__ void fetch(cudaTextureObject_t t, int op, const Sample* s, int n, float4* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Sample q = s[i];
  float4 r = make_float4(0, 0, 0, 0);
  switch (op) {
    case kLod1:
      r = tex1DLod<float4>(t, q.c[0], q.lod);
      break;
    case kLod2:
      r = tex2DLod<float4>(t, q.c[0], q.c[1], q.lod);
      break;
    case kLod3:
      r = tex3DLod<float4>(t, q.c[0], q.c[1], q.c[2], q.lod);
      break;
    case kGrad1:
      r = tex1DGrad<float4>(t, q.c[0], q.ddx[0], q.ddy[0]);
      break;
    case kGrad2:
      r = tex2DGrad<float4>(t, q.c[0], q.c[1], make_float2(q.ddx[0], q.ddx[1]),
                            make_float2(q.ddy[0], q.ddy[1]));
      break;
    case kGrad3:
      r = tex3DGrad<float4>(t, q.c[0], q.c[1], q.c[2], make_float4(q.ddx[0], q.ddx[1], q.ddx[2], 0),
                            make_float4(q.ddy[0], q.ddy[1], q.ddy[2], 0));
      break;
    case kPlain1:
      r = tex1D<float4>(t, q.c[0]);
      break;
    case kPlain2:
      r = tex2D<float4>(t, q.c[0], q.c[1]);
      break;
    case kPlain3:
      r = tex3D<float4>(t, q.c[0], q.c[1], q.c[2]);
      break;
    case kLayer1:
      r = tex1DLayered<float4>(t, q.c[0], q.layer);
      break;
    case kLayer2:
      r = tex2DLayered<float4>(t, q.c[0], q.c[1], q.layer);
      break;
    case kCube:
      r = texCubemap<float4>(t, q.c[0], q.c[1], q.c[2]);
      break;
    case kCubeLayer:
      r = texCubemapLayered<float4>(t, q.c[0], q.c[1], q.c[2], q.layer);
      break;
    case kLayerLod1:
      r = tex1DLayeredLod<float4>(t, q.c[0], q.layer, q.lod);
      break;
    case kLayerLod2:
      r = tex2DLayeredLod<float4>(t, q.c[0], q.c[1], q.layer, q.lod);
      break;
    case kLayerGrad1:
      r = tex1DLayeredGrad<float4>(t, q.c[0], q.layer, q.ddx[0], q.ddy[0]);
      break;
    case kLayerGrad2:
      r = tex2DLayeredGrad<float4>(t, q.c[0], q.c[1], q.layer, make_float2(q.ddx[0], q.ddx[1]),
                                   make_float2(q.ddy[0], q.ddy[1]));
      break;
    case kCubeLod:
      r = texCubemapLod<float4>(t, q.c[0], q.c[1], q.c[2], q.lod);
      break;
    case kCubeLayerLod:
      r = texCubemapLayeredLod<float4>(t, q.c[0], q.c[1], q.c[2], q.layer, q.lod);
      break;
  }
  out[i] = r;
}

// A deterministic hash of a texel's place: the texels are random-looking but the same on every
// run and machine.
uint32_t hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d, uint32_t e) {
  uint32_t h = 0x9e3779b9u;
  for (uint32_t v : {a, b, c, d, e}) {
    h ^= v + 0x7f4a7c15u + (h << 6) + (h >> 2);
    h *= 0x85ebca6bu;
    h ^= h >> 13;
  }
  return h;
}

enum Format { kF32, kU8, kF16 };
const char* const kFormat[] = {"f32x4", "u8x4norm", "f16x4"};
unsigned texelBytes(Format f) { return f == kF32 ? 16 : f == kF16 ? 8 : 4; }
cudaChannelFormatDesc channelDesc(Format f) {
  return f == kF32   ? cudaCreateChannelDesc<float4>()
         : f == kF16 ? cudaCreateChannelDescHalf4()
                     : cudaCreateChannelDesc<uchar4>();
}

// The texels of level (or layer/face) `l` of w x h x d: f32 x 4 holds 4 l + channel plus 24
// random fraction bits (so the level read shows in the integer part), f16 x 4 the same rounded
// to half; u8 x 4 holds 40 l + a random 0..39 in x and random bytes in y, z, w.
std::vector<uint8_t> texels(Format f, unsigned l, unsigned w, unsigned h, unsigned d) {
  const unsigned tb = texelBytes(f);
  std::vector<uint8_t> v(size_t(w) * h * d * tb);
  for (unsigned z = 0; z < d; ++z)
    for (unsigned y = 0; y < h; ++y)
      for (unsigned x = 0; x < w; ++x)
        for (unsigned c = 0; c < 4; ++c) {
          const uint32_t r = hash(l, x, y, z, c);
          const size_t at = ((size_t(z) * h + y) * w + x) * tb;
          if (f == kF32) {
            const float value = float(4 * l + c) + float(r >> 8) * 0x1p-24f;
            std::memcpy(&v[at + 4 * c], &value, 4);
          } else if (f == kF16) {
            const __half value = __float2half(float(4 * l + c) + float(r >> 8) * 0x1p-24f);
            std::memcpy(&v[at + 2 * c], &value, 2);
          } else {
            v[at + c] = uint8_t(c == 0 ? 40 * l + r % 40 : r);
          }
        }
  return v;
}

void copyIn(cudaArray_t a, const std::vector<uint8_t>& v, unsigned tb, unsigned w, unsigned h,
            unsigned d) {
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(const_cast<uint8_t*>(v.data()), size_t(w) * tb, w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
}

// How a texture object samples.
struct Sampling {
  const char* name;
  cudaTextureFilterMode filter, mipFilter;
  cudaTextureAddressMode address;
  float bias, minClamp, maxClamp;
  bool normalized;
  bool full;  // the full level-of-detail sweep (else the short one)
  bool seamless;
};

const char* const kFilter[] = {"point", "linear"};
const char* const kAddress[] = {"wrap", "clamp", "mirror", "border"};

// Makes the object; prints its description and the creation's status. 0 when it failed.
cudaTextureObject_t makeObject(const cudaResourceDesc& res, Format f, const Sampling& s,
                               const char* shape) {
  cudaTextureDesc td = {};
  for (int a = 0; a < 3; ++a) td.addressMode[a] = s.address;
  td.filterMode = s.filter;
  td.readMode = f == kU8 ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = s.normalized;
  const float border[4] = {7.5f, -3.25f, 0.125f, 100.0f};
  std::memcpy(td.borderColor, border, sizeof border);
  td.mipmapFilterMode = s.mipFilter;
  td.mipmapLevelBias = s.bias;
  td.minMipmapLevelClamp = s.minClamp;
  td.maxMipmapLevelClamp = s.maxClamp;
  td.seamlessCubemap = s.seamless;
  cudaTextureObject_t t = 0;
  const cudaError_t e = cudaCreateTextureObject(&t, &res, &td, nullptr);
  std::printf(
      "texture %s %s %s filter=%s mip=%s address=%s bias=%a min=%a max=%a norm=%d "
      "seamless=%d: %s\n",
      s.name, shape, kFormat[f], kFilter[s.filter], kFilter[s.mipFilter], kAddress[s.address],
      s.bias, s.minClamp, s.maxClamp, s.normalized, s.seamless, cudaGetErrorString(e));
  if (e != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return t;
}

// Runs the samples through `op` on `t` and prints one line per fetch.
void run(cudaTextureObject_t t, const char* name, Op op, const std::vector<Sample>& in) {
  if (!t || in.empty()) return;
  Sample* ds;
  float4* dout;
  CHECK(cudaMalloc(&ds, in.size() * sizeof(Sample)));
  CHECK(cudaMalloc(&dout, in.size() * sizeof(float4)));
  CHECK(cudaMemcpy(ds, in.data(), in.size() * sizeof(Sample), cudaMemcpyHostToDevice));
  const int n = int(in.size());
  fetch<<<(n + 127) / 128, 128>>>(t, op, ds, n, dout);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("launch %s %s %d: %s\n", name, kOpName[op], n, cudaGetErrorString(e));
  if (e != cudaSuccess) std::exit(1);
  std::vector<float4> out(in.size());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dout));
  const bool cube = op == kCube || op == kCubeLayer || op == kCubeLod || op == kCubeLayerLod;
  const bool layered = op == kLayer1 || op == kLayer2 || op == kCubeLayer || op == kLayerLod1 ||
                       op == kLayerLod2 || op == kLayerGrad1 || op == kLayerGrad2 ||
                       op == kCubeLayerLod;
  const bool lod = op == kLod1 || op == kLod2 || op == kLod3 || op == kLayerLod1 ||
                   op == kLayerLod2 || op == kCubeLod || op == kCubeLayerLod;
  const bool grad = op == kGrad1 || op == kGrad2 || op == kGrad3 || op == kLayerGrad1 ||
                    op == kLayerGrad2;
  const unsigned dims = op == kLod1 || op == kGrad1 || op == kPlain1 || op == kLayer1 ||
                                op == kLayerLod1 || op == kLayerGrad1
                            ? 1
                        : op == kLod3 || op == kGrad3 || op == kPlain3 || cube ? 3
                                                                                : 2;
  for (size_t i = 0; i < in.size(); ++i) {
    const Sample& q = in[i];
    std::printf("%s %s", name, kOpName[op]);
    for (unsigned a = 0; a < dims; ++a) std::printf(" %a", q.c[a]);
    if (layered) std::printf(" layer %d", q.layer);
    if (lod) std::printf(" lod %a", q.lod);
    if (grad) {
      std::printf(" ddx");
      for (unsigned a = 0; a < dims; ++a) std::printf(" %a", q.ddx[a]);
      std::printf(" ddy");
      for (unsigned a = 0; a < dims; ++a) std::printf(" %a", q.ddy[a]);
    }
    uint32_t r[4];
    std::memcpy(r, &out[i], sizeof r);
    std::printf(" = %08x %08x %08x %08x\n", r[0], r[1], r[2], r[3]);
  }
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// Levels of detail for a texture of `levels` levels: a sweep from -1 to levels + 1 (steps of
// 1/64, or 1/8 when short), 1/256 steps either side of every level and half-level, the blend
// weight's ties and one ulp either side, and the special values.
std::vector<float> lods(unsigned levels, bool full) {
  std::vector<float> v;
  // Full: steps of 1/64 up to 2 (the blend's weights, which repeat from level to level), then
  // steps of 1/16.
  const int step = full ? 64 : 8;
  for (int i = -step; i <= int(levels + 1) * step; i += full && i >= 2 * step ? 4 : 1)
    v.push_back(float(i) / step);
  for (unsigned k = 0; k <= levels; ++k)
    for (double centre : {double(k), k + 0.5})
      for (int j = -(full ? 4 : 1); j <= (full ? 4 : 1); ++j)
        if (j != 0) v.push_back(float(centre + j / 256.0));
  const int ties[] = {0, 1, 63, 127, 128, 200, 254, 255};
  for (unsigned k = 0; k < (full ? 3u : 1u); ++k)
    for (int m : ties) {
      const float tie = float(k + (m + 0.5) / 256);
      v.push_back(tie);
      v.push_back(std::nextafter(tie, -kInf));
      v.push_back(std::nextafter(tie, kInf));
    }
  for (float half : {0.5f, 1.5f, 2.5f}) {
    v.push_back(std::nextafter(half, -kInf));
    v.push_back(std::nextafter(half, kInf));
  }
  for (float s : {-kInf, kInf, kNaN, -0.0f, 1e-30f, -1e-30f, 100.0f, -100.0f}) v.push_back(s);
  return v;
}

// The normalized coordinates the level-of-detail sweeps sample at (the full ones at all four,
// the short ones at the first two; texels for unnormalized objects): generic, near the far
// corner, and two with few fraction bits (their texel weights are exact at several levels).
const float kCoords[4][3] = {{0.318309886f, 0.707106781f, 0.577215665f},
                             {0.9810f, 0.0371f, 0.9531f},
                             {0.0714111328125f, 0.4476318359375f, 0.2104f},
                             {0.77734375f, 0.2890625f, 0.640625f}};

Sample at(const float* c, unsigned dims, const unsigned* size, bool normalized) {
  Sample q = {};
  for (unsigned a = 0; a < dims; ++a) q.c[a] = normalized ? c[a] : c[a] * float(size[a]);
  return q;
}

// Gradient pairs, in texels of level 0 along each axis (divided by the size when the object's
// coordinates are normalized): for each length 2^(k/8), k = -24 .. 56, several shapes; then 1/256
// steps of the length's log2 around whole and half levels; then degenerate gradients.
std::vector<Sample> gradients(unsigned dims, const unsigned* size, bool normalized,
                              const float* c) {
  std::vector<Sample> v;
  auto add = [&](const float* dx, const float* dy) {
    Sample q = at(c, dims, size, normalized);
    for (unsigned a = 0; a < dims; ++a) {
      const float scale = normalized ? float(size[a]) : 1.0f;
      q.ddx[a] = dx[a] / scale;
      q.ddy[a] = dy[a] / scale;
    }
    v.push_back(q);
  };
  auto shapes = [&](float len, bool all) {
    const float z = 0;
    const float e[3][3] = {{len, 0, 0}, {0, len, 0}, {0, 0, len}};
    const float zero[3] = {z, z, z};
    add(e[0], zero);  // x only, in ddx
    if (!all) return;
    add(zero, e[dims >= 2 ? 1 : 0]);  // the last axes, in ddy
    if (dims == 3) add(zero, e[2]);
    if (dims >= 2) {
      const float x4[3] = {len, 0, 0}, y4[3] = {0, len / 4, 0};
      add(x4, y4);  // 4:1, x longer
      const float x8[3] = {len / 8, 0, 0}, y8[3] = {0, len, 0};
      add(x8, y8);  // 8:1, y longer
      const float rx[3] = {len * 0.6f, len * 0.8f, len * 0.1f},
                  ry[3] = {-len * 0.4f, len * 0.3f, -len * 0.2f};
      add(rx, ry);      // rotated, 2:1
      add(e[0], e[0]);  // both along x
    } else {
      const float half[3] = {len / 2, 0, 0}, neg[3] = {-len, 0, 0};
      add(half, e[0]);  // ddy longer
      add(neg, half);   // negative
    }
  };
  for (int k = -24; k <= 56; ++k) shapes(std::exp2(k / 8.0f), true);
  for (int k = 0; k <= 7; ++k)
    for (double centre : {double(k), k + 0.5})
      for (int j = -3; j <= 3; ++j)
        if (j != 0) shapes(float(std::exp2(centre + j / 256.0)), false);
  for (float s : {0.0f, 1e-30f, 1e30f, kInf, kNaN, -0.0f}) {
    const float d[3] = {s, s, s}, zero[3] = {0, 0, 0};
    add(d, d);
    add(d, zero);
  }
  return v;
}

// A mipmapped array of `levels` levels of w x h x d (h, d 0 for fewer dimensions), each level
// filled by texels().
cudaMipmappedArray_t mipmapped(Format f, unsigned w, unsigned h, unsigned d, unsigned levels) {
  const cudaChannelFormatDesc desc = channelDesc(f);
  cudaMipmappedArray_t m;
  CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(w, h, d), levels));
  for (unsigned l = 0; l < levels; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    const unsigned lw = std::max(1u, w >> l), lh = h ? std::max(1u, h >> l) : 1,
                   ld = d ? std::max(1u, d >> l) : 1;
    copyIn(a, texels(f, l, lw, lh, ld), texelBytes(f), lw, lh, ld);
  }
  return m;
}

// One mipmapped shape sampled through several objects: the level-of-detail sweep at both
// coordinates, the gradient sweep (objects with `grads`), and a plain fetch.
void mipmapSuite(unsigned dims, Format f, const unsigned* size, unsigned levels,
                 const std::vector<Sampling>& objects, const std::vector<std::string>& grads) {
  cudaMipmappedArray_t m =
      mipmapped(f, size[0], dims >= 2 ? size[1] : 0, dims == 3 ? size[2] : 0, levels);
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = m;
  char shape[64];
  std::snprintf(shape, sizeof shape, "%ud %ux%ux%u levels=%u", dims, size[0],
                dims >= 2 ? size[1] : 1, dims == 3 ? size[2] : 1, levels);
  const Op lodOp = dims == 1 ? kLod1 : dims == 2 ? kLod2 : kLod3;
  const Op gradOp = dims == 1 ? kGrad1 : dims == 2 ? kGrad2 : kGrad3;
  const Op plainOp = dims == 1 ? kPlain1 : dims == 2 ? kPlain2 : kPlain3;
  for (const Sampling& s : objects) {
    const cudaTextureObject_t t = makeObject(res, f, s, shape);
    std::vector<Sample> in;
    for (float lod : lods(levels, s.full))
      for (unsigned i = 0; i < (s.full ? 4u : 2u); ++i) {
        Sample q = at(kCoords[i], dims, size, s.normalized);
        q.lod = lod;
        in.push_back(q);
      }
    run(t, s.name, lodOp, in);
    for (const std::string& g : grads)
      if (g == s.name) run(t, s.name, gradOp, gradients(dims, size, s.normalized, kCoords[0]));
    in.clear();
    for (const float* c : kCoords) in.push_back(at(c, dims, size, s.normalized));  // tex*()
    run(t, s.name, plainOp, in);
    if (t) CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFreeMipmappedArray(m));
}

// A layered (or cube-map) array of `layers` layers of w x h, layer i filled as level i.
cudaArray_t layeredArray(Format f, unsigned w, unsigned h, unsigned layers, unsigned flags) {
  const cudaChannelFormatDesc desc = channelDesc(f);
  cudaArray_t a;
  CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, layers), flags));
  std::vector<uint8_t> all;
  for (unsigned l = 0; l < layers; ++l) {
    const std::vector<uint8_t> one = texels(f, l, w, h ? h : 1, 1);
    all.insert(all.end(), one.begin(), one.end());
  }
  copyIn(a, all, texelBytes(f), w, h ? h : 1, layers);
  return a;
}

void layeredSuite() {
  // 1-d layered: 16 texels x 3 layers; x from -0.25 to 1.25 in steps of 1/64 (a texel is 4/64),
  // at the layers -1 .. 3.
  {
    cudaArray_t a = layeredArray(kF32, 16, 0, 3, cudaArrayLayered);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    const Sampling s = {
        "L1", cudaFilterModeLinear, cudaFilterModePoint, cudaAddressModeClamp, 0, 0, 0, true, false,
        false};
    const cudaTextureObject_t t = makeObject(res, kF32, s, "1d-layered 16x3");
    std::vector<Sample> in;
    for (int layer = -1; layer <= 3; ++layer)
      for (int i = -16; i <= 80; ++i) {
        Sample q = {};
        q.c[0] = i / 64.0f + 1.0f / 512;
        q.layer = layer;
        in.push_back(q);
      }
    run(t, s.name, kLayer1, in);
    if (t) CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // 2-d layered: 8 x 6 x 3 layers, f32 linear wrap and u8 point clamp, on a 9 x 7 grid that
  // spills past the edges, at the layers -1 .. 3.
  const Sampling s2[] = {{"L2f", cudaFilterModeLinear, cudaFilterModePoint, cudaAddressModeWrap, 0,
                          0, 0, true, false, false},
                         {"L2u", cudaFilterModePoint, cudaFilterModePoint, cudaAddressModeClamp, 0,
                          0, 0, true, false, false}};
  for (const Sampling& s : s2) {
    const Format f = s.filter == cudaFilterModeLinear ? kF32 : kU8;
    cudaArray_t a = layeredArray(f, 8, 6, 3, cudaArrayLayered);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    const cudaTextureObject_t t = makeObject(res, f, s, "2d-layered 8x6x3");
    std::vector<Sample> in;
    for (int layer = -1; layer <= 3; ++layer)
      for (int j = 0; j < 7; ++j)
        for (int i = 0; i < 9; ++i) {
          Sample q = {};
          q.c[0] = -0.1f + i * 0.1532f;
          q.c[1] = -0.07f + j * 0.1917f;
          q.layer = layer;
          in.push_back(q);
        }
    run(t, s.name, kLayer2, in);
    if (t) CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
}

void cubeSuite() {
  // Directions: each face's major axis at +-1 (and +-2: the length must not matter) with the
  // other two from -1 .. 1 (corners and edges are ties of the major axis), then no direction.
  const float minor[] = {-1.0f, -0.97f, -0.5f, -0.0625f, 0.0f, 0.03125f, 0.5f, 0.96f, 1.0f};
  std::vector<Sample> dirs;
  for (int axis = 0; axis < 3; ++axis)
    for (float major : {1.0f, -1.0f, -2.0f})
      for (float u : minor)
        for (float v : minor) {
          if (major == -2.0f && (u != 0.5f || (v != -0.5f && v != 0.96f))) continue;
          Sample q = {};
          q.c[axis] = major;
          q.c[(axis + 1) % 3] = u * std::fabs(major);
          q.c[(axis + 2) % 3] = v * std::fabs(major);
          dirs.push_back(q);
        }
  for (float s : {0.0f, kNaN}) {
    Sample q = {};
    q.c[0] = q.c[1] = q.c[2] = s;
    dirs.push_back(q);
  }
  const Sampling cubes[] = {{"Cp", cudaFilterModePoint, cudaFilterModePoint, cudaAddressModeClamp,
                             0, 0, 0, true, false, false},
                            {"Cl", cudaFilterModeLinear, cudaFilterModePoint, cudaAddressModeClamp,
                             0, 0, 0, true, false, false},
                            {"Cs", cudaFilterModeLinear, cudaFilterModePoint, cudaAddressModeClamp,
                             0, 0, 0, true, false, true}};
  {
    cudaArray_t a = layeredArray(kF32, 8, 8, 6, cudaArrayCubemap);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    for (const Sampling& s : cubes) {
      const cudaTextureObject_t t = makeObject(res, kF32, s, "cube 8x8");
      run(t, s.name, kCube, dirs);
      if (t) CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(a));
  }
  // A cube-map array of 2 cubes (12 layers), linear, at cubes -1 .. 2.
  {
    cudaArray_t a = layeredArray(kF32, 8, 8, 12, cudaArrayCubemap | cudaArrayLayered);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    Sampling s = cubes[1];
    s.name = "CAl";
    const cudaTextureObject_t t = makeObject(res, kF32, s, "cube-layered 8x8x2");
    std::vector<Sample> in;
    for (int layer = -1; layer <= 2; ++layer)
      for (size_t i = 0; i < dirs.size(); i += 3) {
        Sample q = dirs[i];
        q.layer = layer;
        in.push_back(q);
      }
    run(t, s.name, kCubeLayer, in);
    if (t) CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
}

int main() {
  const auto P = cudaFilterModePoint, L = cudaFilterModeLinear;
  const auto Wr = cudaAddressModeWrap, Cl = cudaAddressModeClamp, Mi = cudaAddressModeMirror,
             Bo = cudaAddressModeBorder;
  // 2-d, 32 x 16, 6 levels (32x16 .. 1x1), f32.
  {
    const unsigned size[3] = {32, 16, 1};
    mipmapSuite(2, kF32, size, 6,
                {{"p2", P, P, Cl, 0, 0, 5, true, true, false},
                 {"l2", L, L, Cl, 0, 0, 5, true, true, false},
                 {"pl2", P, L, Wr, 0, 0, 5, true, false, false},
                 {"lp2", L, P, Wr, 0, 0, 5, true, false, false},
                 {"lb2", L, L, Mi, 0.75f, 0.5f, 3.25f, true, false, false},
                 {"nb2", L, L, Bo, -1.375f, 1.0f, 2.0f, true, false, false},
                 {"pb2", P, P, Cl, 0.3125f, 0.75f, 4.5f, true, false, false},
                 {"mx0", L, L, Cl, 0, 0, 0, true, false, false},
                 {"hi2", L, L, Cl, 0.25f, 2.5f, 10.0f, true, false, false},
                 {"un2", L, L, Cl, 0, 0, 5, false, false, false}},
                {"p2", "l2", "lb2"});
  }
  // 2-d, u8 x 4 read as normalized floats.
  {
    const unsigned size[3] = {32, 16, 1};
    mipmapSuite(2, kU8, size, 6,
                {{"u2", L, L, Cl, 0, 0, 5, true, true, false},
                 {"ub2", P, L, Wr, 0.5f, 0.25f, 4.5f, true, false, false}},
                {});
  }
  // 2-d, f16 x 4 (the levels' blend may round to f16, as f16 texel sums do).
  {
    const unsigned size[3] = {32, 16, 1};
    mipmapSuite(2, kF16, size, 6, {{"h2", L, L, Cl, 0, 0, 5, true, false, false}}, {});
  }
  // 2-d, 20 x 12 (not a power of two), 5 levels: 20x12, 10x6, 5x3, 2x1, 1x1.
  {
    const unsigned size[3] = {20, 12, 1};
    mipmapSuite(2, kF32, size, 5, {{"np2", L, L, Cl, 0, 0, 4, true, false, false}}, {"np2"});
  }
  // 1-d, 64, 7 levels.
  {
    const unsigned size[3] = {64, 1, 1};
    mipmapSuite(1, kF32, size, 7,
                {{"p1", P, P, Cl, 0, 0, 6, true, false, false},
                 {"l1", L, L, Cl, 0, 0, 6, true, true, false},
                 {"b1", L, L, Wr, 0.5f, 0.5f, 5.5f, true, false, false}},
                {"l1"});
  }
  // 3-d, 16 x 8 x 4, 5 levels: 16x8x4, 8x4x2, 4x2x1, 2x1x1, 1x1x1.
  {
    const unsigned size[3] = {16, 8, 4};
    mipmapSuite(3, kF32, size, 5,
                {{"p3", P, P, Cl, 0, 0, 4, true, false, false},
                 {"l3", L, L, Cl, 0, 0, 4, true, false, false},
                 {"b3", L, L, Wr, -0.5f, 0.5f, 3.0f, true, false, false}},
                {"l3"});
  }
  layeredSuite();
  cubeSuite();
  return 0;
}
