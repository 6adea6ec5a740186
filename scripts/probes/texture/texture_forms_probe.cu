// The texture and surface forms probe (docs/FIDELITY.md, "Textures, surfaces and wmma": the
// forms issue 12 item 5 still lacked): tex.grad on cube maps (texCubemapGrad,
// texCubemapLayeredGrad), the formatted surface store sust.p (the integer and float array formats,
// and the normalized ones) and reduction sured.p, txq's and suq's channel_data_type /
// channel_order, txq.level, tex.base, tld4 on cube maps, the multisample geometries tex.2dms /
// tex.a2dms (on ordinary textures: CUDA makes no multisample ones), sampler operands in
// independent mode (.texmode_independent, a PTX module of its own), and out-of-range surface
// coordinates under .trap / .clamp / .zero. The same program runs on the chip and under
// `warpsim exec`; every line is one measurement with its inputs, so the first differing line
// names what disagrees (tests/driver/texture_forms_probe_test.cpp diffs them).
//
// One section per run (a trap ends its context): `texture_forms_probe SECTION [SEED]`, with
// SECTION one of cubegrad, sust, sustnorm, sured, suredodd, txq, base, tld4cube, ms, indep,
// trap-sust, trap-sured, trap-suld, normread, gradlod, cubegradlod, cuberot;
// scripts/device_texture_forms.sh runs them all.
// Random inputs come from SEED (default 1) through a fixed generator, so a run is the same on
// every machine.
//
// Output lines:
//   texture NAME ...: STATUS            an object and its creation's status
//   NAME cubegrad x y z [layer L] ddx a b c ddy a b c = r g b a      (result words in hex)
//   sust FMT GEOM VEC CLAMP elem E in v0 v1 v2 v3 = texel bytes (hex, memory order)
//   sustoob FMT GEOM CLAMP at x y z in v0 v1 v2 v3 = every texel's bytes
//   sured OP GEOM TYPE FMT elem E init I ops ... = final bytes
//   txq/suq FMT ... = values;  base/ms/indep lines name their inputs the same way
//   normread FMT FILTER READ RET X = r g b a   (tex of a UNORM/SNORM array; normtexel lines
//                                               hold its texels)
//   gradlod SWEEP ddx a b ddy c d = word       (tex.grad's lod read directly, sectionGradLod)
//   GLn SWEEP x y z ddx a b c ddy a b c = word (the same on cube maps of n x n faces,
//                                               sectionCubeGradLod, and cuberot's:
//                                               sectionCubeRot)
//   launch ...: STATUS                   each launch's status (a trap's error here)
//
//   nvcc -arch=sm_90 -lineinfo -lcuda -o texture_forms_probe texture_forms_probe.cu
// nvcc-flags: -lcuda
#include <cuda.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

// One section's kernels per build (-DONLY_SECTION=N, as scripts/device_texture_forms.sh builds
// them for the chip): a form the chip's driver cannot load then fails its own section alone.
// Without it (the build tree's whole program), every kernel is whole but the txq section's,
// whose channel queries no driver loads on sm_90: that section runs its own build
// (-DONLY_SECTION=6, texture_forms_probe.txq beside the whole program).
#ifdef ONLY_SECTION
#define SECTION_ID(n) (ONLY_SECTION == (n))
#else
#define SECTION_ID(n) ((n) != 6)
#endif
#define SECTION_CUBEGRAD SECTION_ID(1)
#define SECTION_SUST SECTION_ID(2)
#define SECTION_SUSTNORM SECTION_ID(3)
#define SECTION_SURED SECTION_ID(4)
#define SECTION_SUREDODD SECTION_ID(5)
#define SECTION_TXQ SECTION_ID(6)
#define SECTION_BASE SECTION_ID(7)
#define SECTION_TLD4CUBE SECTION_ID(8)
#define SECTION_MS SECTION_ID(9)
#define SECTION_TRAP_SUST SECTION_ID(11)
#define SECTION_TRAP_SURED SECTION_ID(12)
#define SECTION_TRAP_SULD SECTION_ID(13)
#define SECTION_NORMREAD SECTION_ID(14)
#define SECTION_GRADLOD SECTION_ID(15)
#define SECTION_CUBEGRADLOD SECTION_ID(16)
#define SECTION_CUBEROT SECTION_ID(17)

#define CHECK(call)                                                                      \
  do {                                                                                   \
    const cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                             \
      std::printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

// A kernel in every build, outside the anonymous namespace: that the program's module loads and
// runs at all.
__global__ void textureFormsCanary(int* out) { *out = 42; }

namespace {

// A fixed generator (splitmix64): the same inputs on every machine for a seed.
struct Rng {
  uint64_t s;
  uint32_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return uint32_t((z ^ (z >> 31)) >> 32);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 8) * 0x1p-24f; }
};

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// A launch's status: its own error (a kernel that did not load: lazy loading reports it here,
// not at the synchronization), else the synchronization's.
bool sync(const char* what) {
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t e = launch != cudaSuccess ? launch : cudaDeviceSynchronize();
  std::printf("launch %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

// ---- the formats: every channel type with 1, 2 and 4 channels -------------------------------

enum Kind { kU8, kS8, kU16, kS16, kU32, kS32, kF16, kF32 };
const char* const kKindName[] = {"u8", "s8", "u16", "s16", "u32", "s32", "f16", "f32"};
struct Format {
  Kind kind;
  unsigned channels;
};
unsigned channelBytes(Kind k) { return k <= kS8 ? 1 : k <= kS16 || k == kF16 ? 2 : 4; }
unsigned texelBytes(Format f) { return channelBytes(f.kind) * f.channels; }
std::string nameOf(Format f) {
  return std::string(kKindName[f.kind]) + "x" + char('0' + f.channels);
}
cudaChannelFormatDesc descOf(Format f) {
  const int bits = int(channelBytes(f.kind)) * 8;
  const cudaChannelFormatKind k = f.kind == kF16 || f.kind == kF32 ? cudaChannelFormatKindFloat
                                  : f.kind == kS8 || f.kind == kS16 || f.kind == kS32
                                      ? cudaChannelFormatKindSigned
                                      : cudaChannelFormatKindUnsigned;
  return cudaCreateChannelDesc(bits, f.channels > 1 ? bits : 0, f.channels > 2 ? bits : 0,
                               f.channels > 3 ? bits : 0, k);
}
std::vector<Format> allFormats() {
  std::vector<Format> v;
  for (int k = kU8; k <= kF32; ++k)
    for (unsigned c : {1u, 2u, 4u}) v.push_back({Kind(k), c});
  return v;
}

// A CUDA array of w x h x d (h, d 0: fewer dimensions) with `flags`.
cudaArray_t makeArray(Format f, unsigned w, unsigned h, unsigned d, unsigned flags) {
  const cudaChannelFormatDesc desc = descOf(f);
  cudaArray_t a;
  CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, d), flags));
  return a;
}
void copyArray(cudaArray_t a, std::vector<uint8_t>& host, unsigned tb, unsigned w, unsigned h,
               unsigned d, bool in) {
  cudaMemcpy3DParms p = {};
  const cudaPitchedPtr ptr = make_cudaPitchedPtr(host.data(), size_t(w) * tb, w, h ? h : 1);
  if (in) {
    p.srcPtr = ptr;
    p.dstArray = a;
    p.kind = cudaMemcpyHostToDevice;
  } else {
    p.srcArray = a;
    p.dstPtr = ptr;
    p.kind = cudaMemcpyDeviceToHost;
  }
  p.extent = make_cudaExtent(w, h ? h : 1, d ? d : 1);
  CHECK(cudaMemcpy3D(&p));
}
cudaSurfaceObject_t surfaceOf(cudaArray_t a) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  return s;
}
std::string hexBytes(const uint8_t* p, size_t n) {
  static const char* const kHex = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += kHex[p[i] >> 4];
    s += kHex[p[i] & 15];
  }
  return s;
}

// ---- cube maps: tex.grad.cube and tex.grad.acube --------------------------------------------

struct CubeSample {
  float c[3];
  float ddx[3], ddy[3];
  int layer;
};

__global__ void cubeGrad(cudaTextureObject_t t, bool layered, const CubeSample* s, int n,
                         float4* out) {
#if SECTION_CUBEGRAD
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const CubeSample q = s[i];
  const float4 dx = make_float4(q.ddx[0], q.ddx[1], q.ddx[2], 0);
  const float4 dy = make_float4(q.ddy[0], q.ddy[1], q.ddy[2], 0);
  out[i] = layered ? texCubemapLayeredGrad<float4>(t, q.c[0], q.c[1], q.c[2], q.layer, dx, dy)
                   : texCubemapGrad<float4>(t, q.c[0], q.c[1], q.c[2], dx, dy);
#endif
}

// f32 x 4 texels of cube face (or layer) k at level l: 16 l + k in the integer part (the level
// and face read show), a random fraction.
std::vector<uint8_t> cubeTexels(unsigned l, unsigned k, unsigned size, Rng& rng) {
  std::vector<uint8_t> v(size_t(size) * size * 16);
  for (size_t i = 0; i < v.size() / 4; ++i) {
    const float f = float(16 * l + k) + float(rng.next() >> 8) * 0x1p-24f;
    std::memcpy(&v[4 * i], &f, 4);
  }
  return v;
}

// Directions: face centres and off-centre points, edges (two axes of equal magnitude) and
// corners (three), near-edges one ulp either side, scaled directions (the gradient is divided
// by the major axis), and random ones.
std::vector<CubeSample> cubeDirections(Rng& rng) {
  const float d[][3] = {{1, 0.25f, -0.5f},
                        {-1, 0.6f, 0.1f},
                        {0.3f, 1, -0.7f},
                        {-0.45f, -1, 0.2f},
                        {0.1f, -0.35f, 1},
                        {0.8f, 0.5f, -1},
                        {1, 1, 0.3f},
                        {-1, 0.2f, -1},
                        {0.4f, -1, 1},
                        {1, 1, 1},
                        {-1, -1, 1},
                        {1, -1, -1},
                        {std::nextafter(1.0f, 2.0f), 1, -0.6f},
                        {std::nextafter(1.0f, 0.0f), 1, -0.6f},
                        {0.5f, 0.125f, 0.25f},
                        {3, -1.5f, 2.25f},
                        {0.9990234375f, 0.9990234375f, -0.25f},
                        {0.0f, 0.0f, 1}};
  std::vector<CubeSample> v;
  for (const auto& c : d) {
    CubeSample q = {};
    for (int a = 0; a < 3; ++a) q.c[a] = c[a];
    v.push_back(q);
  }
  for (int i = 0; i < 10; ++i) {
    CubeSample q = {};
    for (int a = 0; a < 3; ++a) q.c[a] = rng.uniform(-1, 1);
    q.c[rng.next() % 3] = rng.next() & 1 ? 1.0f : -1.0f;
    v.push_back(q);
  }
  return v;
}

