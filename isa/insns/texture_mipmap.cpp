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

// tex.grad's footprint arithmetic, fitted to the gradlod section of texture_forms_probe, which
// reads the level of detail directly (docs/FIDELITY.md "tex.grad's level of detail": all 2,113
// of its fetches, and 3,283 of the 3,285 gradient lines of power-of-two textures of the mipmap
// probes), and its middle shares to the cuberot section (docs/FIDELITY.md "tex.grad on cube
// maps: the middle term", all 4,626). Each gradient component is cut to 9 fractional bits of its
// significand; a length is estimated from the components on the grid of the largest one; the
// diagonals (the gradients' sum and difference) are scaled by 11/16.
constexpr int kGradientBits = 9;
// The middle component's share of a length, 11/32, rounded to nearest on a grid two bits below
// the middle's own 9-bit grid (the cuberot midm sweep: all 2,313 lines; an exact 1409/4096, the
// constant the gradlod mid sweep suggested, misses 12, a grid of 10 or 12 bits 72 or 24).
constexpr double kMiddleShare = 11.0 / 32;
constexpr int kMiddleShareBits = kGradientBits + 2;
constexpr double kSmallestShare = 0.25;
constexpr double kDiagonalShare = 11.0 / 16;
// A diagonal's middle share, 11/16 of 11/32, rounded to nearest a bit finer than a gradient's
// (cuberot rotm: all 2,313 lines; at 11 or 13 bits 60 or 15 miss).
constexpr int kDiagonalMiddleBits = kGradientBits + 3;

// v cut toward zero to kGradientBits fractional bits of its significand (NaN and infinities
// stay).
double cutToGradientBits(double v) {
  if (!std::isfinite(v) || v == 0) return v;
  int e;
  const double m = std::frexp(std::fabs(v), &e);  // |v| = m 2^e, m in [0.5, 1)
  return std::copysign(
      std::ldexp(std::floor(std::ldexp(m, kGradientBits + 1)), e - kGradientBits - 1), v);
}

// x on the grid of 2^(exponent - bits), the grid of a value of that binary exponent with `bits`
// fractional bits, cut toward zero.
double onGrid(double x, int exponent, int bits) {
  return std::ldexp(std::floor(std::ldexp(x, bits - exponent)), exponent - bits);
}

// The binary exponent of x > 0 (x in [2^e, 2^(e + 1))).
int exponentOf(double x) {
  int e;
  std::frexp(x, &e);
  return e - 1;
}

// x rounded to nearest, ties up, on the grid of a value of that exponent with `bits` fractional
// bits (half a step added, then cut).
double roundedOnGrid(double x, int exponent, int bits) {
  return onGrid(x + std::ldexp(1.0, exponent - bits - 1), exponent, bits);
}

// share * c for a component c >= 0, rounded to nearest on c's own grid of `bits` fractional bits
// (the product as a multiplier keeping that many bits of c's exponent). Zero, infinities and
// NaN are multiplied as they are.
double shareOf(double c, double share, int bits) {
  if (!(c > 0) || !std::isfinite(c)) return share * c;
  return roundedOnGrid(share * c, exponentOf(c), bits);
}

// A vector's component magnitudes (up to three, in texels), largest first.
std::array<double, 3> sortedMagnitudes(const double* v, unsigned n) {
  std::array<double, 3> s = {0, 0, 0};
  for (unsigned i = 0; i < n; ++i) s[i] = std::fabs(v[i]);
  std::sort(s.begin(), s.end(), [](double a, double b) { return a > b; });
  return s;
}

// Magnitudes s (largest first) cut to the largest's grid of kGradientBits fractional bits, as
// an adder aligned to the largest would hold them.
std::array<double, 3> alignedToLargest(std::array<double, 3> s) {
  if (s[0] > 0 && std::isfinite(s[0])) {
    const int e = exponentOf(s[0]);
    for (double& c : s) c = onGrid(c, e, kGradientBits);
  }
  return s;
}

// The H200's estimate of a gradient's length: the largest component plus the middle's share
// (11/32, rounded on its own grid: shareOf) and 1/4 of the smallest (a rotated (0.6, 0.8) reads
// 1.0054 as on the chip). The smallest is cut to the largest's grid of kGradientBits fractional
// bits (3-d lines of the mipmap probes: 4 more right than without), the middle keeps its own
// (cubegradlod's edge lines, a sample crossing onto +x at y = 0.25: 114 -> 7 missed; cubegrad
// 141 -> 139; on the largest's grid the 2-d lines read the same).
double gradientLength(const double* v, unsigned n) {
  const std::array<double, 3> s = sortedMagnitudes(v, n);
  return s[0] + shareOf(s[1], kMiddleShare, kMiddleShareBits) +
         kSmallestShare * alignedToLargest(s)[2];
}

