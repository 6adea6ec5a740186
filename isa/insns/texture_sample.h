// Texture sampling as pure arithmetic: which texels a fetch reads (addressing and filtering)
// and what they weigh, and how one texel's channels become the values tex returns. The
// handlers of isa/insns/texture.cpp fetch the texels through the machine; everything that
// decides a result lives here, where the unit tests reach it without a kernel.
//
// The model (CUDA C++ Programming Guide, "Texture Fetching"; what the H200 does beyond it is
// to be pinned by scripts/device_texture.sh, docs/FIDELITY.md "Textures"):
//   - normalized coordinates are truncated to 20 fractional bits (measured) and scaled by the size
//     exactly (u = x * N); wrap takes x - floor(x) first, mirror reflects x about every integer;
//     unnormalized coordinates address wrap and mirror as clamp (the guide supports those two
//     modes only for normalized coordinates)
//   - point: texel floor(u); linear: xB = u - 0.5, i = floor(xB), alpha = frac(xB) held in
//     9-bit fixed point with 8 fractional bits (rounded half up), texels i and i + 1 with
//     weights 1 - alpha and alpha, each index addressed on its own (border: the border color)
//   - the H200 filters a 1-d texture as a 2-d one of height 1 sampled at y = 0, and rounds each
//     product of axis weights to 8 fractional bits (texture_sample.cpp: splitWeights)
//   - the weighted sum of up to 8 texels: filteredChannel (float texels in a 28-bit block, the
//     sum exact, rounded once to f32 or f16 with ties away from zero; normalized integers summed in
//     16-bit fixed point); what is still not fitted is listed in docs/FIDELITY.md "Textures"
#pragma once

#include <array>
#include <cstdint>

#include "isa/insns/texture_object.h"