// Gradient pairs at a direction: zero; isotropic along the two other axes over lengths 2^-8 ..
// 2^1 (a 16-texel face spans 2: a texel is 2^-3) in half-octave steps; along the major axis;
// anisotropic 4:1 and rotated; random; inf and NaN.
std::vector<CubeSample> cubeGradients(const CubeSample& dir, Rng& rng) {
  int major = 0;
  for (int a = 1; a < 3; ++a)
    if (std::fabs(dir.c[a]) > std::fabs(dir.c[major])) major = a;
  const int u = (major + 1) % 3, w = (major + 2) % 3;
  std::vector<CubeSample> v;
  auto add = [&](float x0, float x1, float x2, float y0, float y1, float y2) {
    CubeSample q = dir;
    q.ddx[0] = x0, q.ddx[1] = x1, q.ddx[2] = x2;
    q.ddy[0] = y0, q.ddy[1] = y1, q.ddy[2] = y2;
    v.push_back(q);
  };
  add(0, 0, 0, 0, 0, 0);
  for (int e = -16; e <= 2; e += 1) {
    const float len = std::ldexp(e & 1 ? 1.41421354f : 1.0f, e >> 1);  // 2^(e/2), no libm
    float x[3] = {0, 0, 0}, y[3] = {0, 0, 0};
    x[u] = len;
    y[w] = len;
    add(x[0], x[1], x[2], y[0], y[1], y[2]);
  }
  for (float len : {0.03125f, 0.25f}) {
    float x[3] = {0, 0, 0}, y[3] = {0, 0, 0};
    x[major] = len;
    y[major] = -len;
    add(x[0], x[1], x[2], y[0], y[1], y[2]);
    x[u] = len / 4;
    y[major] = 0;
    y[w] = len;
    add(x[0], x[1], x[2], y[0], y[1], y[2]);
  }
  {
    float x[3] = {0, 0, 0}, y[3] = {0, 0, 0};
    x[u] = 0.1f, x[w] = 0.05f, y[u] = -0.02f, y[w] = 0.12f;
    add(x[0], x[1], x[2], y[0], y[1], y[2]);
  }
  for (int i = 0; i < 6; ++i) {
    const float s = std::ldexp(1.0f, -int(rng.next() % 8));
    add(rng.uniform(-s, s), rng.uniform(-s, s), rng.uniform(-s, s), rng.uniform(-s, s),
        rng.uniform(-s, s), rng.uniform(-s, s));
  }
  add(kInf, 0, 0, 0, kInf, 0);
  add(kNaN, 0, 0, 0, 0, 0);
  return v;
}

void printCube(const char* name, bool layered, const std::vector<CubeSample>& in,
               const std::vector<float4>& out) {
  for (size_t i = 0; i < in.size(); ++i) {
    const CubeSample& q = in[i];
    std::printf("%s cubegrad %a %a %a", name, q.c[0], q.c[1], q.c[2]);
    if (layered) std::printf(" layer %d", q.layer);
    std::printf(" ddx %a %a %a ddy %a %a %a", q.ddx[0], q.ddx[1], q.ddx[2], q.ddy[0], q.ddy[1],
                q.ddy[2]);
    uint32_t r[4];
    std::memcpy(r, &out[i], sizeof r);
    std::printf(" = %08x %08x %08x %08x\n", r[0], r[1], r[2], r[3]);
  }
}

struct CubeObject {
  const char* name;
  cudaTextureFilterMode filter, mipFilter;
  float bias, minClamp, maxClamp;
  bool seamless;
};

void cubeSuite(unsigned size, unsigned cubes, unsigned levels, const std::vector<CubeObject>& objs,
               Rng& rng) {
  const bool layered = cubes > 1;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
  cudaMipmappedArray_t m;
  const unsigned flags = cudaArrayCubemap | (layered ? cudaArrayLayered : 0);
  CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(size, size, 6 * cubes), levels, flags));
  for (unsigned l = 0; l < levels; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    const unsigned s = std::max(1u, size >> l);
    std::vector<uint8_t> all;
    for (unsigned k = 0; k < 6 * cubes; ++k) {
      const std::vector<uint8_t> one = cubeTexels(l, k, s, rng);
      all.insert(all.end(), one.begin(), one.end());
    }
    copyArray(a, all, 16, s, s, 6 * cubes, true);
  }
  std::vector<CubeSample> in;
  for (const CubeSample& d : cubeDirections(rng))
    for (CubeSample q : cubeGradients(d, rng)) {
      if (layered) {
        for (int layer = -1; layer <= int(cubes); ++layer) {
          q.layer = layer;
          in.push_back(q);
        }
      } else {
        in.push_back(q);
      }
    }
  for (const CubeObject& o : objs) {
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    for (int a = 0; a < 3; ++a) td.addressMode[a] = cudaAddressModeClamp;
    td.filterMode = o.filter;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    td.mipmapFilterMode = o.mipFilter;
    td.mipmapLevelBias = o.bias;
    td.minMipmapLevelClamp = o.minClamp;
    td.maxMipmapLevelClamp = o.maxClamp;
    td.seamlessCubemap = o.seamless;
    cudaTextureObject_t t = 0;
    const cudaError_t e = cudaCreateTextureObject(&t, &res, &td, nullptr);
    std::printf(
        "texture %s cube %ux%u cubes=%u levels=%u filter=%d mip=%d bias=%a min=%a max=%a "
        "seamless=%d: %s\n",
        o.name, size, size, cubes, levels, int(o.filter), int(o.mipFilter), o.bias, o.minClamp,
        o.maxClamp, int(o.seamless), cudaGetErrorString(e));
    if (e != cudaSuccess) continue;
    CubeSample* ds;
    float4* dout;
    const int n = int(in.size());
    CHECK(cudaMalloc(&ds, n * sizeof(CubeSample)));
    CHECK(cudaMalloc(&dout, n * sizeof(float4)));
    CHECK(cudaMemcpy(ds, in.data(), n * sizeof(CubeSample), cudaMemcpyHostToDevice));
    cubeGrad<<<(n + 127) / 128, 128>>>(t, layered, ds, n, dout);
    if (!sync(o.name)) std::exit(1);
    std::vector<float4> out(n);
    CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost));
    printCube(o.name, layered, in, out);
    CHECK(cudaFree(ds));
    CHECK(cudaFree(dout));
    CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFreeMipmappedArray(m));
}

void sectionCubeGrad(Rng& rng) {
  const auto P = cudaFilterModePoint, L = cudaFilterModeLinear;
  cubeSuite(16, 1, 5,
            {{"GCp", P, P, 0, 0, 4, false},
             {"GCl", L, L, 0, 0, 4, false},
             {"GCs", L, L, 0, 0, 4, true},
             {"GCb", L, P, 0.5f, 0.75f, 3, false}},
            rng);
  cubeSuite(8, 2, 4, {{"GCAl", L, L, 0, 0, 3, false}, {"GCAs", P, L, -0.5f, 0, 3, true}}, rng);
}

// ---- sust.p: every format, geometry and vector width -----------------------------------------

// geom 0..2 (1d, 2d, 3d), vec 0..2 (scalar, v2, v4), clamp 0..2 (trap, clamp, zero).
#define SUSTP_ONE(G, C, V, D, CL)                                                               \
  asm volatile("sust.p" G V ".b32." CL " [%0, " C "], " D ";" ::"l"(s), "r"(x), "r"(y), "r"(z), \
               "r"(a), "r"(b), "r"(c), "r"(d)                                                   \
               : "memory")
#define SUSTP_CL(G, C, V, D)        \
  if (cl == 0)                      \
    SUSTP_ONE(G, C, V, D, "trap");  \
  else if (cl == 1)                 \
    SUSTP_ONE(G, C, V, D, "clamp"); \
  else                              \
    SUSTP_ONE(G, C, V, D, "zero")
#define SUSTP_VEC(G, C)                        \
  if (vec == 0) {                              \
    SUSTP_CL(G, C, "", "%4");                  \
  } else if (vec == 1) {                       \
    SUSTP_CL(G, C, ".v2", "{%4, %5}");         \
  } else {                                     \
    SUSTP_CL(G, C, ".v4", "{%4, %5, %6, %7}"); \
  }

__global__ void sustP(cudaSurfaceObject_t s, int geom, int vec, int cl, const int4* at,
                      const uint4* data, int n) {
#if SECTION_SUST || SECTION_SUSTNORM
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int x = at[i].x, y = at[i].y, z = at[i].z;
  const uint32_t a = data[i].x, b = data[i].y, c = data[i].z, d = data[i].w;
  if (geom == 0) {
    SUSTP_VEC(".1d", "{%1}")
  } else if (geom == 1) {
    SUSTP_VEC(".2d", "{%1, %2}")
  } else {
    SUSTP_VEC(".3d", "{%1, %2, %3, %3}")
  }
#endif
}

// A 32-bit source word for a formatted store: floats of every magnitude and the conversions'
// edges (f16 overflow and its rounding tie, f16 subnormals, NaN, infinities, -0) for float
// formats; integers across the narrow types' ranges and their edges for integer ones.
uint32_t sourceWord(Kind k, Rng& rng) {
  const uint32_t pick = rng.next() % 4;
  if (k == kF16 || k == kF32) {
    static const float special[] = {
        0.0f,           -0.0f,         kInf,     -kInf,      kNaN,         65504.0f, 65519.996f,
        65520.0f,       1e9f,          0x1p-24f, 0x1.8p-25f, 0x1p-25f,     0x1p-14f, 0x1.ffcp-15f,
        1.00048828125f, 1.0009765625f, 1e-40f,   -2.5f,      0.333333343f, -65536.0f};
    if (pick == 0) return bitsOf(special[rng.next() % (sizeof special / sizeof *special)]);
    if (pick == 1) return rng.next();  // any bits, NaN payloads included
    const float m = rng.uniform(-1, 1);
    return bitsOf(std::ldexp(m, int(rng.next() % 50) - 30));
  }
  static const uint32_t special[] = {0,          1,          127,        128,        255,
                                     256,        0xffffff7f, 0xffffff80, 0xffffff81, 32767,
                                     32768,      65535,      65536,      0x7fffffff, 0x80000000,
                                     0xffffffff, 0xffff8000, 0xffff7fff, 300,        0xfffffed4};
  if (pick == 0) return special[rng.next() % (sizeof special / sizeof *special)];
  if (pick == 1) return rng.next();
  return uint32_t(int32_t(rng.next() % 1024) - 512);
}

