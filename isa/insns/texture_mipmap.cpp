#include "isa/insns/texture_mipmap.h"

#include <algorithm>
#include <cmath>

namespace warpsim::isa::tex {

uint64_t levelOffset(const Object& o, unsigned l) {
  uint64_t bytes = 0;
  // A layered (or cube) texture's level holds all its layers, one after another.
  for (unsigned i = 0; i < l; ++i)
    bytes += uint64_t(levelSize(o.width, i)) * texelBytes(o) *
             (o.dims >= 2 ? levelSize(o.height, i) : 1) *
             (o.dims == 3 ? levelSize(o.depth, i) : 1) * (o.layered ? o.layers : 1);
  return bytes;
}

Object levelOf(const Object& o, unsigned l) {
  Object v = o;
  v.levels = 1;
  if (l == 0) return v;  // level 0 keeps the object's own pitches
  v.width = levelSize(o.width, l);
  v.height = o.dims >= 2 ? levelSize(o.height, l) : 1;
  v.depth = o.dims == 3 ? levelSize(o.depth, l) : 1;
  packDense(v);
  v.dataOffset = o.dataOffset + int64_t(levelOffset(o, l));
  return v;
}

float lodFromGradients(const Object& o, const float* ddx, const float* ddy) {
  const uint32_t sizes[3] = {o.width, o.height, o.depth};
  double lx = 0, ly = 0;
  for (unsigned d = 0; d < o.dims; ++d) {
    // Normalized coordinates' gradients are in units of the texture's size.
    const double scale = o.normalizedCoords ? double(sizes[d]) : 1.0;
    lx += (double(ddx[d]) * scale) * (double(ddx[d]) * scale);
    ly += (double(ddy[d]) * scale) * (double(ddy[d]) * scale);
  }
  const double rho = std::sqrt(std::max(lx, ly));
  return rho > 0 ? float(std::log2(rho)) : -INFINITY;
}

MipChoice mipLevels(const Object& o, float lod) {
  MipChoice c;
  const float top = float(o.levels - 1);
  float l = lod + o.lodBias;
  if (std::isnan(l)) l = 0;
  l = std::clamp(l, std::max(o.minLod, 0.0f), std::clamp(o.maxLod, 0.0f, top));
  if (o.mipFilter == Filter::Point) {
    // The nearest level, a fraction of one half rounding up (the H200: lod 0.5 reads level 1).
    // In double: l + 0.5 in float would round 0.5 + 1 ulp down to 1 and tie it back down.
    c.level[0] = unsigned(std::floor(double(l) + 0.5));
    return c;
  }
  const unsigned base = unsigned(std::floor(l));
  // The H200 truncates the fraction to 8 bits (mipmap_probe.h200.txt: l1 lod1 fits only so).
  const double w = std::floor(double(l - float(base)) * 256.0) / 256.0;
  c.level[0] = base;
  if (w == 0 || base + 1 >= o.levels) return c;
  c.n = 2;
  c.level[1] = base + 1;
  c.weight = w;
  return c;
}

Footprint blendedFootprint(const Footprint& lower, const Footprint& upper, double weight) {
  Footprint f;
  const uint32_t w = uint32_t(weight * 256);
  for (const Footprint* level : {&lower, &upper}) {
    const unsigned n[3] = {level->count[0], level->count[1], level->count[2]};
    const uint32_t alpha[3] = {level->alpha[0], level->alpha[1], level->alpha[2]};
    uint32_t weights[8];
    splitWeights(n, alpha, level == &lower ? 256 - w : w, weights);
    for (unsigned t = 0; t < level->n; ++t) {
      f.taps[f.n] = level->taps[t];
      f.taps[f.n++].weight = weights[t] / 256.0;
    }
  }
  return f;
}

}  // namespace warpsim::isa::tex