// A diagonal's share of the footprint (the gradients' sum or difference): 11/16 of its length,
// in two terms (docs/FIDELITY.md "tex.grad on cube maps: the middle term"). 11/16 of the
// largest component (on its own 9-bit grid) is rounded to nearest, ties up, on that grid's next
// bit: the gradlod par sweep (d/dx = d/dy = (a, 0), 512 lengths of an octave) reads 11/8 a' +
// 2^-10 .. 11/8 a' + 5/4096 for a' = a cut to 9 bits, which the rounding gives at every length,
// on 2-d textures and cube maps alike (cubegradlod par, pars); cubegradlod's rot sweep (d/dx =
// d/dy = (a, a / 2)) reads its ties up (to even: 15 of its 768 lines missed; on the length's
// 10-bit grid, as before: 24). The middle's share (11/16 of 11/32 of the middle, cut to its own
// 9 bits, rounded on its own grid a bit finer than a gradient's) and the smallest's (11/16 of
// 1/4, on the largest's grid) are cut to the first term's grid of kGradientBits fractional bits
// and added: so the cut coarsens where 11/16 of the largest reaches a new binade, which rot
// (57 -> 0 lines) and cuberot's rotm (186 -> 0 of 2,313) read (cut to 8 or 10 bits of it, or 9
// of the length or of the diagonal: rot 156, 45, 117, 24). The middle as summed (not cut to 9
// bits) reads the same there but cubegrad 125 lines, not 113; on the largest's grid, as
// before, rotm 51.
double diagonalTerm(const double* v, unsigned n) {
  const std::array<double, 3> sorted = sortedMagnitudes(v, n);
  const std::array<double, 3> s = alignedToLargest(sorted);
  const double middle = cutToGradientBits(sorted[1]);
  if (!(s[0] > 0) || !std::isfinite(s[0]))
    return kDiagonalShare * (s[0] + kMiddleShare * middle + kSmallestShare * s[2]);
  const double largest = roundedOnGrid(kDiagonalShare * s[0], exponentOf(s[0]), kGradientBits + 1);
  const double rest = shareOf(middle, kDiagonalShare * kMiddleShare, kDiagonalMiddleBits) +
                      kDiagonalShare * kSmallestShare * s[2];
  return largest + onGrid(rest, exponentOf(largest), kGradientBits);
}