struct Shape {
  const char* name;
  unsigned w, h, d;  // h, d 0: fewer dimensions
};
const Shape kShapes[] = {{"1d", 8, 0, 0}, {"2d", 4, 3, 0}, {"3d", 3, 2, 2}};
const char* const kVec[] = {"v1", "v2", "v4"};
const char* const kClamp[] = {"trap", "clamp", "zero"};

unsigned elements(const Shape& s) { return s.w * (s.h ? s.h : 1) * (s.d ? s.d : 1); }

// Runs sust.p at `at` with `data` on a fresh surface of `f`, `s`, filled with 0xa5 bytes (so a
// component the store leaves shows); returns the array's bytes after.
std::vector<uint8_t> storeP(Format f, const Shape& s, int geom, int vec, int cl,
                            const std::vector<int4>& at, const std::vector<uint4>& data,
                            const std::string& what, bool* ok) {
  cudaArray_t arr = makeArray(f, s.w, s.h, s.d, cudaArraySurfaceLoadStore);
  const unsigned tb = texelBytes(f);
  std::vector<uint8_t> host(size_t(elements(s)) * tb, 0xa5);
  copyArray(arr, host, tb, s.w, s.h, s.d, true);
  const cudaSurfaceObject_t so = surfaceOf(arr);
  int4* dat;
  uint4* ddata;
  const int n = int(at.size());
  CHECK(cudaMalloc(&dat, n * sizeof(int4)));
  CHECK(cudaMalloc(&ddata, n * sizeof(uint4)));
  CHECK(cudaMemcpy(dat, at.data(), n * sizeof(int4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddata, data.data(), n * sizeof(uint4), cudaMemcpyHostToDevice));
  sustP<<<1, n>>>(so, geom, vec, cl, dat, ddata, n);
  *ok = sync(what.c_str());
  if (*ok) copyArray(arr, host, tb, s.w, s.h, s.d, false);
  cudaFree(dat);
  cudaFree(ddata);
  cudaDestroySurfaceObject(so);
  cudaFreeArray(arr);
  return host;
}

int4 coordOf(const Shape& s, unsigned e) {
  const unsigned h = s.h ? s.h : 1;
  return make_int4(int(e % s.w), int(e / s.w % h), int(e / (s.w * h)), 0);
}

void sectionSust(Rng& rng) {
  for (const Format f : allFormats())
    for (int geom = 0; geom < 3; ++geom)
      for (int vec = 0; vec < 3; ++vec) {
        const Shape& s = kShapes[geom];
        std::vector<int4> at;
        std::vector<uint4> data;
        for (unsigned e = 0; e < elements(s); ++e) {
          at.push_back(coordOf(s, e));
          data.push_back(make_uint4(sourceWord(f.kind, rng), sourceWord(f.kind, rng),
                                    sourceWord(f.kind, rng), sourceWord(f.kind, rng)));
        }
        const std::string what = "sust " + nameOf(f) + " " + s.name + " " + kVec[vec];
        bool ok;
        const std::vector<uint8_t> out = storeP(f, s, geom, vec, 0, at, data, what, &ok);
        if (!ok) std::exit(1);
        const unsigned tb = texelBytes(f);
        for (unsigned e = 0; e < elements(s); ++e)
          std::printf("%s trap elem %u in %08x %08x %08x %08x = %s\n", what.c_str(), e, data[e].x,
                      data[e].y, data[e].z, data[e].w, hexBytes(&out[size_t(e) * tb], tb).c_str());
      }
  // Out-of-range coordinates under .clamp and .zero, one store per launch (a clamped store
  // may land on another's texel), on a few formats.
  const Format some[] = {{kU8, 4}, {kS16, 2}, {kF16, 1}, {kF32, 4}, {kU32, 1}};
  const int oob1[][3] = {{-1, 0, 0}, {8, 0, 0}, {11, 0, 0}, {-1000, 0, 0}, {0x7fffffff, 0, 0}};
  const int oob2[][3] = {{-1, 1, 0}, {4, 2, 0}, {1, -5, 0}, {2, 3, 0}, {-3, 7, 0}, {5, -1, 0}};
  const int oob3[][3] = {{1, 1, 2}, {1, 1, -1}, {3, 0, 1}, {-2, 5, 9}};
  for (const Format f : some)
    for (int geom = 0; geom < 3; ++geom)
      for (int cl = 1; cl < 3; ++cl) {
        const int(*pts)[3] = geom == 0 ? oob1 : geom == 1 ? oob2 : oob3;
        const size_t np = geom == 0 ? 5 : geom == 1 ? 6 : 4;
        for (size_t p = 0; p < np; ++p) {
          const std::vector<int4> at = {make_int4(pts[p][0], pts[p][1], pts[p][2], 0)};
          const std::vector<uint4> data = {
              make_uint4(sourceWord(f.kind, rng), sourceWord(f.kind, rng), sourceWord(f.kind, rng),
                         sourceWord(f.kind, rng))};
          const std::string what =
              "sustoob " + nameOf(f) + " " + kShapes[geom].name + " " + kClamp[cl];
          bool ok;
          const std::vector<uint8_t> out =
              storeP(f, kShapes[geom], geom, 2, cl, at, data, what, &ok);
          if (!ok) std::exit(1);
          std::printf("%s at %d %d %d in %08x %08x %08x %08x = %s\n", what.c_str(), pts[p][0],
                      pts[p][1], pts[p][2], data[0].x, data[0].y, data[0].z, data[0].w,
                      hexBytes(out.data(), out.size()).c_str());
        }
      }
}

// ---- sured.p --------------------------------------------------------------------------------

// op 0..4 (add, min, max, and, or); geom 0..2; wide: .b64; cl 0..2.
#define SURED_ONE(OP, G, C, T, R, CL)                                                            \
  asm volatile("sured.p" OP G "." T "." CL " [%0, " C "], %4;" ::"l"(s), "r"(x), "r"(y), "r"(z), \
               R(v)                                                                              \
               : "memory")
#define SURED_CL(OP, G, C, T, R)        \
  if (cl == 0)                          \
    SURED_ONE(OP, G, C, T, R, "trap");  \
  else if (cl == 1)                     \
    SURED_ONE(OP, G, C, T, R, "clamp"); \
  else                                  \
    SURED_ONE(OP, G, C, T, R, "zero")
#define SURED_OP32(G, C)                  \
  switch (op) {                           \
    case 0:                               \
      SURED_CL(".add", G, C, "b32", "r"); \
      break;                              \
    case 1:                               \
      SURED_CL(".min", G, C, "b32", "r"); \
      break;                              \
    case 2:                               \
      SURED_CL(".max", G, C, "b32", "r"); \
      break;                              \
    case 3:                               \
      SURED_CL(".and", G, C, "b32", "r"); \
      break;                              \
    default:                              \
      SURED_CL(".or", G, C, "b32", "r");  \
  }
#define SURED_OP64(G, C)                \
  if (op == 1) {                        \
    SURED_CL(".min", G, C, "b64", "l"); \
  } else {                              \
    SURED_CL(".max", G, C, "b64", "l"); \
  }

__global__ void suredP32(cudaSurfaceObject_t s, int op, int geom, int cl, const int4* at,
                         const uint32_t* vals, int n) {
#if SECTION_SURED || SECTION_SUREDODD
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int x = at[i].x, y = at[i].y, z = at[i].z;
  const uint32_t v = vals[i];
  if (geom == 0) {
    SURED_OP32(".1d", "{%1}")
  } else if (geom == 1) {
    SURED_OP32(".2d", "{%1, %2}")
  } else {
    SURED_OP32(".3d", "{%1, %2, %3, %3}")
  }
#endif
}
__global__ void suredP64(cudaSurfaceObject_t s, int op, int geom, int cl, const int4* at,
                         const unsigned long long* vals, int n) {
#if SECTION_SURED || SECTION_SUREDODD
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int x = at[i].x, y = at[i].y, z = at[i].z;
  const unsigned long long v = vals[i];
  if (geom == 0) {
    SURED_OP64(".1d", "{%1}")
  } else if (geom == 1) {
    SURED_OP64(".2d", "{%1, %2}")
  } else {
    SURED_OP64(".3d", "{%1, %2, %3, %3}")
  }
#endif
}

const char* const kOp[] = {"add", "min", "max", "and", "or"};

// Reduces `lanes` random operands (lane i on element i % elements, or at `oob` when given)
// into a surface of `f` holding random texels; prints each element's start, operands and end.
void reduceP(Format f, int geom, int op, bool wide, int cl, unsigned lanes, const int* oob,
             Rng& rng) {
  const Shape& s = kShapes[geom];
  cudaArray_t arr = makeArray(f, s.w, s.h, s.d, cudaArraySurfaceLoadStore);
  const unsigned tb = texelBytes(f), ne = elements(s);
  std::vector<uint8_t> host(size_t(ne) * tb);
  for (auto& b : host) b = uint8_t(rng.next() % 4 == 0 ? 0xff : rng.next());
  const std::vector<uint8_t> init = host;
  copyArray(arr, host, tb, s.w, s.h, s.d, true);
  const cudaSurfaceObject_t so = surfaceOf(arr);
  std::vector<int4> at;
  std::vector<unsigned long long> vals;
  for (unsigned i = 0; i < lanes; ++i) {
    at.push_back(oob ? make_int4(oob[0], oob[1], oob[2], 0) : coordOf(s, i % ne));
    const uint64_t v = (uint64_t(rng.next()) << 32) | rng.next();
    const uint32_t small = uint32_t(int32_t(rng.next() % 512) - 256);
    vals.push_back(rng.next() % 3 == 0 ? (wide ? int64_t(int32_t(small)) : small) : v);
    if (!wide) vals.back() &= 0xffffffffull;
  }
  int4* dat;
  void* dv;
  CHECK(cudaMalloc(&dat, lanes * sizeof(int4)));
  CHECK(cudaMalloc(&dv, lanes * 8));
  CHECK(cudaMemcpy(dat, at.data(), lanes * sizeof(int4), cudaMemcpyHostToDevice));
  if (wide) {
    CHECK(cudaMemcpy(dv, vals.data(), lanes * 8, cudaMemcpyHostToDevice));
    suredP64<<<1, lanes>>>(so, op, geom, cl, dat, static_cast<unsigned long long*>(dv), lanes);
  } else {
    std::vector<uint32_t> v32(vals.begin(), vals.end());
    CHECK(cudaMemcpy(dv, v32.data(), lanes * 4, cudaMemcpyHostToDevice));
    suredP32<<<1, lanes>>>(so, op, geom, cl, dat, static_cast<uint32_t*>(dv), lanes);
  }
  const std::string what = std::string("sured ") + kOp[op] + " " + s.name + " " +
                           (wide ? "b64 " : "b32 ") + nameOf(f) + " " + kClamp[cl];
  const bool ok = sync(what.c_str());
  if (ok) copyArray(arr, host, tb, s.w, s.h, s.d, false);
  cudaFree(dat);
  cudaFree(dv);
  cudaDestroySurfaceObject(so);
  cudaFreeArray(arr);
  if (!ok) std::exit(1);
  if (oob) {
    std::printf("%s at %d %d %d init %s ops", what.c_str(), oob[0], oob[1], oob[2],
                hexBytes(init.data(), init.size()).c_str());
    for (unsigned long long v : vals) std::printf(" %llx", v);
    std::printf(" = %s\n", hexBytes(host.data(), host.size()).c_str());
    return;
  }
  for (unsigned e = 0; e < ne; ++e) {
    std::printf("%s elem %u init %s ops", what.c_str(), e,
                hexBytes(&init[size_t(e) * tb], tb).c_str());
    for (unsigned i = e; i < lanes; i += ne) std::printf(" %llx", vals[i]);
    std::printf(" = %s\n", hexBytes(&host[size_t(e) * tb], tb).c_str());
  }
}

void sectionSured(Rng& rng) {
  for (const Format f : {Format{kU32, 1}, Format{kS32, 1}})
    for (int geom = 0; geom < 3; ++geom)
      for (int op = 0; op < 5; ++op) reduceP(f, geom, op, false, 0, 64, nullptr, rng);
  // Out of range under .clamp and .zero: every lane at one coordinate.
  const int oob[][3] = {{-1, 0, 0}, {9, 0, 0}, {5, -2, 0}, {1, 3, 0}};
  for (int cl = 1; cl < 3; ++cl)
    for (int p = 0; p < 4; ++p)
      reduceP({kU32, 1}, p < 2 ? 0 : 1, cl == 1 ? 0 : 2, false, cl, 4, oob[p], rng);
}

// The forms the manual leaves open: .b64 on two 32-bit channels, .b32 on wider texels and on
// formats that are neither UINT nor SINT of 32 bits.
void sectionSuredOdd(Rng& rng) {
  for (const Format f : {Format{kU32, 2}, Format{kS32, 2}})
    for (int geom = 0; geom < 2; ++geom)
      for (int op = 1; op < 3; ++op) reduceP(f, geom, op, true, 0, 32, nullptr, rng);
  for (const Format f :
       {Format{kU32, 2}, Format{kS32, 4}, Format{kU16, 1}, Format{kU8, 4}, Format{kF32, 1}})
    for (int op : {0, 2}) reduceP(f, 0, op, false, 0, 32, nullptr, rng);
}

// ---- txq / suq: channel_data_type and channel_order -----------------------------------------

__global__ void queries(cudaTextureObject_t t, cudaSurfaceObject_t s, int* out) {
#if SECTION_TXQ
  int r[8];
  asm volatile("txq.channel_data_type.b32 %0, [%1];" : "=r"(r[0]) : "l"(t));
  asm volatile("txq.channel_order.b32 %0, [%1];" : "=r"(r[1]) : "l"(t));
  asm volatile("txq.num_samples.b32 %0, [%1];" : "=r"(r[2]) : "l"(t));
  asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(r[3]) : "l"(t));
  if (s) {
    asm volatile("suq.channel_data_type.b32 %0, [%1];" : "=r"(r[4]) : "l"(s));
    asm volatile("suq.channel_order.b32 %0, [%1];" : "=r"(r[5]) : "l"(s));
    asm volatile("suq.width.b32 %0, [%1];" : "=r"(r[6]) : "l"(s));
    asm volatile("suq.height.b32 %0, [%1];" : "=r"(r[7]) : "l"(s));
  } else {
    r[4] = r[5] = r[6] = r[7] = -1;
  }
  for (int i = 0; i < 8; ++i) out[i] = r[i];
#endif
}

