#include "isa/insns/texture_mipmap.h"

#include <algorithm>
#include <array>
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

namespace {

// The share of a diagonal (the gradients' sum or difference) in the footprint (lodFromGradients).
constexpr double kDiagonalShare = 11.0 / 16;

// The H200's estimate of a gradient's length (up to three components, in texels): the largest
// component, 87/256 of the middle one and 1/4 of the smallest. Exact along an axis; a rotated
// (0.6, 0.8) reads 1.0054 as on the chip (docs/FIDELITY.md "Mipmaps": tex.grad).
double gradientLength(const double* v, unsigned n) {
  double s[3] = {0, 0, 0};
  for (unsigned i = 0; i < n; ++i) s[i] = std::fabs(v[i]);
  std::sort(s, s + 3, [](double a, double b) { return a > b; });
  return s[0] + 87.0 / 256 * s[1] + 0.25 * s[2];
}

// The H200's log2 of a footprint's size: the significand cut to 8 fractional bits and its log2
// rounded up to 1/256 (a 256-entry table), so the level of detail is a multiple of 1/256.
float chipLog2(double rho) {
  static const std::array<uint16_t, 256> kTable = [] {
    std::array<uint16_t, 256> t{};
    for (unsigned i = 0; i < 256; ++i)
      t[i] = uint16_t(std::ceil(256 * std::log2(1 + i / 256.0) - 1e-9));
    return t;
  }();
  int e;
  const double m = std::frexp(rho, &e);  // rho = m 2^e, m in [0.5, 1)
  const unsigned i = unsigned((2 * m - 1) * 256);
  return float(e - 1) + float(kTable[i]) / 256;
}

}  // namespace

float lodFromGradients(const Object& o, const float* ddx, const float* ddy) {
  const uint32_t sizes[3] = {o.width, o.height, o.depth};
  double x[3] = {}, y[3] = {}, sum[3] = {}, diff[3] = {};
  for (unsigned d = 0; d < o.dims; ++d) {
    // Normalized coordinates' gradients are in units of the texture's size.
    const double scale = o.normalizedCoords ? double(sizes[d]) : 1.0;
    if (std::isnan(ddx[d]) || std::isnan(ddy[d])) return -INFINITY;  // reads level 0 + bias
    x[d] = double(ddx[d]) * scale;
    y[d] = double(ddy[d]) * scale;
    sum[d] = x[d] + y[d];
    diff[d] = x[d] - y[d];
  }
  // The footprint is the longest of the two gradients and, scaled by 11/16, their sum and
  // difference (the diagonals): perpendicular gradients read the longer one, parallel ones
  // more (two equal ones 1.375 times one). Fitted to the H200 (mipmap_probe.h200.txt: the
  // gradient sweeps of l1, l2, l3, docs/FIDELITY.md "Mipmaps").
  double rho = 0;  // a NaN term (inf - inf) counts as none
  for (const double t : {gradientLength(x, o.dims), gradientLength(y, o.dims),
                         kDiagonalShare * gradientLength(sum, o.dims),
                         kDiagonalShare * gradientLength(diff, o.dims)})
    if (t > rho) rho = t;
  if (!(rho > 0)) return -INFINITY;
  if (std::isinf(rho)) return INFINITY;
  return chipLog2(rho);
}

float lodFromCubeGradients(const Object& o, const float* dir, const float* ddx, const float* ddy) {
  const double ax = std::fabs(dir[0]), ay = std::fabs(dir[1]), az = std::fabs(dir[2]);
  // The major axis and the face's (sc, tc) as signed picks of the direction's components, in
  // cubeCoords' order of ties (z before y before x).
  int major, sAxis, tAxis;
  double sSign, tSign;
  if (az >= ax && az >= ay) {
    major = 2, sAxis = 0, tAxis = 1;
    sSign = dir[2] >= 0 ? 1 : -1, tSign = -1;
  } else if (ay >= ax) {
    major = 1, sAxis = 0, tAxis = 2;
    sSign = 1, tSign = dir[1] >= 0 ? 1 : -1;
  } else {
    major = 0, sAxis = 2, tAxis = 1;
    sSign = dir[0] >= 0 ? -1 : 1, tSign = -1;
  }
  const double ma = std::fabs(double(dir[major])), maSign = dir[major] >= 0 ? 1 : -1;
  const double sc = sSign * dir[sAxis], tc = tSign * dir[tAxis];
  Object face = o;
  face.dims = 2;
  face.normalizedCoords = 1;
  face.height = o.width;
  float dx[2], dy[2];
  for (int k = 0; k < 2; ++k) {
    const float* d = k == 0 ? ddx : ddy;
    float* out = k == 0 ? dx : dy;
    const double dma = maSign * d[major];
    out[0] = float((sSign * d[sAxis] * ma - sc * dma) / (2 * ma * ma));
    out[1] = float((tSign * d[tAxis] * ma - tc * dma) / (2 * ma * ma));
  }
  return lodFromGradients(face, dx, dy);
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