// The H200's log2 of a footprint's size: the significand cut to 8 fractional bits and looked
// up in a table of 256 entries in 1/256, so the level of detail is a multiple of 1/256. The
// entries are the chip's as the gradlod log2 sweep reads them (a single gradient of 2 (1 + (i
// + f) / 256) texels, f = 0, 1/8, 1/2, 7/8, reads entry i in every octave; 8 (1 + (i + f) /
// 256) for i < 16 the same): within 1.13/256 of the exact log2 of the entry's start, not a
// rounding of it (entry 2 reads 4/256, entry 109 131/256, 255 255/256).
float chipLog2(double rho) {
  static constexpr std::array<uint8_t, 256> kTable = {
      0,   2,   4,   5,   6,   8,   9,   11,  12,  13,  15,  16,  18,  19,  20,  22,  23,  24,  26,
      27,  28,  30,  31,  32,  34,  35,  36,  38,  39,  40,  42,  43,  44,  45,  47,  48,  49,  50,
      52,  53,  54,  55,  57,  58,  59,  60,  62,  63,  64,  65,  66,  68,  69,  70,  71,  72,  74,
      75,  76,  77,  78,  79,  81,  82,  83,  84,  85,  86,  88,  89,  90,  91,  92,  93,  94,  95,
      97,  98,  99,  100, 101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116,
      117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 135, 136,
      137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154,
      155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172,
      173, 173, 174, 175, 176, 177, 178, 179, 180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188,
      189, 190, 191, 192, 193, 194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205,
      205, 206, 207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219, 220,
      221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232, 233, 233, 234, 235,
      236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244, 245, 245, 246, 247, 248, 248, 249,
      250, 251, 251, 252, 253, 253, 254, 255, 255,
  };
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

// A direction placed on the cube's surface as tex.grad's samples are: each component times the
// f32 reciprocal of the largest magnitude (NaN components left out of it), the product rounded
// to f32, so an infinite component reads NaN and the finite ones 0; the face is the largest of
// those, ties going to z, then y, then x, and a NaN to z (the comparisons fail); the face's
// sign is its component's, +0 positive; then NaN components read 0 (docs/FIDELITY.md "tex.grad
// on cube maps": a NaN d/dx component puts the sample's at 0, an infinite one the sample at a
// face's centre). The reciprocal, not a quotient: a sample just past an edge is unfolded from
// it (cubegradlod's edge lines at 256-texel faces 13 -> 7 missed, cubegrad 139 -> 136;
// "tex.grad on cube maps: the last residuals"). False for no direction.
struct CubePoint {
  double n[3];
  CubeFace face;
};
bool cubePoint(const double* q, CubePoint& c) {
  double ma = 0;
  for (int i = 0; i < 3; ++i)
    if (std::fabs(q[i]) > ma) ma = std::fabs(q[i]);  // NaN compares false: left out
  if (!(ma > 0)) return false;
  // q holds f32 values; 1 / inf is 0, so an infinite component reads inf * 0, NaN. A reciprocal
  // past f32's range (a subnormal largest magnitude, never recorded) divides instead.
  const float r = 1.0f / float(ma);
  for (int i = 0; i < 3; ++i) c.n[i] = std::isinf(r) ? q[i] / ma : double(float(q[i]) * r);
  const double ax = std::fabs(c.n[0]), ay = std::fabs(c.n[1]), az = std::fabs(c.n[2]);
  const int axis = ax > ay && ax > az ? 0 : ay > az ? 1 : 2;
  c.face = {axis, c.n[axis] >= 0 ? 1.0 : -1.0};
  for (double& v : c.n)
    if (std::isnan(v)) v = 0;
  c.n[axis] = c.face.sign;
  return true;
}

// Where cube point c on face f itself or on the opposite face lies in the coordinates of f
// ([-1, 1] on the face, and a third one across it): its own coordinates in f's frame, 2 across
// the cube from the opposite face (docs/FIDELITY.md "tex.grad on cube maps").
void faceCoords(CubeFace f, const CubePoint& c, double* st) {
  faceFrame(f, c.n, st[0], st[1]);
  st[2] = c.face.sign != f.sign ? 2 : 0;
}

// A difference of face coordinates in [-1, 1] as a normalized one in [0, 1] (an f32 gradient,
// as a 2-d tex.grad's operand), in texels of a face of `size`.
double faceGradient(double to, double from, double size) {
  return double(float((to - from) / 2)) * size;
}

// The gradient, in texels of a face `size` texels wide, from cube point p on face f to a sample
// c on a face g that borders f, as the H200 unfolds c across their edge into f's plane
// (docs/FIDELITY.md "tex.grad on cube maps"): toward g, p's distance to the edge on f (1 less
// its coordinate toward g) plus c's past it on g (1 less its coordinate toward f), each in
// texels cut to kGradientBits of its significand before they are added (the footprint cuts the
// sum again), so the sum reads up to a step of each below the difference of the unfolded point
// 2 - u and p's coordinate: cubegrad 113 -> 6 lines differing, the 107 whose winning gradient
// crosses all right; the two cut at 8 or 10 bits 100 or 48, only c's or p's 74 or 17, rounded
// to nearest 214 (docs/FIDELITY.md "tex.grad on cube maps: the distances to the edge"). Along
// the edge, the difference of the two points' own coordinates, as on f.
void crossingGradient(CubeFace f, const CubePoint& p, const CubePoint& c, double size,
                      double* grad) {
  const CubeFace g = c.face;
  const int third = 3 - f.axis - g.axis;
  double toward[3] = {0, 0, 0}, along[3] = {0, 0, 0}, es, et, fs, ft;
  toward[g.axis] = g.sign;  // g's direction in f's frame: where past f's edge c lies
  along[third] = 1;
  faceFrame(f, toward, es, et);
  faceFrame(f, along, fs, ft);
  const double mine = cutToGradientBits((1 - g.sign * p.n[g.axis]) / 2 * size);
  const double theirs = cutToGradientBits((1 - f.sign * c.n[f.axis]) / 2 * size);
  const double other = faceGradient(c.n[third], p.n[third], size);
  grad[0] = es * (mine + theirs) + fs * other;
  grad[1] = et * (mine + theirs) + ft * other;
  grad[2] = 0;
}

// The level of detail of gradients x and y (`dims` components each, in texels): the log2 of the
// footprint, the longest of the two gradients and, scaled by 11/16, their sum and difference:
// perpendicular gradients read the longer one, parallel ones more (two equal ones 1.375 times
// one); without `diagonals` (a cube-map sample on another face) the longer gradient alone.
// Fitted to the H200 (the mipmap probes' gradient sweeps and texture_forms_probe's gradlod and
// cubegradlod sections, docs/FIDELITY.md "Mipmaps" and "tex.grad's level of detail").
float footprintLod(const double* gx, const double* gy, unsigned dims, bool diagonals) {
  double x[3] = {}, y[3] = {}, sum[3] = {}, diff[3] = {};
  for (unsigned d = 0; d < dims; ++d) {
    x[d] = cutToGradientBits(gx[d]);
    y[d] = cutToGradientBits(gy[d]);
    sum[d] = x[d] + y[d];
    diff[d] = x[d] - y[d];
  }
  double rho = 0;  // a NaN term (inf - inf) counts as none
  for (const double t : {gradientLength(x, dims), gradientLength(y, dims)})
    if (t > rho) rho = t;
  if (diagonals)
    for (const double t : {diagonalTerm(sum, dims), diagonalTerm(diff, dims)})
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
  faceCoords(at.face, at, base);
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
      if (c.face.axis != at.face.axis) {
        crossingGradient(at.face, at, c, o.width, g[k]);
        continue;
      }
      faceCoords(at.face, c, st);
    }
    for (int i = 0; i < 3; ++i) g[k][i] = faceGradient(st[i], base[i], o.width);
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