void sectionTxq(Rng&) {
  int* dout;
  CHECK(cudaMalloc(&dout, 8 * sizeof(int)));
  for (const Format f : allFormats())
    for (int read = 0; read < 2; ++read) {
      if (read == 1 && (f.kind == kU32 || f.kind == kS32 || f.kind == kF16 || f.kind == kF32))
        continue;
      for (int geom = 0; geom < 3; ++geom) {
        const Shape& s = kShapes[geom];
        cudaArray_t arr = makeArray(f, s.w, s.h, s.d, cudaArraySurfaceLoadStore);
        cudaResourceDesc r = {};
        r.resType = cudaResourceTypeArray;
        r.res.array.array = arr;
        cudaTextureDesc td = {};
        td.readMode = read ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
        cudaTextureObject_t t = 0;
        CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
        const cudaSurfaceObject_t so = surfaceOf(arr);
        queries<<<1, 1>>>(t, so, dout);
        const std::string what = "txq " + nameOf(f) + " " + s.name + (read ? " norm" : " elem");
        if (!sync(what.c_str())) std::exit(1);
        int v[8];
        CHECK(cudaMemcpy(v, dout, sizeof v, cudaMemcpyDeviceToHost));
        std::printf(
            "%s = data_type %d order %d samples %d levels %d suq data_type %d order %d "
            "width %d height %d\n",
            what.c_str(), v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        CHECK(cudaDestroyTextureObject(t));
        CHECK(cudaDestroySurfaceObject(so));
        CHECK(cudaFreeArray(arr));
      }
    }
  CHECK(cudaFree(dout));
}

// ---- tex.base and the multisample geometries ------------------------------------------------

__global__ void baseFetch(cudaTextureObject_t t, const float4* c, int n, float4* out) {
#if SECTION_BASE
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 r, p;
  asm volatile("tex.base.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
               : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)
               : "l"(t), "f"(c[i].x), "f"(c[i].y));
  asm volatile("tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
               : "=f"(p.x), "=f"(p.y), "=f"(p.z), "=f"(p.w)
               : "l"(t), "f"(c[i].x), "f"(c[i].y));
  out[2 * i] = r;
  out[2 * i + 1] = p;
#endif
}

// A mipmapped 2-d f32 x 4 texture of 32 x 16, 6 levels, level l's texels l + a fraction.
cudaMipmappedArray_t mip2d(Rng& rng) {
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
  cudaMipmappedArray_t m;
  CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(32, 16, 0), 6, 0));
  for (unsigned l = 0; l < 6; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    const unsigned w = std::max(1u, 32u >> l), h = std::max(1u, 16u >> l);
    std::vector<uint8_t> v(size_t(w) * h * 16);
    for (size_t i = 0; i < v.size() / 4; ++i) {
      const float f = float(8 * l) + float(rng.next() >> 8) * 0x1p-24f;
      std::memcpy(&v[4 * i], &f, 4);
    }
    copyArray(a, v, 16, w, h, 0, true);
  }
  return m;
}

// txq.level: a mip level's width and height (and depth) at levels -1 .. 7 of 6.
__global__ void levelQueries(cudaTextureObject_t t, int* out) {
#if SECTION_BASE
  const int l = int(threadIdx.x) - 1;
  int w, h, d;
  asm volatile("txq.level.width.b32 %0, [%1], %2;" : "=r"(w) : "l"(t), "r"(l));
  asm volatile("txq.level.height.b32 %0, [%1], %2;" : "=r"(h) : "l"(t), "r"(l));
  asm volatile("txq.level.depth.b32 %0, [%1], %2;" : "=r"(d) : "l"(t), "r"(l));
  out[3 * threadIdx.x] = w;
  out[3 * threadIdx.x + 1] = h;
  out[3 * threadIdx.x + 2] = d;
#endif
}

