// Mipmapped textures (tex.level, tex.grad, and tex on a mipmapped texture): where each level's
// texels are and which levels a fetch reads. A level is an ordinary texture of its own size
// (levelOf), so the addressing and filtering of texture_sample.h apply to it unchanged.
//
// The model (CUDA C++ Programming Guide, "Texture Fetching" and cudaTextureDesc; not yet
// measured on the H200, docs/FIDELITY.md "Textures"):
//   - the level of detail is tex.level's operand, for tex.grad the log2 of the footprint the
//     H200 estimates from the gradients (lodFromGradients; isotropic: no anisotropic
//     filtering), and 0 for a plain tex; lodBias is
//     added and the result clamped to [minLod, maxLod] and to [0, levels - 1];
//   - point mipmap filtering reads the nearest level, floor(lod + 0.5): a fraction of exactly one
//     half rounds up (measured on the H200, scripts/probes/texture/mipmap_probe.cu; OpenGL's
//     ceil(lod + 0.5) - 1 rounds it down); linear filtering reads levels floor(lod) and
//     floor(lod) + 1 and blends them by the fraction truncated to 8 fractional bits (measured),
//     in one weighted sum over both levels' texels (blendedFootprint).
#pragma once

#include <algorithm>
#include <cstdint>

#include "isa/insns/texture_object.h"
#include "isa/insns/texture_sample.h"

namespace warpsim::isa::tex {

// Level `l`'s size along an axis of `size` texels.
inline uint32_t levelSize(uint32_t size, unsigned l) {
  return l >= 32 ? 1 : std::max<uint32_t>(1, size >> l);
}

// Bytes of the texels of levels 0 .. l - 1 (the offset of level l from the first texel).
uint64_t levelOffset(const Object& o, unsigned l);

// Bytes of all of `o`'s levels.
inline uint64_t mipmapBytes(const Object& o) { return levelOffset(o, o.levels); }

// Level `l` of `o` as a texture of its own: its size, pitches and first texel; no mipmaps.
Object levelOf(const Object& o, unsigned l);

// tex.grad's level of detail (d/dx and d/dy of the coordinates, `o.dims` of each, in texels of
// level 0), as the H200 computes it (fitted to mipmap_probe.h200.txt and texture_forms_probe's
// gradlod and cuberot sections, docs/FIDELITY.md "Mipmaps", "tex.grad's level of detail" and
// "tex.grad on cube maps: the middle term"): each component cut to 9 fractional bits; the
// footprint is the longest of the two gradients and of their sum and difference scaled by
// 11/16, each length estimated as the largest component plus 11/32 of the middle one (rounded
// on the middle's own grid) and 1/4 of the smallest (on the largest's grid of 9 bits); a
// diagonal's 11/16 of its largest is rounded on the largest's grid of 10 bits and the rest cut
// to that term's grid; its log2 takes the significand cut to 8 fractional bits and reads the
// chip's table of 256 entries (a multiple of 1/256 results).
float lodFromGradients(const Object& o, const float* ddx, const float* ddy);

// tex.grad on a cube map (texCubemapGrad), as the H200 does it (fitted to texture_forms_probe's
// cubegrad section, docs/FIDELITY.md "Texture and surface forms"): not the derivative of the
// projection but differences of samples. The direction `dir` and the samples dir + ddx and
// dir + ddy (three components each, added in f32) are each placed on the face they hit and,
// when that is a neighbouring face, unfolded across the edge into the plane of dir's face (on
// the opposite face: 2 across the cube); the differences of their face coordinates are the
// gradients of a face of o.width texels (lodFromGradients), toward a neighbouring face the sum
// of the two points' distances to the edge, each cut to 9 bits. A NaN component of a sample reads
// 0 there; an infinite one puts the sample at the centre of face +z or -z.
float lodFromCubeGradients(const Object& o, const float* dir, const float* ddx, const float* ddy);

// The levels a fetch at level of detail `lod` reads: one, or two blended by `weight` (the
// second level's share, a multiple of 1/256).
struct MipChoice {
  unsigned n = 1;
  unsigned level[2] = {0, 0};
  double weight = 0;
};
MipChoice mipLevels(const Object& o, float lod);

// Linear mipmap filtering on the H200: one weighted sum over both levels' taps (lower's first,
// then upper's), each level's share of 256 split over its taps as one level's 256 is
// (splitWeights), so the sum is rounded once (filteredChannel). Fitted to
// scripts/probes/texture/mipmap_probe.cu's chip output (docs/FIDELITY.md "Mipmaps").
Footprint blendedFootprint(const Footprint& lower, const Footprint& upper, double weight);

}  // namespace warpsim::isa::tex
