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
// rounded up to 1/256 (a 256-entry table), so the level of detail is a multiple of 1/256. But
// entry 2 reads 4/256, not 3/256: a single gradient of 2^(3/256) texels (1.0082, significand
// 1 + 2/256 when cut) reads 4/256 in every octave of the mipmap probes (l1, l2, l3, Ml1, Ml2),
// and the cube gradients of that significand read so too (docs/FIDELITY.md "tex.grad on cube
// maps"); the 17 other entries the probes pin are the rounded-up log2.
float chipLog2(double rho) {
  static const std::array<uint16_t, 256> kTable = [] {
    std::array<uint16_t, 256> t{};
    for (unsigned i = 0; i < 256; ++i)
      t[i] = uint16_t(std::ceil(256 * std::log2(1 + i / 256.0) - 1e-9));
    t[2] = 4;
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
  bool operator==(const CubeFace& o) const { return axis == o.axis && sign == o.sign; }
};

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

// A direction placed on the cube's surface as tex.grad's samples are: each component over the
// largest magnitude (NaN components left out of it), so an infinite component reads NaN and
// the finite ones 0; the face is the largest of those, ties going to z, then y, then x, and a
// NaN to z (the comparisons fail); the face's sign is its component's, +0 positive; then NaN
// components read 0 (docs/FIDELITY.md "tex.grad on cube maps": a NaN d/dx component puts the
// sample's at 0, an infinite one the sample at a face's centre). False for no direction.
struct CubePoint {
  double n[3];
  CubeFace face;
};
bool cubePoint(const double* q, CubePoint& c) {
  double ma = 0;
  for (int i = 0; i < 3; ++i)
    if (std::fabs(q[i]) > ma) ma = std::fabs(q[i]);  // NaN compares false: left out
  if (!(ma > 0)) return false;
  for (int i = 0; i < 3; ++i) c.n[i] = q[i] / ma;  // inf / inf is NaN, x / inf is 0
  const double ax = std::fabs(c.n[0]), ay = std::fabs(c.n[1]), az = std::fabs(c.n[2]);
  const int axis = ax > ay && ax > az ? 0 : ay > az ? 1 : 2;
  c.face = {axis, c.n[axis] >= 0 ? 1.0 : -1.0};
  for (double& v : c.n)
    if (std::isnan(v)) v = 0;
  c.n[axis] = c.face.sign;
  return true;
}

// Where cube point c lies in the coordinates of face f ([-1, 1] on the face, and a third one
// across it), as the H200 places tex.grad's samples (docs/FIDELITY.md "tex.grad on cube
// maps"): c on f reads its own coordinates; c on a face f borders is unfolded across their
// edge: its coordinate toward f on its own face, u = f's component (1 at the edge), reads
// 2 - u past f's edge, and the coordinate along the edge is c's own; c on the opposite face
// reads its coordinates in f's frame, 2 across the cube (the third coordinate).
void unfoldedCoords(CubeFace f, const CubePoint& c, double* st) {
  const CubeFace g = c.face;
  st[2] = 0;
  if (g.axis == f.axis) {
    faceFrame(f, c.n, st[0], st[1]);
    if (g.sign != f.sign) st[2] = 2;
    return;
  }
  const int third = 3 - f.axis - g.axis;
  double toward[3] = {0, 0, 0}, along[3] = {0, 0, 0}, es, et, fs, ft;
  toward[g.axis] = g.sign;  // g's direction in f's frame: where past f's edge c lies
  along[third] = 1;
  faceFrame(f, toward, es, et);
  faceFrame(f, along, fs, ft);
  const double past = 2 - f.sign * c.n[f.axis], other = c.n[third];
  st[0] = es * past + fs * other;
  st[1] = et * past + ft * other;
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
  const double p[3] = {dir[0], dir[1], dir[2]};
  CubePoint at;
  if (!cubePoint(p, at)) return -INFINITY;  // no direction (zero or NaN)
  double base[3];
  unfoldedCoords(at.face, at, base);
  double g[2][3];
  bool crosses = false;
  for (int k = 0; k < 2; ++k) {
    const float* d = k == 0 ? ddx : ddy;
    // The sample in f32, as the chip adds it (an infinite or NaN gradient stays so).
    const double q[3] = {double(dir[0] + d[0]), double(dir[1] + d[1]), double(dir[2] + d[2])};
    CubePoint c;
    double st[3] = {0, 0, 0};  // a zero sample reads the face's centre
    if (cubePoint(q, c)) {
      crosses |= !(c.face == at.face);
      unfoldedCoords(at.face, c, st);
    }
    // Face coordinates in [-1, 1] to normalized ones in [0, 1] (an f32 gradient, as a 2-d
    // tex.grad's operand), in texels of the face.
    for (int i = 0; i < 3; ++i) g[k][i] = double(float((st[i] - base[i]) / 2)) * o.width;
  }
  // A sample on another face leaves the diagonals out (docs/FIDELITY.md: at (1, 1, 1) the pair
  // (-a, -a), (-a, a) reads its longer gradient, 1.34 a, not 11/16 of the sum, 1.375 a).
  return footprintLod(g[0], g[1], 3, !crosses);
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
    // A seamless cube corner's missing tap gives its share of the level's weight to the other
    // three (docs/FIDELITY.md "tex.grad on cube maps": GCs between levels 3 and 4).
    if (level->corner >= 0) cornerWeightToItsNeighbours(unsigned(level->corner), weights);
    for (unsigned t = 0; t < level->n; ++t) {
      f.taps[f.n] = level->taps[t];
      f.taps[f.n++].weight = weights[t] / 256.0;
    }
  }
  return f;
}

}  // namespace warpsim::isa::tex