void sectionBase(Rng& rng) {
  cudaMipmappedArray_t m = mip2d(rng);
  struct Obj {
    const char* name;
    cudaTextureFilterMode filter, mipFilter;
    float bias, minClamp, maxClamp;
  } objs[] = {{"Bp", cudaFilterModePoint, cudaFilterModePoint, 0, 0, 5},
              {"Bl", cudaFilterModeLinear, cudaFilterModeLinear, 1.5f, 0, 5},
              {"Bc", cudaFilterModeLinear, cudaFilterModePoint, 0, 2, 4}};
  std::vector<float4> in;
  for (int i = 0; i < 24; ++i)
    in.push_back(make_float4(rng.uniform(-0.2f, 1.2f), rng.uniform(-0.2f, 1.2f), 0, 0));
  for (const Obj& o : objs) {
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    for (int a = 0; a < 3; ++a) td.addressMode[a] = cudaAddressModeClamp;
    td.filterMode = o.filter;
    td.normalizedCoords = 1;
    td.mipmapFilterMode = o.mipFilter;
    td.mipmapLevelBias = o.bias;
    td.minMipmapLevelClamp = o.minClamp;
    td.maxMipmapLevelClamp = o.maxClamp;
    cudaTextureObject_t t = 0;
    const cudaError_t e = cudaCreateTextureObject(&t, &res, &td, nullptr);
    std::printf("texture %s 2d 32x16 levels=6 filter=%d mip=%d bias=%a min=%a max=%a: %s\n", o.name,
                int(o.filter), int(o.mipFilter), o.bias, o.minClamp, o.maxClamp,
                cudaGetErrorString(e));
    if (e != cudaSuccess) continue;
    float4 *dc, *dout;
    const int n = int(in.size());
    CHECK(cudaMalloc(&dc, n * sizeof(float4)));
    CHECK(cudaMalloc(&dout, 2 * n * sizeof(float4)));
    CHECK(cudaMemcpy(dc, in.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    baseFetch<<<1, n>>>(t, dc, n, dout);
    if (!sync(o.name)) std::exit(1);
    std::vector<float4> out(2 * n);
    CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      uint32_t b[4], p[4];
      std::memcpy(b, &out[2 * i], 16);
      std::memcpy(p, &out[2 * i + 1], 16);
      std::printf("%s base %a %a = %08x %08x %08x %08x tex = %08x %08x %08x %08x\n", o.name,
                  in[i].x, in[i].y, b[0], b[1], b[2], b[3], p[0], p[1], p[2], p[3]);
    }
    int* dq;
    CHECK(cudaMalloc(&dq, 9 * 3 * sizeof(int)));
    levelQueries<<<1, 9>>>(t, dq);
    if (!sync("txq.level")) std::exit(1);
    int q[27];
    CHECK(cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 9; ++l)
      std::printf("%s txq.level %d = width %d height %d depth %d\n", o.name, l - 1, q[3 * l],
                  q[3 * l + 1], q[3 * l + 2]);
    cudaFree(dq);
    cudaFree(dc);
    cudaFree(dout);
    CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFreeMipmappedArray(m));
}

__global__ void msFetch(cudaTextureObject_t t, bool layered, const int4* c, int n, uint4* out,
                        int* samples) {
#if SECTION_MS
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint4 r;
  if (layered)
    asm volatile("tex.a2dms.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(t), "r"(c[i].x), "r"(c[i].y), "r"(c[i].z), "r"(c[i].w));
  else
    asm volatile("tex.2dms.v4.u32.s32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
                 : "l"(t), "r"(c[i].x), "r"(c[i].y), "r"(c[i].z), "r"(c[i].w));
  out[i] = r;
  if (i == 0) asm volatile("txq.num_samples.b32 %0, [%1];" : "=r"(*samples) : "l"(t));
#endif
}

// tex.2dms / tex.a2dms on ordinary 2-d and layered textures of u32 x 4 (texel = its place):
// which coordinate the chip reads as the sample, the layer and x, y.
void sectionMs(Rng& rng) {
  for (int layered = 0; layered < 2; ++layered) {
    const Format f = {kU32, 4};
    const unsigned w = 8, h = 4, layers = layered ? 3 : 0;
    cudaArray_t arr = makeArray(f, w, h, layers, layered ? cudaArrayLayered : 0);
    std::vector<uint8_t> host(size_t(w) * h * (layers ? layers : 1) * 16);
    for (size_t i = 0; i < host.size() / 4; ++i) {
      const uint32_t v = uint32_t(i / 4) * 16 + uint32_t(i % 4);
      std::memcpy(&host[4 * i], &v, 4);
    }
    copyArray(arr, host, 16, w, h, layers, true);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaTextureDesc td = {};
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    std::vector<int4> in;
    for (int i = 0; i < 24; ++i)
      in.push_back(make_int4(int(rng.next() % 4), int(rng.next() % 4), int(rng.next() % 8),
                             int(rng.next() % 4)));
    in.push_back(make_int4(0, 0, 9, 1));
    in.push_back(make_int4(1, 2, -1, 5));
    int4* dc;
    uint4* dout;
    int* ds;
    const int n = int(in.size());
    CHECK(cudaMalloc(&dc, n * sizeof(int4)));
    CHECK(cudaMalloc(&dout, n * sizeof(uint4)));
    CHECK(cudaMalloc(&ds, sizeof(int)));
    CHECK(cudaMemcpy(dc, in.data(), n * sizeof(int4), cudaMemcpyHostToDevice));
    msFetch<<<1, n>>>(t, layered, dc, n, dout, ds);
    const char* name = layered ? "ms a2dms" : "ms 2dms";
    if (sync(name)) {
      std::vector<uint4> out(n);
      int samples;
      CHECK(cudaMemcpy(out.data(), dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&samples, ds, sizeof samples, cudaMemcpyDeviceToHost));
      std::printf("%s num_samples = %d\n", name, samples);
      for (int i = 0; i < n; ++i)
        std::printf("%s %d %d %d %d = %08x %08x %08x %08x\n", name, in[i].x, in[i].y, in[i].z,
                    in[i].w, out[i].x, out[i].y, out[i].z, out[i].w);
    } else {
      std::exit(1);
    }
    cudaFree(dc);
    cudaFree(dout);
    cudaFree(ds);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(arr));
  }
}

// ---- tld4 on cube maps ----------------------------------------------------------------------

__global__ void tld4Cube(cudaTextureObject_t t, bool layered, const CubeSample* s, int n,
                         uint4* out) {
#if SECTION_TLD4CUBE
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const CubeSample q = s[i];
  uint4 r[4];
  if (layered) {
#define TLD4_ACUBE(C, K)                                                               \
  asm volatile("tld4." C ".acube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}];" \
               : "=r"(r[K].x), "=r"(r[K].y), "=r"(r[K].z), "=r"(r[K].w)                \
               : "l"(t), "r"(q.layer), "f"(q.c[0]), "f"(q.c[1]), "f"(q.c[2]))
    TLD4_ACUBE("r", 0);
    TLD4_ACUBE("g", 1);
    TLD4_ACUBE("b", 2);
    TLD4_ACUBE("a", 3);
  } else {
#define TLD4_CUBE(C, K)                                                               \
  asm volatile("tld4." C ".cube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %7}];" \
               : "=r"(r[K].x), "=r"(r[K].y), "=r"(r[K].z), "=r"(r[K].w)               \
               : "l"(t), "f"(q.c[0]), "f"(q.c[1]), "f"(q.c[2]))
    TLD4_CUBE("r", 0);
    TLD4_CUBE("g", 1);
    TLD4_CUBE("b", 2);
    TLD4_CUBE("a", 3);
  }
  for (int k = 0; k < 4; ++k) out[4 * i + k] = r[k];
#endif
}

// tld4 (texCubemap's gather: the four texels of the bilinear footprint) on a cube map and a
// cube-map array of f32 x 4, at the cube directions, with and without seamless filtering.
void sectionTld4Cube(Rng& rng) {
  for (unsigned cubes : {1u, 2u}) {
    const unsigned size = 8, layers = 6 * cubes;
    cudaArray_t arr;
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
    CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(size, size, layers),
                            cudaArrayCubemap | (cubes > 1 ? cudaArrayLayered : 0)));
    std::vector<uint8_t> all;
    for (unsigned k = 0; k < layers; ++k) {
      const std::vector<uint8_t> one = cubeTexels(0, k, size, rng);
      all.insert(all.end(), one.begin(), one.end());
    }
    copyArray(arr, all, 16, size, size, layers, true);
    std::vector<CubeSample> in;
    for (CubeSample q : cubeDirections(rng))
      for (int layer = cubes > 1 ? -1 : 0; layer <= (cubes > 1 ? int(cubes) : 0); ++layer) {
        q.layer = layer;
        in.push_back(q);
      }
    for (int seamless = 0; seamless < 2; ++seamless) {
      cudaResourceDesc res = {};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = arr;
      cudaTextureDesc td = {};
      td.filterMode = cudaFilterModeLinear;
      td.normalizedCoords = 1;
      td.seamlessCubemap = seamless;
      cudaTextureObject_t t = 0;
      CHECK(cudaCreateTextureObject(&t, &res, &td, nullptr));
      const int n = int(in.size());
      CubeSample* ds;
      uint4* dout;
      CHECK(cudaMalloc(&ds, n * sizeof(CubeSample)));
      CHECK(cudaMalloc(&dout, 4 * n * sizeof(uint4)));
      CHECK(cudaMemcpy(ds, in.data(), n * sizeof(CubeSample), cudaMemcpyHostToDevice));
      tld4Cube<<<1, n>>>(t, cubes > 1, ds, n, dout);
      const std::string what = std::string("tld4 ") + (cubes > 1 ? "acube" : "cube") +
                               (seamless ? " seamless" : " faces");
      if (!sync(what.c_str())) std::exit(1);
      std::vector<uint4> out(4 * n);
      CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(uint4), cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; ++i) {
        std::printf("%s %a %a %a layer %d =", what.c_str(), in[i].c[0], in[i].c[1], in[i].c[2],
                    in[i].layer);
        for (int k = 0; k < 4; ++k)
          std::printf(" %08x %08x %08x %08x", out[4 * i + k].x, out[4 * i + k].y, out[4 * i + k].z,
                      out[4 * i + k].w);
        std::printf("\n");
      }
      cudaFree(ds);
      cudaFree(dout);
      CHECK(cudaDestroyTextureObject(t));
    }
    CHECK(cudaFreeArray(arr));
  }
}

// ---- sust.p on the normalized array formats (UNORM / SNORM 8 and 16 bits) -------------------

// cudaChannelFormatKind{Uns,S}ignedNormalized{8,16}X{1,2,4}, in the order the recordings list
// them (sustnorm: every row; normread: the 1- and 4-channel ones).
struct NormFormat {
  const char* name;
  cudaChannelFormatKind kind;
  Kind storage;  // the channel's bytes and signedness
  unsigned channels;
};
const NormFormat kNormFormats[] = {
    {"unorm8x1", cudaChannelFormatKindUnsignedNormalized8X1, kU8, 1},
    {"unorm8x2", cudaChannelFormatKindUnsignedNormalized8X2, kU8, 2},
    {"unorm8x4", cudaChannelFormatKindUnsignedNormalized8X4, kU8, 4},
    {"snorm8x1", cudaChannelFormatKindSignedNormalized8X1, kS8, 1},
    {"snorm8x4", cudaChannelFormatKindSignedNormalized8X4, kS8, 4},
    {"unorm16x1", cudaChannelFormatKindUnsignedNormalized16X1, kU16, 1},
    {"unorm16x2", cudaChannelFormatKindUnsignedNormalized16X2, kU16, 2},
    {"unorm16x4", cudaChannelFormatKindUnsignedNormalized16X4, kU16, 4},
    {"snorm16x1", cudaChannelFormatKindSignedNormalized16X1, kS16, 1},
    {"snorm16x4", cudaChannelFormatKindSignedNormalized16X4, kS16, 4}};

