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

// A cube face: the major axis (0, 1, 2 for x, y, z) and its sign.
struct CubeFace {
  int axis;
  double sign;
};

// The face a direction hits, ties (edges, corners) going to z, then y, then x as in cubeCoords.
CubeFace cubeFaceOf(const double* d) {
  const double ax = std::fabs(d[0]), ay = std::fabs(d[1]), az = std::fabs(d[2]);
  const int axis = az >= ax && az >= ay ? 2 : ay >= ax ? 1 : 0;
  return {axis, d[axis] >= 0 ? 1.0 : -1.0};
}

// (sc, tc) of vector d in the frame of face f, cubeCoords' signed picks of its components.
void faceFrame(CubeFace f, const double* d, double& sc, double& tc) {
  const bool pos = f.sign > 0;
  if (f.axis == 2) {
    sc = pos ? d[0] : -d[0];
    tc = -d[1];
  } else if (f.axis == 1) {
    sc = d[0];
    tc = pos ? d[2] : -d[2];
  } else {
    sc = pos ? -d[2] : d[2];
    tc = -d[1];
  }
}

// Where direction q lies in the plane of face f's coordinates (sc / ma, tc / ma, [-1, 1] on
// the face), as the H200 places tex.grad's samples (docs/FIDELITY.md "tex.grad on cube
// maps"): q on f reads its own coordinates; q on a face f borders is unfolded across their
// edge: its coordinate toward f on its own face, u = f's component over q's major one (1 at
// the edge), reads 2 - u past f's edge, and the coordinate along the edge is q's own; q on the
// opposite face reads f's centre. False (st untouched) for no direction (zero or NaN).
bool unfoldedCoords(CubeFace f, const double* q, double* st) {
  const CubeFace g = cubeFaceOf(q);
  const double ma = std::fabs(q[g.axis]);
  if (!(ma > 0)) return false;
  if (g.axis == f.axis) {
    if (g.sign != f.sign) {
      st[0] = st[1] = 0;
      return true;
    }
    faceFrame(f, q, st[0], st[1]);
    st[0] /= ma;
    st[1] /= ma;
    return true;
  }
  const int third = 3 - f.axis - g.axis;
  double toward[3] = {0, 0, 0}, along[3] = {0, 0, 0}, es, et, fs, ft;
  toward[g.axis] = g.sign;  // g's direction in f's frame: where past f's edge q lies
  along[third] = 1;
  faceFrame(f, toward, es, et);
  faceFrame(f, along, fs, ft);
  const double past = 2 - f.sign * q[f.axis] / ma, other = q[third] / ma;
  st[0] = es * past + fs * other;
  st[1] = et * past + ft * other;
  return true;
}

// The level of detail of gradients x and y (`dims` components each, in texels): the log2 of the
// footprint, the longest of the two gradients and, scaled by 11/16, their sum and difference
// (the diagonals; left out when `diagonals` is false): perpendicular gradients read the longer
// one, parallel ones more (two equal ones 1.375 times one). Fitted to the H200
// (mipmap_probe.h200.txt: the gradient sweeps of l1, l2, l3, docs/FIDELITY.md "Mipmaps").
float footprintLod(const double* x, const double* y, unsigned dims, bool diagonals) {
  double sum[3] = {}, diff[3] = {};
  for (unsigned d = 0; d < dims; ++d) {
    sum[d] = x[d] + y[d];
    diff[d] = x[d] - y[d];
  }
  double rho = 0;  // a NaN term (inf - inf) counts as none
  for (const double t : {gradientLength(x, dims), gradientLength(y, dims)})
    if (t > rho) rho = t;
  if (diagonals)
    for (const double t :
         {kDiagonalShare * gradientLength(sum, dims), kDiagonalShare * gradientLength(diff, dims)})
      if (t > rho) rho = t;
  if (!(rho > 0)) return -INFINITY;
  if (std::isinf(rho)) return INFINITY;
  return chipLog2(rho);
}

}  // namespace

float lodFromGradients(const Object& o, const float* ddx, const float* ddy) {
  const uint32_t sizes[3] = {o.width, o.height, o.depth};
  double x[3] = {}, y[3] = {};
  for (unsigned d = 0; d < o.dims; ++d) {
    // Normalized coordinates' gradients are in units of the texture's size.
    const double scale = o.normalizedCoords ? double(sizes[d]) : 1.0;
    if (std::isnan(ddx[d]) || std::isnan(ddy[d])) return -INFINITY;  // reads level 0 + bias
    x[d] = double(ddx[d]) * scale;
    y[d] = double(ddy[d]) * scale;
  }
  return footprintLod(x, y, o.dims, true);
}

float lodFromCubeGradients(const Object& o, const float* dir, const float* ddx, const float* ddy) {
  for (unsigned i = 0; i < 3; ++i) {
    if (std::isnan(ddx[i]) || std::isnan(ddy[i])) return -INFINITY;  // reads level 0 + bias
    if (std::isinf(ddx[i]) || std::isinf(ddy[i])) return INFINITY;
  }
  const double p[3] = {dir[0], dir[1], dir[2]};
  const CubeFace face = cubeFaceOf(p);
  double base[2];
  if (!unfoldedCoords(face, p, base)) return -INFINITY;  // no direction (zero or NaN)
  double g[2][2];
  bool crosses = false;
  for (int k = 0; k < 2; ++k) {
    const float* d = k == 0 ? ddx : ddy;
    const double q[3] = {p[0] + d[0], p[1] + d[1], p[2] + d[2]};
    const CubeFace on = cubeFaceOf(q);
    crosses |= on.axis != face.axis || on.sign != face.sign;
    double st[2] = {0, 0};  // a zero sample reads the face's centre
    unfoldedCoords(face, q, st);
    // Face coordinates in [-1, 1] to normalized ones in [0, 1] (an f32 gradient, as a 2-d
    // tex.grad's operand), in texels of the face.
    for (int i = 0; i < 2; ++i) g[k][i] = double(float((st[i] - base[i]) / 2)) * o.width;
  }
  // A sample on another face leaves the diagonals out (docs/FIDELITY.md: at (1, 1, 1) the pair
  // (-a, -a), (-a, a) reads its longer gradient, 1.34 a, not 11/16 of the sum, 1.375 a).
  return footprintLod(g[0], g[1], 2, !crosses);
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
