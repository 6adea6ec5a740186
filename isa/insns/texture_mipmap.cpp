#include "isa/insns/texture_mipmap.h"

#include <algorithm>
#include <cmath>

namespace warpsim::isa::tex {

uint64_t levelOffset(const Object& o, unsigned l) {
  uint64_t bytes = 0;
  for (unsigned i = 0; i < l; ++i)
    bytes += uint64_t(levelSize(o.width, i)) * texelBytes(o) *
             (o.dims >= 2 ? levelSize(o.height, i) : 1) * (o.dims == 3 ? levelSize(o.depth, i) : 1);
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

namespace {

uint32_t roundHalfUp256(uint32_t x) { return (x + 128) / 256; }

// One level's taps scaled by its share `lw` (of 256): the x pair splits lw first (the second
// texel's part rounded half up, the first the rest), then each x half splits along y, the first
// x texel's half rounding its first y texel's part, the second its second's (mirror images).
// `alpha` and `beta` are the level's own x and y weights (of 256), recovered from its footprint.
void scaleLevel(const Footprint& f, uint32_t lw, Footprint& out) {
  auto w256 = [&](unsigned t) { return uint32_t(std::lround(f.taps[t].weight * 256)); };
  uint32_t w[4] = {lw, 0, 0, 0};
  if (f.n == 2) {
    w[1] = roundHalfUp256(w256(1) * lw);
    w[0] = lw - w[1];
  } else if (f.n == 4) {
    const uint32_t alpha = w256(1) + w256(3), beta = w256(2) + w256(3);
    const uint32_t x1 = roundHalfUp256(alpha * lw), xs[2] = {lw - x1, x1};
    const uint32_t y00 = roundHalfUp256(xs[0] * (256 - beta));
    const uint32_t y11 = roundHalfUp256(xs[1] * beta);
    w[0] = y00;          // (x0, y0)
    w[2] = xs[0] - y00;  // (x0, y1)
    w[3] = y11;          // (x1, y1)
    w[1] = xs[1] - y11;  // (x1, y0)
  }
  for (unsigned t = 0; t < f.n; ++t) {
    Tap& tap = out.taps[out.n++];
    tap = f.taps[t];
    tap.weight = w[t] / 256.0;
  }
}

}  // namespace

Footprint blendedFootprint(const Footprint& lower, const Footprint& upper, double weight) {
  Footprint f;
  if (lower.n + upper.n > f.taps.size() || lower.n == 8 || upper.n == 8) return f;
  const uint32_t w = uint32_t(weight * 256);
  scaleLevel(lower, 256 - w, f);
  scaleLevel(upper, w, f);
  return f;
}

}  // namespace warpsim::isa::tex