// A 1-d array of `w` texels of `nf`, its creation's status on an `array` line. A machine that
// lacks the format says so there, and the caller goes on to the next.
bool normArray(const NormFormat& nf, unsigned w, unsigned flags, cudaArray_t* arr) {
  const int bits = int(channelBytes(nf.storage)) * 8;
  const cudaChannelFormatDesc desc =
      cudaCreateChannelDesc(bits, nf.channels > 1 ? bits : 0, nf.channels > 2 ? bits : 0,
                            nf.channels > 3 ? bits : 0, nf.kind);
  const cudaError_t e = cudaMalloc3DArray(arr, &desc, make_cudaExtent(w, 0, 0), flags);
  std::printf("array %s: %s\n", nf.name, cudaGetErrorString(e));
  if (e == cudaSuccess) return true;
  cudaGetLastError();
  return false;
}

// The formats sust.p converts f32 to.
void sectionSustNorm(Rng& rng) {
  const unsigned w = 16;
  for (const NormFormat& nf : kNormFormats) {
    cudaArray_t arr;
    if (!normArray(nf, w, cudaArraySurfaceLoadStore, &arr)) continue;
    const unsigned tb = channelBytes(nf.storage) * nf.channels;
    std::vector<uint8_t> host(size_t(w) * tb, 0xa5);
    copyArray(arr, host, tb, w, 0, 0, true);
    const cudaSurfaceObject_t so = surfaceOf(arr);
    // Values across [-1.5, 1.5], the 8- and 16-bit steps' ties, and the special values.
    std::vector<int4> at;
    std::vector<uint4> data;
    for (unsigned i = 0; i < w; ++i) {
      at.push_back(make_int4(int(i), 0, 0, 0));
      uint32_t v[4];
      for (unsigned c = 0; c < 4; ++c) {
        const uint32_t pick = rng.next() % 4;
        const float steps = nf.storage == kU8 || nf.storage == kS8 ? 255.0f : 65535.0f;
        static const float special[] = {0.0f, -0.0f, 1.0f,  -1.0f,  kInf, -kInf,
                                        kNaN, 2.0f,  -2.0f, 1e-30f, 0.5f, -0.5f};
        const float f = pick == 0   ? special[rng.next() % 12]
                        : pick == 1 ? (float(rng.next() % 512) + 0.5f) / steps
                                    : rng.uniform(-1.5f, 1.5f);
        v[c] = bitsOf(f);
      }
      data.push_back(make_uint4(v[0], v[1], v[2], v[3]));
    }
    int4* dat;
    uint4* dd;
    CHECK(cudaMalloc(&dat, w * sizeof(int4)));
    CHECK(cudaMalloc(&dd, w * sizeof(uint4)));
    CHECK(cudaMemcpy(dat, at.data(), w * sizeof(int4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dd, data.data(), w * sizeof(uint4), cudaMemcpyHostToDevice));
    sustP<<<1, w>>>(so, 0, 2, 0, dat, dd, int(w));
    if (!sync(nf.name)) std::exit(1);
    copyArray(arr, host, tb, w, 0, 0, false);
    for (unsigned i = 0; i < w; ++i)
      std::printf("sustnorm %s elem %u in %08x %08x %08x %08x = %s\n", nf.name, i, data[i].x,
                  data[i].y, data[i].z, data[i].w, hexBytes(&host[size_t(i) * tb], tb).c_str());
    cudaFree(dat);
    cudaFree(dd);
    cudaDestroySurfaceObject(so);
    cudaFreeArray(arr);
  }
}

// ---- tex.grad's footprint arithmetic: the level of detail read directly ----------------------

__global__ void gradLod(cudaTextureObject_t t, const float4* g, int n, float* out) {
#if SECTION_GRADLOD
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 q = g[i];
  out[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(q.x, q.y), make_float2(q.z, q.w));
#endif
}

// The arithmetic of tex.grad's level of detail (docs/FIDELITY.md "tex.grad's level of detail"
// and "tex.grad on cube maps": 1 or 2/256 off on about 5% of the fitted lines, 2-d and cube
// alike), read directly: a 256 x 256 f32 texture of 9 levels whose every texel of level k holds
// k, linear filtering and linear mip filtering, so a fetch returns the level of detail itself
// (k + the blend weight, clamped to [0, 8]). Gradients in texels (the operands are texels / 256):
//   log2  d/dx (r, 0), d/dy 0, r = 2 (1 + (i + f) / 256), i = 0 .. 255, f = 0, 1/8, 1/2, 7/8,
//         and r = 8 (1 + (i + f) / 256) for i < 16: the log2 table, entry by entry, and whether
//         bits past the eighth count;
//   par   d/dx = d/dy = (a, 0), a = 2^(j / 512), j = 0 .. 511: the diagonal (sum) of parallel
//         gradients, 11/16 of 2a in the fit, whose factor the probes imply from 1.3697 to 1.3789;
//   perp  d/dx (a, 0), d/dy (0, a), a = 2^(j / 256) 2, j = 0 .. 255: the diagonal of a
//         two-component sum (11/16 of a (1 + 87/256) in the fit);
//   mid   d/dx (2, 2 k / 256), d/dy 0, k = 0 .. 256: the middle component's share (87/256).
//   gradlod SWEEP ddx a b ddy c d = word      (the operands in %a, the result word in hex)
void sectionGradLod(Rng&) {
  const unsigned size = 256, levels = 9;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  CHECK(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(size, size, 0), levels));
  for (unsigned l = 0; l < levels; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    const unsigned s = std::max(1u, size >> l);
    std::vector<uint8_t> host(size_t(s) * s * 4);
    const float v = float(l);
    for (size_t i = 0; i < host.size(); i += 4) std::memcpy(&host[i], &v, 4);
    copyArray(a, host, 4, s, s, 0, true);
  }
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = m;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = float(levels - 1);
  cudaTextureObject_t t = 0;
  const cudaError_t e = cudaCreateTextureObject(&t, &res, &td, nullptr);
  std::printf("texture gradlod 2d %ux%u levels=%u linear/linear: %s\n", size, size, levels,
              cudaGetErrorString(e));
  if (e != cudaSuccess) return;
  std::vector<float4> in;
  std::vector<const char*> sweep;
  const float texel = 1.0f / size;
  auto add = [&](const char* what, float x0, float x1, float y0, float y1) {
    in.push_back(make_float4(x0 * texel, x1 * texel, y0 * texel, y1 * texel));
    sweep.push_back(what);
  };
  for (float scale : {2.0f, 8.0f})
    for (int i = 0; i < (scale == 2.0f ? 256 : 16); ++i)
      for (float f : {0.0f, 0.125f, 0.5f, 0.875f})
        add("log2", scale * (1 + (float(i) + f) / 256), 0, 0, 0);
  for (int j = 0; j < 512; ++j) {
    const float a = std::exp2(float(j) / 512);
    add("par", a, 0, a, 0);
  }
  for (int j = 0; j < 256; ++j) {
    const float a = 2 * std::exp2(float(j) / 256);
    add("perp", a, 0, 0, a);
  }
  for (int k = 0; k <= 256; ++k) add("mid", 2, 2 * float(k) / 256, 0, 0);
  const int n = int(in.size());
  float4* dg;
  float* dout;
  CHECK(cudaMalloc(&dg, n * sizeof(float4)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(dg, in.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  gradLod<<<(n + 127) / 128, 128>>>(t, dg, n, dout);
  if (!sync("gradlod")) std::exit(1);
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    uint32_t w;
    std::memcpy(&w, &out[i], 4);
    std::printf("gradlod %s ddx %a %a ddy %a %a = %08x\n", sweep[i], in[i].x, in[i].y, in[i].z,
                in[i].w, w);
  }
  CHECK(cudaFree(dg));
  CHECK(cudaFree(dout));
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeMipmappedArray(m));
}

// ---- tex.grad's level of detail on cube maps, read directly ---------------------------------

__global__ void cubeGradLod(cudaTextureObject_t t, const CubeSample* s, int n, float* out) {
#if SECTION_CUBEGRADLOD || SECTION_CUBEROT
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const CubeSample q = s[i];
  const float4 dx = make_float4(q.ddx[0], q.ddx[1], q.ddx[2], 0);
  const float4 dy = make_float4(q.ddy[0], q.ddy[1], q.ddy[2], 0);
  out[i] = texCubemapGrad<float>(t, q.c[0], q.c[1], q.c[2], dx, dy);
#endif
}

// gradlod's sweeps on a cube map (docs/FIDELITY.md "tex.grad on cube maps": what is left of
// cubegrad is the cube's own arithmetic, 1/256 off on lines whose samples cross a face or whose
// diagonal wins). An f32 cube map of n x n faces and log2 n + 1 levels whose every texel of
// level k holds k on every face, linear filtering and linear mip filtering, so a fetch returns
// the level of detail (k + the blend weight, clamped to [0, log2 n]). On face +z at z = 1 a
// texel is 2 / n of the direction's x (or y), so each gradient below moves its sample by the
// texels it names:
//   log2  from +z's centre, d/dx (r, 0), d/dy 0, r = 2 (1 + (i + f) / 256), i = 0 .. 255,
//         f = 0, 1/2: the log2 table, as the 2-d texture's?
//   par   from +z's centre, d/dx = d/dy = (a, 0), a = 2^(j / 512), j = 0 .. 511: the diagonal
//         of sample differences, rounded (as a 2-d texture's) or truncated?
//   mid   from +z's centre, d/dx (2, k / 128), d/dy 0, k = 0 .. 256: the middle share;
//   rot   from +z's centre, d/dx = d/dy = (a, a / 2), a = 2^(j / 256), j = 0 .. 255: a
//         diagonal of two components;
//   pars  par from (0.3, -0.2, 1.5) (ma 1.5: the samples' division), a = 1.5 2^(j / 512):
//         the sample moves 2^(j / 512) texels;
//   edge  from (1 - t texels, y, 1) on +z, d/dx (t + c, 0), d/dy 0, c = 4 (j + 1) / 512 texels,
//         j = 0 .. 511, for (t, y) = (1, 0), (2.5, 0) and (1.5, 0.25): the sample crosses onto
//         +x and is unfolded back (2 - z / x past the edge, y / x along it): the unfolding's
//         rounding.
// Lines: `GLn SWEEP x y z ddx a b c ddy a b c = word` (the operands in %a, the result in hex).
// The lod cube of n x n faces (above) and its texture object; false (said on its line) when the
// driver refuses it.
struct LodCube {
  cudaMipmappedArray_t array = nullptr;
  cudaTextureObject_t tex = 0;
  char name[16] = {};
};

bool makeLodCube(unsigned size, LodCube& c) {
  unsigned levels = 1;
  while ((size >> (levels - 1)) > 1) ++levels;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaMallocMipmappedArray(&c.array, &desc, make_cudaExtent(size, size, 6), levels,
                                 cudaArrayCubemap));
  for (unsigned l = 0; l < levels; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, c.array, l));
    const unsigned s = std::max(1u, size >> l);
    std::vector<uint8_t> host(size_t(s) * s * 6 * 4);
    const float v = float(l);
    for (size_t i = 0; i < host.size(); i += 4) std::memcpy(&host[i], &v, 4);
    copyArray(a, host, 4, s, s, 6, true);
  }
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = c.array;
  cudaTextureDesc td = {};
  for (int a = 0; a < 3; ++a) td.addressMode[a] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.mipmapFilterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  td.maxMipmapLevelClamp = float(levels - 1);
  const cudaError_t e = cudaCreateTextureObject(&c.tex, &res, &td, nullptr);
  std::snprintf(c.name, sizeof c.name, "GL%u", size);
  std::printf("texture %s cube %ux%u levels=%u linear/linear: %s\n", c.name, size, size, levels,
              cudaGetErrorString(e));
  return e == cudaSuccess;
}