namespace warpsim::isa::tex {

// A texel index that is outside the texture under border addressing: the border color.
inline constexpr int64_t kBorder = -1;

struct Tap {
  int64_t offset = kBorder;  // bytes from the first texel, or kBorder
  double weight = 0;
};

// The most taps one filtered sum reads: a trilinear 3-d fetch, 8 texels on each of two mipmap
// levels (texture_mipmap.h: blendedFootprint); one level's footprint holds at most 8.
inline constexpr unsigned kMaxTaps = 16;

struct Footprint {
  unsigned n = 0;
  std::array<Tap, kMaxTaps> taps{};
  // Each axis's texel count (1 or 2) and weight of its second texel (of 256), from which a
  // mipmap blend splits a level's share again (splitWeights).
  uint8_t count[3] = {1, 1, 1};
  uint16_t alpha[3] = {0, 0, 0};
  // A seamless cube map's tap past both edges of its face (seamlessCubeFootprint), whose weight
  // goes to the other three taps however the weights are split (cornerWeightToItsNeighbours), or
  // -1.
  int8_t corner = -1;
};

// The combined weights of a footprint's taps (x fastest) in 1/256 units, summing to `total`
// (256 for one level; a mipmap blend gives each level its share), from each axis's texel count
// `n` and second texel's weight `alpha` (of 256). Fitted to the H200: texture_sample.cpp.
void splitWeights(const unsigned n[3], const uint32_t alpha[3], uint32_t total, uint32_t* out);

// A seamless footprint's tap k past both edges of its face (at a cube's corner) reads nothing:
// its weight (of 256, or of a mipmap level's share) goes to the other three taps of `weights`
// (four, x fastest), a third each (texture_sample.cpp).
void cornerWeightToItsNeighbours(unsigned k, uint32_t* weights);

// The filter weight alpha of linear filtering for the fraction `frac` in [0, 1): 9-bit fixed
// point, 8 fractional bits.
double quantizeWeight(double frac);

// The fractional bits the H200 keeps of a normalized coordinate before scaling it by the size:
// truncated to 2^-20 (fitted to tests/recorded/texture/: 18 to 21 bits fit alike, 17 and 22 fewer
// lanes; scripts/fit/texture_filter.py).
inline constexpr unsigned kCoordFractionBits = 20;

// One axis: up to two texel indices (kBorder outside) with their weights.
struct AxisTaps {
  unsigned n = 0;
  int64_t index[2] = {kBorder, kBorder};
  int64_t first = 0;  // the first tap's index before the address mode (seamless cube maps)
  double weight[2] = {0, 0};
};
AxisTaps axisTaps(float x, uint32_t size, Address mode, bool normalized, Filter filter);
AxisTaps axisTapsInt(int32_t i, uint32_t size, Address mode);

// The texels a fetch reads: `coord` has o.dims floats (or `icoord` ints when integerCoords),
// `layer` the array index of a layered texture.
Footprint footprint(const Object& o, const float* coord, const int32_t* icoord, bool integerCoords,
                    uint32_t layer);
// The same written into `out` (its n, count, alpha and first n taps; the taps past n are left
// as they were): a warp's footprints filled in place, without a copy each.
void footprint(const Object& o, const float* coord, const int32_t* icoord, bool integerCoords,
               uint32_t layer, Footprint& out);

// A cube-map direction (x, y, z) as the face it hits (0..5: +x -x +y -y +z -z) and the
// normalized coordinates on that face (CUDA C++ Programming Guide, "Cubemap Textures").
struct CubeCoords {
  uint32_t face = 0;
  float s = 0, t = 0;
};
CubeCoords cubeCoords(float x, float y, float z);

// Linear filtering of a seamless cube map (cudaTextureDesc::seamlessCubemap) at face coordinates
// (s, t) of face `face` of the cube whose first layer is `cubeBase`: a tap past the face's edge
// reads the texel of the face the edge borders, the one whose centre is nearest the direction
// of the tap's own centre (cubeCoords of it). Returns the tap past both edges at a cube's corner
// (its index, whose weight goes to the other three taps), or -1.
int seamlessCubeFootprint(const Object& o, float s, float t, uint32_t cubeBase, uint32_t face,
                          Footprint& f);

// tld4: the 2x2 footprint of bilinear filtering in the order tex2Dgather returns it:
// (i0, j1), (i1, j1), (i1, j0), (i0, j0); weights unused.
Footprint gatherFootprint(const Object& o, float x, float y, uint32_t layer);

// A seamless cube map's gathered tap past both edges of its face, at a cube's corner where no
// fourth texel is: tld4 returns for it the three texels about the corner blended, a third each
// as linear filtering splits that tap's weight (85, 85 and 86 of 256, the face's own texel the
// most; the H200, texture_forms.chip.txt.xz tld4cube; docs/FIDELITY.md "Seamless cube maps"):
// `tap` in tld4's order (-1: none), the other three taps (tld4's order) and their weights of
// 256, summed as filteredChannel sums a footprint.
struct CubeCorner {
  int tap = -1;
  unsigned others[3] = {0, 0, 0};
  uint32_t weights[3] = {0, 0, 0};
};

// tld4 on a cube map (tld4.cube / tld4.acube): the gather footprint at direction (x, y, z) on
// cube `cubeIndex`, on the face the direction hits (clamped at its edges), or across the
// faces' edges as linear filtering reads them when the map is seamless (then `corner` says
// what a tap past both edges reads).
Footprint cubeGatherFootprint(const Object& o, float x, float y, float z, uint32_t cubeIndex,
                              CubeCorner& corner);

// Channel `c` of a texel's bytes as the float tex returns (readNormalized or a float format).
float channelAsFloat(const Object& o, const uint8_t* texel, unsigned c);
// Channel `c` as the 32-bit integer tex returns for an element-type read (sign-extended).
uint32_t channelAsInt(const Object& o, const uint8_t* texel, unsigned c);
// What a missing channel reads as: 0, w included (the H200, tests/recorded/texture/).
inline float missingChannel(unsigned) { return 0.0f; }

// Channel `c` of a linear-filtered fetch with footprint `f`: texels[t] holds tap t's bytes (unused
// for a border tap). The H200's filter arithmetic, fitted to tests/recorded/texture/:
//   - f32 texels: each cut toward zero to a block of 28 bits below the leading bit of the
//     largest weighted texel, then the exact weighted sum (weights of 1/256) rounded once to
//     f32, ties away from zero;
//   - f16 texels: the same sum rounded to f16, ties away from zero;
//   - 8/16-bit normalized integers: each texel widened to 16 bits (u8 times 257; s8 as
//     v * 32767 / 127 floored to eighths), summed exactly, rounded half up to 16 bits and
//     divided by 65535 (unsigned) or 32767 (signed, clamped at -1).
float filteredChannel(const Object& o, const Footprint& f, const uint8_t* const* texels,
                      unsigned c);

// The common filtered fetch, which footprint and filteredChannel give without their generality
// (a fifth of the instructions of a warp's tex went to it): a 2-d texture of one level, neither
// layered nor a cube map, of f32 channels, filtered linearly at unnormalized coordinates under
// an address mode other than border (unnormalized wrap and mirror address as clamp).
bool isPlainBilinearF32(const Object& o);

// Its four taps in footprint's order ((i0, j0), (i1, j0), (i0, j1), (i1, j1)): the byte offsets
// from the first texel and the weights in 1/256 (footprint's taps and weights, exactly).
struct Bilinear {
  uint64_t offset[4];
  uint32_t weight[4];
};
Bilinear bilinearTaps(const Object& o, float x, float y);

// filteredChannel of one f32 channel whose taps hold the values v[t] with the weights w[t]
// (1/256): the same block sum, rounded once.
float bilinearF32(const float* v, const uint32_t* w);

// Whether this descriptor's reads return floats (a float format, or readNormalized).
inline bool readsFloat(const Object& o) { return isFloatChannel(o.channel) || o.readNormalized; }

}  // namespace warpsim::isa::tex