void freeLodCube(LodCube& c) {
  if (c.tex) CHECK(cudaDestroyTextureObject(c.tex));
  CHECK(cudaFreeMipmappedArray(c.array));
}

// Fetches every sample of `in` from the lod cube in one launch and prints its line
// (`GLn SWEEP x y z ddx a b c ddy a b c = word`, sweep[i] naming sample i's sweep).
void printCubeLods(const LodCube& c, const std::vector<CubeSample>& in,
                   const std::vector<const char*>& sweep) {
  const int n = int(in.size());
  CubeSample* ds;
  float* dout;
  CHECK(cudaMalloc(&ds, n * sizeof(CubeSample)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(ds, in.data(), n * sizeof(CubeSample), cudaMemcpyHostToDevice));
  cubeGradLod<<<(n + 127) / 128, 128>>>(c.tex, ds, n, dout);
  if (!sync(c.name)) std::exit(1);
  std::vector<float> out(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const CubeSample& q = in[i];
    std::printf("%s %s %a %a %a ddx %a %a %a ddy %a %a %a = %08x\n", c.name, sweep[i], q.c[0],
                q.c[1], q.c[2], q.ddx[0], q.ddx[1], q.ddx[2], q.ddy[0], q.ddy[1], q.ddy[2],
                bitsOf(out[i]));
  }
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dout));
}

void cubeGradLodSuite(unsigned size) {
  LodCube c;
  if (!makeLodCube(size, c)) {
    freeLodCube(c);
    return;
  }
  std::vector<CubeSample> in;
  std::vector<const char*> sweep;
  const float texel = 2.0f / float(size);
  auto add = [&](const char* what, float px, float py, float x0, float x1, float y0, float y1) {
    CubeSample q = {};
    q.c[0] = px, q.c[1] = py, q.c[2] = 1;
    q.ddx[0] = x0 * texel, q.ddx[1] = x1 * texel;
    q.ddy[0] = y0 * texel, q.ddy[1] = y1 * texel;
    in.push_back(q);
    sweep.push_back(what);
  };
  for (int i = 0; i < 256; ++i)
    for (float f : {0.0f, 0.5f}) add("log2", 0, 0, 2 * (1 + (float(i) + f) / 256), 0, 0, 0);
  for (int j = 0; j < 512; ++j) {
    const float a = std::exp2(float(j) / 512);
    add("par", 0, 0, a, 0, a, 0);
  }
  for (int k = 0; k <= 256; ++k) add("mid", 0, 0, 2, float(k) / 128, 0, 0);
  for (int j = 0; j < 256; ++j) {
    const float a = std::exp2(float(j) / 256);
    add("rot", 0, 0, a, a / 2, a, a / 2);
  }
  for (int j = 0; j < 512; ++j) {
    const float a = 1.5f * std::exp2(float(j) / 512);
    in.push_back({{0.3f, -0.2f, 1.5f}, {a * texel, 0, 0}, {a * texel, 0, 0}, 0});
    sweep.push_back("pars");
  }
  const float starts[][2] = {{1, 0}, {2.5f, 0}, {1.5f, 0.25f}};
  for (const auto& st : starts)
    for (int j = 0; j < 512; ++j)
      add("edge", 1 - st[0] * texel, st[1], st[0] + 4 * float(j + 1) / 512, 0, 0, 0);
  printCubeLods(c, in, sweep);
  freeLodCube(c);
}

void sectionCubeGradLod(Rng&) {
  for (unsigned size : {256u, 16u, 8u}) cubeGradLodSuite(size);
}

// The two-component diagonal's middle term at fixed lengths (docs/FIDELITY.md "tex.grad on cube
// maps: a finer log2": rot's middle term B(m) is non-decreasing in the middle component m but
// neither linear nor on a grid; rot varies l and m together, these hold l). On GL256 (as
// cubegradlod), from +z's centre, for a = 2^(i / 3) 4^j texels, i = 1 .. 3, j = 0 .. 2, and
// b = a k / 256, k = 0 .. 256:
//   rotm  d/dx = d/dy = (a, b): the diagonal (2a, 2b) wins, so each line reads 11/16 of its
//         largest plus B(2b);
//   midm  d/dx (a, b), d/dy 0: a single gradient's middle share at the same points.
// Lines as cubegradlod's: `GL256 SWEEP x y z ddx a b c ddy a b c = word`.
void sectionCubeRot(Rng&) {
  LodCube c;
  if (!makeLodCube(256, c)) {
    freeLodCube(c);
    return;
  }
  const float texel = 2.0f / 256;
  std::vector<CubeSample> in;
  std::vector<const char*> sweep;
  for (const char* what : {"rotm", "midm"})
    for (const float scale : {1.0f, 4.0f, 16.0f})
      for (int i = 1; i <= 3; ++i) {
        const float a = std::exp2(float(i) / 3) * scale;
        for (int k = 0; k <= 256; ++k) {
          const float b = a * float(k) / 256;
          const bool diagonal = what[0] == 'r';
          CubeSample q = {};
          q.c[2] = 1;
          q.ddx[0] = a * texel, q.ddx[1] = b * texel;
          if (diagonal) q.ddy[0] = a * texel, q.ddy[1] = b * texel;
          in.push_back(q);
          sweep.push_back(what);
        }
      }
  printCubeLods(c, in, sweep);
  freeLodCube(c);
}

// ---- tex on the normalized array formats (UNORM / SNORM 8 and 16 bits) -----------------------

__global__ void normRead(cudaTextureObject_t t, bool asInt, const float* xs, int n, uint4* out) {
#if SECTION_NORMREAD
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (asInt) {
    const int4 r = tex1D<int4>(t, xs[i]);
    out[i] = make_uint4(r.x, r.y, r.z, r.w);
  } else {
    const float4 r = tex1D<float4>(t, xs[i]);
    out[i] = make_uint4(__float_as_uint(r.x), __float_as_uint(r.y), __float_as_uint(r.z),
                        __float_as_uint(r.w));
  }
#endif
}

// What a texture fetch of a normalized-format array returns (CUDA's rule: floats in [0, 1] or
// [-1, 1] whatever the read mode; not measured: the sustnorm section only stores). A 1-d array
// of 256 texels per format: 8-bit channels hold every code (channel c of texel i: i + 64 c),
// 16-bit ones the edges (0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, ...) in their first texels, then
// random codes. Each is read through point and linear filtering, element-type and
// normalized-float read modes (an object the driver refuses says so on its line), as float4
// (tex.1d.v4.f32) and, point-filtered, as int4 (tex.1d.v4.s32): point at every texel centre,
// linear at every midpoint between neighbours and 64 random coordinates.
//   normtexel FMT I = BYTES                         the texel's bytes (memory order)
//   texture normread FMT FILTER READ: STATUS        each object's creation
//   normread FMT FILTER READ RET X = r g b a        one fetch (result words in hex)
void sectionNormRead(Rng& rng) {
  const unsigned w = 256;
  static const uint16_t edges16[] = {0,      1,      2,      0x00ff, 0x0100, 0x3fff,
                                     0x4000, 0x7f00, 0x7ffe, 0x7fff, 0x8000, 0x8001,
                                     0x8002, 0xc000, 0xfffe, 0xffff};
  for (const NormFormat& nf : kNormFormats) {
    if (nf.channels == 2) continue;
    const unsigned cb = channelBytes(nf.storage), tb = cb * nf.channels;
    cudaArray_t arr;
    if (!normArray(nf, w, 0, &arr)) continue;
    std::vector<uint8_t> host(size_t(w) * tb);
    for (unsigned i = 0; i < w; ++i)
      for (unsigned c = 0; c < nf.channels; ++c) {
        uint8_t* p = &host[size_t(i) * tb + c * cb];
        if (cb == 1) {
          p[0] = uint8_t(i + 64 * c);
        } else {
          const unsigned k = i + 4 * c;
          const uint16_t v = k < 16 ? edges16[k] : uint16_t(rng.next());
          p[0] = uint8_t(v), p[1] = uint8_t(v >> 8);
        }
      }
    copyArray(arr, host, tb, w, 0, 0, true);
    for (unsigned i = 0; i < w; ++i)
      std::printf("normtexel %s %u = %s\n", nf.name, i,
                  hexBytes(&host[size_t(i) * tb], tb).c_str());
    std::vector<float> centres, between;
    for (unsigned i = 0; i < w; ++i) centres.push_back(float(i) + 0.5f);
    for (unsigned i = 1; i < w; ++i) between.push_back(float(i));
    for (int k = 0; k < 64; ++k) between.push_back(rng.uniform(0.0f, float(w)));
    for (const cudaTextureFilterMode filter : {cudaFilterModePoint, cudaFilterModeLinear})
      for (const cudaTextureReadMode read :
           {cudaReadModeElementType, cudaReadModeNormalizedFloat}) {
        const char* fname = filter == cudaFilterModePoint ? "point" : "linear";
        const char* rname = read == cudaReadModeElementType ? "element" : "normalized";
        cudaResourceDesc res = {};
        res.resType = cudaResourceTypeArray;
        res.res.array.array = arr;
        cudaTextureDesc td = {};
        td.addressMode[0] = cudaAddressModeClamp;
        td.filterMode = filter;
        td.readMode = read;
        cudaTextureObject_t t = 0;
        const cudaError_t te = cudaCreateTextureObject(&t, &res, &td, nullptr);
        std::printf("texture normread %s %s %s: %s\n", nf.name, fname, rname,
                    cudaGetErrorString(te));
        if (te != cudaSuccess) {
          cudaGetLastError();
          continue;
        }
        const std::vector<float>& xs = filter == cudaFilterModePoint ? centres : between;
        for (const bool asInt : {false, true}) {
          if (asInt && filter != cudaFilterModePoint) continue;
          const int n = int(xs.size());
          float* dx;
          uint4* dout;
          CHECK(cudaMalloc(&dx, n * sizeof(float)));
          CHECK(cudaMalloc(&dout, n * sizeof(uint4)));
          CHECK(cudaMemcpy(dx, xs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
          normRead<<<(n + 127) / 128, 128>>>(t, asInt, dx, n, dout);
          const std::string what = std::string("normread ") + nf.name + " " + fname + " " + rname +
                                   (asInt ? " s32" : " f32");
          if (sync(what.c_str())) {
            std::vector<uint4> out(n);
            CHECK(cudaMemcpy(out.data(), dout, n * sizeof(uint4), cudaMemcpyDeviceToHost));
            for (int i = 0; i < n; ++i)
              std::printf("%s %a = %08x %08x %08x %08x\n", what.c_str(), xs[i], out[i].x, out[i].y,
                          out[i].z, out[i].w);
          } else {
            cudaGetLastError();
          }
          cudaFree(dx);
          cudaFree(dout);
        }
        CHECK(cudaDestroyTextureObject(t));
      }
    cudaFreeArray(arr);
  }
}

// ---- independent mode: a module with .texmode_independent and .samplerref samplers ----------

const char kIndependentPtx[] = R"(
.version 8.0
.target sm_90, texmode_independent
.address_size 64
.global .samplerref pointWrap = { addr_mode_0 = wrap, addr_mode_1 = wrap, filter_mode = nearest };
.global .samplerref linearClamp = { addr_mode_0 = clamp_to_edge, addr_mode_1 = clamp_to_edge,
                                    filter_mode = linear };
.global .samplerref linearUnnorm = { addr_mode_0 = clamp_to_border, addr_mode_1 = clamp_to_edge,
                                     filter_mode = linear, force_unnormalized_coords = 1 };
.entry indep(.param .u64 tex, .param .u64 coords, .param .u64 out, .param .u32 n)
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<20>;
  ld.param.u64 %rd1, [tex];
  ld.param.u64 %rd2, [coords];
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p, %r2, %r1;
  @%p ret;
  mul.wide.u32 %rd4, %r2, 8;
  add.s64 %rd5, %rd2, %rd4;
  ld.global.v2.f32 {%f1, %f2}, [%rd5];
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, pointWrap, {%f1, %f2}];
  tex.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [%rd1, linearClamp, {%f1, %f2}];
  tex.2d.v4.f32.f32 {%f11, %f12, %f13, %f14}, [%rd1, linearUnnorm, {%f1, %f2}];
  txq.filter_mode.b32 %r3, [linearClamp];
  txq.addr_mode_0.b32 %r4, [pointWrap];
  txq.force_unnormalized_coords.b32 %r5, [linearUnnorm];
  mul.wide.u32 %rd4, %r2, 64;
  add.s64 %rd6, %rd3, %rd4;
  st.global.v4.f32 [%rd6], {%f3, %f4, %f5, %f6};
  st.global.v4.f32 [%rd6+16], {%f7, %f8, %f9, %f10};
  st.global.v4.f32 [%rd6+32], {%f11, %f12, %f13, %f14};
  st.global.v4.b32 [%rd6+48], {%r3, %r4, %r5, %r1};
  ret;
}
)";

bool driverOk(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  const char* s = nullptr;
  cuGetErrorName(r, &s);
  std::printf("indep %s: %s\n", what, s ? s : "?");
  return false;
}

// The texture object's own sampling is point, clamp, unnormalized coordinates; the samplers
// say otherwise: which one the chip follows for each property.
void sectionIndep(Rng& rng) {
  CHECK(cudaFree(nullptr));  // the runtime's context, current for the driver calls below
  CUmodule mod;
  if (!driverOk(cuModuleLoadData(&mod, kIndependentPtx), "cuModuleLoadData")) return;
  CUfunction fn;
  if (!driverOk(cuModuleGetFunction(&fn, mod, "indep"), "cuModuleGetFunction")) return;
  const Format f = {kF32, 4};
  cudaArray_t arr = makeArray(f, 8, 4, 0, 0);
  std::vector<uint8_t> host(8 * 4 * 16);
  for (size_t i = 0; i < host.size() / 4; ++i) {
    const float v = float(i) + float(rng.next() >> 8) * 0x1p-24f;
    std::memcpy(&host[4 * i], &v, 4);
  }
  copyArray(arr, host, 16, 8, 4, 0, true);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
  std::vector<float2> in;
  for (int i = 0; i < 16; ++i)
    in.push_back(make_float2(rng.uniform(-0.5f, 1.5f), rng.uniform(-0.5f, 1.5f)));
  for (float2 c : {make_float2(2.5f, 1.5f), make_float2(7.75f, 3.25f), make_float2(0.3f, 0.6f)})
    in.push_back(c);
  const unsigned n = unsigned(in.size());
  float2* dc;
  uint32_t* dout;
  CHECK(cudaMalloc(&dc, n * sizeof(float2)));
  CHECK(cudaMalloc(&dout, n * 64));
  CHECK(cudaMemcpy(dc, in.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
  void* args[] = {&t, &dc, &dout, const_cast<unsigned*>(&n)};
  if (driverOk(cuLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, nullptr, args, nullptr), "launch") &&
      sync("indep")) {
    std::vector<uint32_t> out(n * 16);
    CHECK(cudaMemcpy(out.data(), dout, n * 64, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; ++i) {
      std::printf("indep %a %a =", in[i].x, in[i].y);
      for (unsigned k = 0; k < 16; ++k) std::printf(" %08x", out[16 * i + k]);
      std::printf("\n");
    }
  }
  cudaFree(dc);
  cudaFree(dout);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(arr));
  cuModuleUnload(mod);
}

// ---- .trap: an out-of-range formatted store, reduction and unformatted load ----------------

__global__ void sustTrap(cudaSurfaceObject_t s, int x) {
#if SECTION_TRAP_SUST
  asm volatile("sust.p.1d.v4.b32.trap [%0, {%1}], {%2, %2, %2, %2};" ::"l"(s), "r"(x), "r"(7)
               : "memory");
#endif
}
__global__ void suredTrap(cudaSurfaceObject_t s, int x) {
#if SECTION_TRAP_SURED
  asm volatile("sured.p.add.2d.b32.trap [%0, {%1, %3}], %2;" ::"l"(s), "r"(x), "r"(7), "r"(0)
               : "memory");
#endif
}
__global__ void suldTrap(cudaSurfaceObject_t s, int x, uint32_t* out) {
#if SECTION_TRAP_SULD
  uint32_t v;
  asm volatile("suld.b.1d.b32.trap %0, [%1, {%2}];" : "=r"(v) : "l"(s), "r"(x) : "memory");
  *out = v;
#endif
}

void sectionTrap(const std::string& which) {
  cudaArray_t arr =
      makeArray({kU32, 1}, 8, which == "trap-sured" ? 4 : 0, 0, cudaArraySurfaceLoadStore);
  const cudaSurfaceObject_t so = surfaceOf(arr);
  uint32_t* dout;
  CHECK(cudaMalloc(&dout, 4));
  // In range first (it must not trap), then one past the end.
  for (int x : {which == "trap-suld" ? 28 : 7, which == "trap-suld" ? 32 : 9}) {
    if (which == "trap-sust") sustTrap<<<1, 1>>>(so, x);
    if (which == "trap-sured") suredTrap<<<1, 1>>>(so, x);
    if (which == "trap-suld") suldTrap<<<1, 1>>>(so, x, dout);
    std::printf("%s x %d\n", which.c_str(), x);
    if (!sync(which.c_str())) return;  // the context is gone: nothing more to do
  }
  std::printf("%s did not trap\n", which.c_str());
}

void checkCanary() {
  int* d;
  CHECK(cudaMalloc(&d, sizeof(int)));
  CHECK(cudaMemset(d, 0, sizeof(int)));
  textureFormsCanary<<<1, 1>>>(d);
  int v = 0;
  if (sync("canary")) CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  std::printf("canary = %d\n", v);
  cudaFree(d);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string section = argc > 1 ? argv[1] : "";
  Rng rng{argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1};
  std::printf("texture_forms_probe %s seed %llu\n", section.c_str(),
              static_cast<unsigned long long>(rng.s));
  checkCanary();
  if (section == "cubegrad")
    sectionCubeGrad(rng);
  else if (section == "sust")
    sectionSust(rng);
  else if (section == "sured")
    sectionSured(rng);
  else if (section == "suredodd")
    sectionSuredOdd(rng);
  else if (section == "txq")
    sectionTxq(rng);
  else if (section == "base")
    sectionBase(rng);
  else if (section == "tld4cube")
    sectionTld4Cube(rng);
  else if (section == "sustnorm")
    sectionSustNorm(rng);
  else if (section == "ms")
    sectionMs(rng);
  else if (section == "indep")
    sectionIndep(rng);
  else if (section == "normread")
    sectionNormRead(rng);
  else if (section == "gradlod")
    sectionGradLod(rng);
  else if (section == "cubegradlod")
    sectionCubeGradLod(rng);
  else if (section == "cuberot")
    sectionCubeRot(rng);
  else if (section.rfind("trap-", 0) == 0)
    sectionTrap(section);
  else {
    std::printf(
        "usage: %s cubegrad|sust|sustnorm|sured|suredodd|txq|base|tld4cube|ms|indep|trap-sust|"
        "trap-sured|trap-suld|normread|gradlod|cubegradlod|cuberot [SEED]\n",
        argv[0]);
    return 2;
  }
  return 0;
}
