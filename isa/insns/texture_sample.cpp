#include "isa/insns/texture_sample.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "isa/fp.h"

namespace warpsim::isa::tex {

std::string validate(const Object& o) {
  if (o.magic != kMagic) return "is not a texture or surface object (bad magic)";
  if (o.dims < 1 || o.dims > 3) return "has " + std::to_string(o.dims) + " dimensions";
  if (o.channels != 1 && o.channels != 2 && o.channels != 4)
    return "has " + std::to_string(o.channels) + " channels";
  if (uint8_t(o.channel) > uint8_t(Channel::F32)) return "has an unknown channel format";
  if (o.normalizedFormat > 1 ||
      (o.normalizedFormat && (isFloatChannel(o.channel) || channelBytes(o.channel) > 2)))
    return "has a normalized format on channels that are not 8- or 16-bit integers";
  if (uint8_t(o.filter) > uint8_t(Filter::Linear)) return "has an unknown filter mode";
  for (Address a : o.address)
    if (uint8_t(a) > uint8_t(Address::Border)) return "has an unknown address mode";
  if (o.width == 0 || o.height == 0 || o.depth == 0 || o.layers == 0) return "is empty";
  if (o.filter == Filter::Linear && !readsFloat(o))
    return "filters linearly but reads integers (linear filtering needs a float read)";
  if (o.levels == 0 || o.levels > 16) return "has " + std::to_string(o.levels) + " mipmap levels";
  if (uint8_t(o.mipFilter) > uint8_t(Filter::Linear)) return "has an unknown mipmap filter mode";
  if (!std::isfinite(o.minLod) || !std::isfinite(o.maxLod) || !std::isfinite(o.lodBias))
    return "has a level-of-detail clamp or bias that is not finite";
  return "";
}

double quantizeWeight(double frac) { return std::floor(frac * 256.0 + 0.5) / 256.0; }

namespace {

// std::llround without the library call (a fifth of a filtered fetch's instructions went to
// libm): x - trunc(x) is exact for every double, so the tie test is too. |x| < 2^62.
int64_t roundHalfAway(double x) {
  const double t = std::trunc(x), r = x - t;
  return int64_t(t) + (r >= 0.5) - (r <= -0.5);
}

// std::ldexp(x, q) for q in the normal range, as a multiplication by 2^q (exact).
double timesPow2(double x, int q) {
  if (q < -1022 || q > 1023) return std::ldexp(x, q);
  return x * std::bit_cast<double>(uint64_t(q + 1023) << 52);
}

int64_t wrapIndex(int64_t i, int64_t n) { return ((i % n) + n) % n; }

int64_t mirrorIndex(int64_t i, int64_t n) {
  const int64_t m = wrapIndex(i, 2 * n);
  return m < n ? m : 2 * n - 1 - m;
}

// Applies the address mode to one integer texel index.
int64_t addressIndex(int64_t i, int64_t n, Address mode, bool normalized) {
  if (normalized && mode == Address::Wrap) return wrapIndex(i, n);
  if (normalized && mode == Address::Mirror) return mirrorIndex(i, n);
  if (mode == Address::Border) return i < 0 || i >= n ? kBorder : i;
  return std::clamp<int64_t>(i, 0, n - 1);
}

}  // namespace

AxisTaps axisTaps(float x, uint32_t size, Address mode, bool normalized, Filter filter) {
  AxisTaps t;
  const int64_t n = size;
  double u =
      std::isnan(x) ? 0.0 : double(x);  // a NaN coordinate reads the first texel (to be measured)
  if (normalized) {
    // The H200 holds a normalized coordinate in fixed point, truncated (toward -inf) to
    // kCoordFractionBits fractional bits; wrap and mirror fold it there (the guide's x - floor(x)
    // and reflection) and the scaling by the size is exact (docs/FIDELITY.md "Textures").
    const int64_t one = int64_t(1) << kCoordFractionBits;
    const int64_t q = int64_t(std::floor(std::clamp(u, -double(1 << 30), double(1 << 30)) * one));
    const int64_t r = wrapIndex(q, one), whole = (q - r) / one;
    int64_t folded = q;
    if (mode == Address::Wrap) folded = r;
    if (mode == Address::Mirror) folded = wrapIndex(whole, 2) ? one - r : r;
    u = double(folded) * double(size) / double(one);
  }
  if (filter == Filter::Point) {
    const double fl = std::floor(u);
    const int64_t i = int64_t(std::clamp(fl, -double(1 << 30), double(1 << 30)));
    t.n = 1;
    t.index[0] = addressIndex(i, n, mode, normalized);
    t.weight[0] = 1;
    return t;
  }
  // Clamp addressing (and unnormalized wrap and mirror, which address as clamp) holds the
  // coordinate between the first and last texel centres: past them the second texel's weight is
  // 0, not a share of the same texel read twice, which shows where the weights are rounded
  // (h100_3000.txt's 3-d lanes, docs/FIDELITY.md "Textures").
  if (mode == Address::Clamp || (!normalized && mode != Address::Border))
    u = std::clamp(u, 0.5, double(size) - 0.5);
  const double xb = u - 0.5;
  const double fl = std::floor(xb);
  const double alpha = quantizeWeight(xb - fl);
  const int64_t i = int64_t(std::clamp(fl, -double(1 << 30), double(1 << 30)));
  t.n = 2;
  t.first = i;
  t.index[0] = addressIndex(i, n, mode, normalized);
  t.index[1] = addressIndex(i + 1, n, mode, normalized);
  t.weight[0] = 1 - alpha;
  t.weight[1] = alpha;
  return t;
}

AxisTaps axisTapsInt(int32_t i, uint32_t size, Address mode) {
  AxisTaps t;
  t.n = 1;
  t.index[0] = addressIndex(i, size, mode == Address::Border ? mode : Address::Clamp, false);
  t.weight[0] = 1;
  return t;
}

namespace {

// Rounds p / d half up (p >= 0): the filter unit's rounding of a weight product.
uint32_t roundHalfUp(uint32_t p, uint32_t d) { return (p + d / 2) / d; }

// splitWeights of two axes with second-texel weights a (the first axis) and b: the first axis
// splits the total, then each half splits along the second: the first texel's half rounds its
// first share, the second its second (at a total of 256: w11 = round(a b), w10 = a - w11,
// w01 = b - w11, w00 the rest).
inline void splitTwoAxes(uint32_t a, uint32_t b, uint32_t total, uint32_t* out) {
  const uint32_t second = roundHalfUp(a * total, 256), first = total - second;
  const uint32_t w00 = roundHalfUp(first * (256 - b), 256), w11 = roundHalfUp(second * b, 256);
  out[0] = w00;           // (first, first)
  out[1] = second - w11;  // (second of p, first of q)
  out[2] = first - w00;
  out[3] = w11;
}

}  // namespace

// The combined weights of the taps in 1/256 units, in the footprint's order (x fastest), from
// each axis's weight of its second texel (0..256). Fitted to the H200's linear fetches
// (tests/recorded/texture/, docs/FIDELITY.md "Textures"): each product of two weights is
// rounded to 8 fractional bits while the weights of every texel along an axis keep their sum.
// 2-d: w11 = round(a b), w10 = a - w11, w01 = b - w11, the rest to 256 (the first x texel's
// column rounds its first y share, the second its second). 3-d: z splits first, then each z
// slice's share splits as a 2-d footprint's total does (h100_3000.txt). A mipmap blend
// splits each level's share of 256 (`total`) the same way (mipmap_probe.h200.txt: l1, l2 lod).
void splitWeights(const unsigned n[3], const uint32_t alpha[3], uint32_t total, uint32_t* out) {
  const unsigned axes = (n[0] == 2) + (n[1] == 2) + (n[2] == 2);
  if (axes <= 1) {
    const unsigned d = n[0] == 2 ? 0 : n[1] == 2 ? 1 : 2;
    if (axes == 0) {
      out[0] = total;
      return;
    }
    out[1] = roundHalfUp(alpha[d] * total, 256);
    out[0] = total - out[1];
    return;
  }
  if (axes == 2) {
    const unsigned p = n[0] == 2 ? 0 : 1, q = n[2] == 2 ? 2 : 1;
    splitTwoAxes(alpha[p], alpha[q], total, out);
    return;
  }
  // 3-d: z splits the total first, then each z slice splits its share as a 2-d footprint does.
  const uint32_t secondZ = roundHalfUp(alpha[2] * total, 256);
  const unsigned xy[3] = {n[0], n[1], 1};
  splitWeights(xy, alpha, total - secondZ, out);
  splitWeights(xy, alpha, secondZ, out + 4);
}

Footprint footprint(const Object& o, const float* coord, const int32_t* icoord, bool integerCoords,
                    uint32_t layer) {
  Footprint f;
  footprint(o, coord, icoord, integerCoords, layer, f);
  return f;
}

void footprint(const Object& o, const float* coord, const int32_t* icoord, bool integerCoords,
               uint32_t layer, Footprint& f) {
  const uint32_t sizes[3] = {o.width, o.height, o.depth};
  const uint64_t strides[3] = {texelBytes(o), o.pitch, o.slicePitch};
  AxisTaps axes[3];
  for (unsigned d = 0; d < 3; ++d) {
    if (d >= o.dims) {
      axes[d].n = 1;
      axes[d].index[0] = 0;
      axes[d].weight[0] = 1;
    } else if (integerCoords) {
      axes[d] = axisTapsInt(icoord[d], sizes[d], o.address[d]);
    } else {
      axes[d] = axisTaps(coord[d], sizes[d], o.address[d], o.normalizedCoords != 0, o.filter);
    }
  }
  // The H200 filters a 1-d texture as a 2-d one of height 1 sampled at y = 0, i.e. half-way
  // between row 0 and row -1: under border addressing half of every result is the border
  // color (measured: tests/recorded/texture/, docs/FIDELITY.md "Textures").
  if (o.dims == 1 && !integerCoords && o.filter == Filter::Linear)
    axes[1] = axisTaps(0.0f, 1, o.address[1], o.normalizedCoords != 0, o.filter);
  uint32_t alpha[3], weights[8];
  unsigned counts[3];
  for (unsigned d = 0; d < 3; ++d) {
    counts[d] = axes[d].n;
    alpha[d] = axes[d].n == 2 ? uint32_t(roundHalfAway(axes[d].weight[1] * 256)) : 0;
  }
  splitWeights(counts, alpha, 256, weights);
  const uint64_t layerBase = o.layered ? uint64_t(std::min(layer, o.layers - 1)) * o.slicePitch : 0;
  f.n = 0;
  f.corner = -1;
  for (unsigned d = 0; d < 3; ++d) {
    f.count[d] = uint8_t(counts[d]);
    f.alpha[d] = uint16_t(alpha[d]);
  }
  for (unsigned k = 0; k < axes[2].n; ++k)
    for (unsigned j = 0; j < axes[1].n; ++j)
      for (unsigned i = 0; i < axes[0].n; ++i) {
        Tap& t = f.taps[f.n];
        t.weight = weights[f.n++] / 256.0;
        const int64_t ix[3] = {axes[0].index[i], axes[1].index[j], axes[2].index[k]};
        if (ix[0] == kBorder || ix[1] == kBorder || ix[2] == kBorder) {
          t.offset = kBorder;
          continue;
        }
        t.offset = int64_t(layerBase);
        for (unsigned d = 0; d < 3; ++d) t.offset += ix[d] * int64_t(strides[d]);
      }
}

CubeCoords cubeCoords(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float m, sc, tc;
  uint32_t face;
  // Ties of the major axis (edges and corners) go to the later axis, z before y before x (the
  // H200: mipmap_probe.h200.txt, Cp cube at (1, -1, -1) reads face 5, at (1, -1, -0.97) face 3).
  if (az >= ax && az >= ay) {
    face = z >= 0 ? 4 : 5;
    m = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  } else if (ay >= ax) {
    face = y >= 0 ? 2 : 3;
    m = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    face = x >= 0 ? 0 : 1;
    m = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  }
  // No direction (zero, or NaN: every comparison above fails) reads face +z as the zero vector
  // picks it, at the centre (the H200, mipmap_probe.h200.txt: Cp, Cl cube at 0 and NaN).
  if (!(m > 0)) return {4, 0.5f, 0.5f};
  return {face, (sc / m + 1) * 0.5f, (tc / m + 1) * 0.5f};
}

namespace {

// The direction whose cubeCoords are face `face` at (sc, tc) in [-1, 1] (its inverse; the
// major axis 1).
void faceDirection(uint32_t face, float sc, float tc, float* d) {
  switch (face) {
    case 0:
      d[0] = 1, d[1] = -tc, d[2] = -sc;
      return;
    case 1:
      d[0] = -1, d[1] = -tc, d[2] = sc;
      return;
    case 2:
      d[0] = sc, d[1] = 1, d[2] = tc;
      return;
    case 3:
      d[0] = sc, d[1] = -1, d[2] = -tc;
      return;
    case 4:
      d[0] = sc, d[1] = -tc, d[2] = 1;
      return;
    default:
      d[0] = -sc, d[1] = -tc, d[2] = -1;
      return;
  }
}

// The footprint's tap (of the four, k = x + 2 y) past both edges of an n-texel face, or -1.
int tapPastBothEdges(const AxisTaps& ax, const AxisTaps& ay, int64_t n) {
  for (unsigned k = 0; k < 4; ++k) {
    const int64_t i = ax.first + (k & 1), j = ay.first + (k >> 1);
    if ((i < 0 || i >= n) && (j < 0 || j >= n)) return int(k);
  }
  return -1;
}

}  // namespace

// A seamless footprint's tap k past both edges of its face (at a cube's corner, where three faces
// meet and no fourth texel is) reads nothing: its weight (w of 256) goes to the other three taps,
// a third each: w / 3 rounded to nearest to the two across the edges, the rest to the face's own
// corner texel (the H200, mipmap_probe.h200.txt: at the exact corners the three weigh 85, 85 and
// 86 of 256; w / 3 truncated leaves 12 of the Cs lines near a corner differing, rounded none;
// docs/FIDELITY.md "Seamless cube maps").
void cornerWeightToItsNeighbours(unsigned k, uint32_t* weights) {
  const uint32_t third = (weights[k] + 1) / 3;
  weights[k ^ 1] += third;
  weights[k ^ 2] += third;
  weights[k ^ 3] += weights[k] - 2 * third;
  weights[k] = 0;
}

int seamlessCubeFootprint(const Object& o, float s, float t, uint32_t cubeBase, uint32_t face,
                          Footprint& f) {
  const int64_t n = o.width;
  const AxisTaps ax = axisTaps(s, o.width, Address::Border, true, Filter::Linear);
  const AxisTaps ay = axisTaps(t, o.height, Address::Border, true, Filter::Linear);
  const unsigned counts[3] = {2, 2, 1};
  const uint32_t alpha[3] = {uint32_t(roundHalfAway(ax.weight[1] * 256)),
                             uint32_t(roundHalfAway(ay.weight[1] * 256)), 0};
  uint32_t weights[4];
  splitWeights(counts, alpha, 256, weights);
  const int corner = tapPastBothEdges(ax, ay, n);
  if (corner >= 0) cornerWeightToItsNeighbours(unsigned(corner), weights);
  f.n = 4;
  f.corner = int8_t(corner);
  for (unsigned d = 0; d < 3; ++d) {
    f.count[d] = uint8_t(counts[d]);
    f.alpha[d] = uint16_t(alpha[d]);
  }
  for (unsigned k = 0; k < 4; ++k) {
    int64_t i = ax.first + (k & 1), j = ay.first + (k >> 1);
    uint32_t onFace = face;
    if (i < 0 || i >= n || j < 0 || j >= n) {
      // The tap's centre as a direction, and the texel of the face it points into.
      float dir[3];
      faceDirection(face, 2 * (float(i) + 0.5f) / float(n) - 1,
                    2 * (float(j) + 0.5f) / float(n) - 1, dir);
      const CubeCoords c = cubeCoords(dir[0], dir[1], dir[2]);
      onFace = c.face;
      i = std::clamp<int64_t>(int64_t(std::floor(c.s * float(n))), 0, n - 1);
      j = std::clamp<int64_t>(int64_t(std::floor(c.t * float(n))), 0, n - 1);
    }
    const uint64_t layer = std::min<uint64_t>(cubeBase + onFace, o.layers - 1);
    f.taps[k] = {
        int64_t(layer * o.slicePitch + uint64_t(j) * o.pitch + uint64_t(i) * texelBytes(o)),
        weights[k] / 256.0};
  }
  return corner;
}

namespace {

// tld4's order of footprint()'s taps ((i0,j0), (i1,j0), (i0,j1), (i1,j1)): tld4's tap i is
// footprint's kFootprintTap[i], (i0,j1), (i1,j1), (i1,j0), (i0,j0) as tex2Dgather returns them.
constexpr unsigned kFootprintTap[4] = {2, 3, 1, 0};

// Footprint tap k's place in tld4's order.
unsigned gatherIndexOf(unsigned k) {
  unsigned i = 0;
  while (kFootprintTap[i] != k) ++i;
  return i;
}

}  // namespace

Footprint gatherFootprint(const Object& o, float x, float y, uint32_t layer) {
  Object linear = o;
  linear.filter = Filter::Linear;
  linear.dims = 2;
  const float c[2] = {x, y};
  // footprint() orders the taps (i0,j0), (i1,j0), (i0,j1), (i1,j1).
  const Footprint box = footprint(linear, c, nullptr, false, layer);
  Footprint f;
  f.n = 4;
  for (unsigned i = 0; i < 4; ++i) f.taps[i] = {box.taps[kFootprintTap[i]].offset, 0};
  return f;
}

Footprint cubeGatherFootprint(const Object& o, float x, float y, float z, uint32_t cubeIndex,
                              CubeCorner& corner) {
  const CubeCoords cc = cubeCoords(x, y, z);
  Object face = o;
  face.normalizedCoords = 1;
  face.filter = Filter::Linear;
  face.dims = 2;
  Footprint box;
  int past = -1;
  if (o.seamlessCubemap) {
    past = seamlessCubeFootprint(face, cc.s, cc.t, cubeIndex * 6, cc.face, box);
  } else {
    const float st[2] = {cc.s, cc.t};
    footprint(face, st, nullptr, false, cubeIndex * 6 + cc.face, box);
  }
  // Both order the taps as footprint() does; tld4 returns them as gatherFootprint.
  Footprint f;
  f.n = 4;
  for (unsigned i = 0; i < 4; ++i) f.taps[i] = {box.taps[kFootprintTap[i]].offset, 0};
  corner = CubeCorner{};
  if (past >= 0) {
    uint32_t w[4] = {0, 0, 0, 0};
    w[past] = 256;
    cornerWeightToItsNeighbours(unsigned(past), w);
    corner.tap = int(gatherIndexOf(unsigned(past)));
    for (unsigned i = 0; i < 3; ++i) {
      const unsigned k = unsigned(past) ^ (i + 1);  // across x, across y, the face's own
      corner.others[i] = gatherIndexOf(k);
      corner.weights[i] = w[k];
    }
  }
  return f;
}

float channelAsFloat(const Object& o, const uint8_t* texel, unsigned c) {
  const uint8_t* p = texel + c * channelBytes(o.channel);
  uint32_t u32 = 0;
  std::memcpy(&u32, p, channelBytes(o.channel));
  switch (o.channel) {
    case Channel::F32:
      return fp::f32(u32);
    case Channel::F16:
      return fp::f16ToF32(uint16_t(u32));
    case Channel::U8:
      return float(u32 & 0xFF) / 255.0f;
    case Channel::S8:
      return std::max(float(int8_t(u32)) / 127.0f, -1.0f);
    case Channel::U16:
      return float(u32 & 0xFFFF) / 65535.0f;
    case Channel::S16:
      return std::max(float(int16_t(u32)) / 32767.0f, -1.0f);
    case Channel::U32:
      return float(u32);
    case Channel::S32:
      return float(int32_t(u32));
  }
  return 0;
}

namespace {

// floor(a / b) for b > 0.
int64_t floorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }

// A normalized 8/16-bit channel widened to the filter's 16 bits (15 and a sign when signed), in
// eighths of the 16-bit unit: s8 is v (-128 too: only the result is clamped to -1) times
// 258 + 1/128, floored to three bits below the 16 (fitted to tests/recorded/texture/,
// docs/FIDELITY.md "Textures"), the others are whole units.
int64_t widened16Eighths(const Object& o, const uint8_t* texel, unsigned c) {
  const uint8_t* p = texel + c * channelBytes(o.channel);
  switch (o.channel) {
    case Channel::U8:
      return int64_t(p[0]) * 257 * 8;
    case Channel::S8:
      return floorDiv(int64_t(int8_t(p[0])) * 33025, 16);
    case Channel::U16:
      return int64_t(uint16_t(p[0] | p[1] << 8)) * 8;
    default:  // S16
      return int64_t(int16_t(uint16_t(p[0] | p[1] << 8))) * 8;
  }
}

}  // namespace

namespace {

// The filter's block of texels (filteredFloatSum) keeps the result's significand and this many
// bits more: 28 bits for f32 texels, 15 for f16.
constexpr int kFilterBlockGuardBits = 4;

// frexp's exponent of a finite nonzero float, read off its bits (|v| < 2^e, >= 2^(e - 1)).
int frexpExponent(float v) {
  const uint32_t bits = std::bit_cast<uint32_t>(v), field = bits >> 23 & 0xFF;
  if (field) return int(field) - 126;
  return 32 - std::countl_zero(bits & 0x7FFFFF) - 149;  // a subnormal
}

// x (exact in a double) rounded to a float of `digits` significant bits whose exponents reach
// down to emin (subnormals below), ties away from zero; 0 gives +0.
double roundHalfAwayTo(double x, int digits, int emin) {
  if (x == 0) return 0;
  // |x| < 2^e: off the bits for a normal x (frexp's exponent), from frexp otherwise.
  const int field = int(std::bit_cast<uint64_t>(x) >> 52 & 0x7FF);
  int e = field - 1022;
  if (field == 0 || field == 0x7FF) std::frexp(x, &e);
  const int q = std::max(e - 1, emin) - digits + 1;  // the exponent of the result's last bit
  // timesPow2 is exact (x has at most 53 bits) and the scaled value below 2^(digits + 1).
  return timesPow2(double(roundHalfAway(timesPow2(x, -q))), q);
}

// n 2^q (n exact) rounded to a float of `digits` significant bits whose exponents reach down to
// emin (subnormals below), ties away from zero.
double roundHalfAwayTo(__int128 n, int q, int digits, int emin) {
  if (n == 0) return 0;
  const bool negative = n < 0;
  unsigned __int128 m = negative ? -static_cast<unsigned __int128>(n) : n;
  int bitsOfM = 0;
  for (unsigned __int128 t = m; t; t >>= 1) ++bitsOfM;
  // The result's last bit is at 2^r: `digits` below the leading bit, or emin's last bit.
  const int r = std::max(q + bitsOfM - 1, emin) - digits + 1;
  if (r > q) {
    const int shift = r - q;
    if (shift >= 127) return 0;  // far below the smallest subnormal's half
    const unsigned __int128 half = static_cast<unsigned __int128>(1) << (shift - 1);
    m = (m + half) >> shift;  // ties (exactly half) round up in magnitude: away from zero
  } else {
    m <<= q - r;
  }
  const double x = timesPow2(double(uint64_t(m)), r);
  return negative ? -x : x;
}

// The weighted sum of texels as IEEE arithmetic has it (the terms with a weight and a nonzero
// value, in tap order): what an infinity or a NaN gives.
template <class W>
double plainSum(const W* w, const float* v, unsigned n) {
  double plain = 0;
#pragma GCC unroll 4
  for (unsigned t = 0; t < n; ++t)
    if (w[t] != 0 && v[t] != 0) plain += double(w[t]) * double(v[t]);
  return plain;
}

// One group's block sum (filteredFloatSum): `units` in units of 2^q, the terms cut to a block of
// `block` bits below the leading bit of the largest weighted texel; false when no term has both
// a weight and a nonzero value.
template <class W>
bool groupUnits(const W* w, const float* v, unsigned n, int block, double& units, int& q) {
  int top = INT32_MIN;
#pragma GCC unroll 4
  for (unsigned t = 0; t < n; ++t)
    if (w[t] != 0 && v[t] != 0) top = std::max(top, frexpExponent(v[t]));
  if (top == INT32_MIN) return false;
  const double toUnits = timesPow2(1.0, block - top);
  units = 0;
#pragma GCC unroll 4
  for (unsigned t = 0; t < n; ++t)
    if (w[t] != 0 && v[t] != 0) units += double(w[t]) * std::trunc(double(v[t]) * toUnits);
  q = top - block - 8;
  return true;
}

// The weighted sum of float texels (weights in 1/256) rounded once, ties away from zero, to f32
// (digits 24) or f16 (digits 11): the H200's filter rounding (tests/recorded/texture/: exact
// sums that fall on a tie round away from zero, docs/FIDELITY.md "Textures").
double filteredFloatSum(const Object& o, const Footprint& f, const uint8_t* const* texels,
                        unsigned c, int digits, int emin) {
  int64_t w[kMaxTaps];
  float v[kMaxTaps];
  for (unsigned t = 0; t < f.n; ++t) {
    w[t] = roundHalfAway(f.taps[t].weight * 256);
    if (f.taps[t].offset == kBorder)
      v[t] = o.border[c];
    else if (o.channel == Channel::F32)  // channelAsFloat's case, without the call
      std::memcpy(&v[t], texels[t] + 4 * c, 4);
    else
      v[t] = channelAsFloat(o, texels[t], c);
  }
  const double plain = plainSum(w, v, f.n);
  if (!std::isfinite(plain)) return plain;
  // The texels enter the filter in a block format: each cut, toward zero, to a multiple of
  // 2^(top - block), where 2^(top - 1) is the leading bit of the largest texel that has a weight
  // in its group and the block keeps `block` bits from there: the result's digits and 4 more (28
  // for f32, 15 for f16). A group is the whole footprint in 1-d and 2-d (both levels of a mipmap
  // blend too), and each z slice of each level in 3-d (4 taps: x fastest, then y, then z).
  // Fitted to 1,541,497 f32 lanes of resize_bilinear on the chip, all of which it gives, to the
  // f16 lanes of the first texture recording, and (the 3-d slices) to the 3-d f32 and f16 lanes
  // of the second (docs/FIDELITY.md "Textures": the filter's block of texels). A group's
  // weighted texels are multiples of 2^(top - block - 8) below 2^(top + 8): their sum (at most
  // 16 terms) fits a double's 53 bits exactly, and the groups are added exactly below.
  const int block = digits + kFilterBlockGuardBits;
  const unsigned groupSize = o.dims == 3 && o.filter == Filter::Linear ? 4 : f.n;
  struct Group {
    double units;  // the group's sum in units of 2^q
    int q;
  } groups[kMaxTaps];
  unsigned n = 0;
  for (unsigned g = 0; g < f.n; g += groupSize) {
    double units;
    int q;
    if (groupUnits(w + g, v + g, std::min(groupSize, f.n - g), block, units, q) && units != 0)
      groups[n++] = {units, q};
  }
  if (n == 0) return 0;
  if (n == 1) return roundHalfAwayTo(groups[0].units * timesPow2(1.0, groups[0].q), digits, emin);
  // Several groups: added exactly in a 128-bit integer in units of the finest group's 2^q,
  // 80 bits below the coarsest at most (a group further down only decides the rounding of what
  // would otherwise be a tie, so it counts as one unit there with its sign).
  int qMax = INT32_MIN, qMin = INT32_MAX;
  for (unsigned i = 0; i < n; ++i) qMax = std::max(qMax, groups[i].q);
  for (unsigned i = 0; i < n; ++i) qMin = std::min(qMin, std::max(groups[i].q, qMax - 80));
  __int128 sum = 0;
  for (unsigned i = 0; i < n; ++i) {
    const __int128 units = __int128(int64_t(groups[i].units));  // below 2^53: exact
    if (groups[i].q < qMin)
      sum += units > 0 ? 1 : -1;
    else
      sum += units * (static_cast<__int128>(1) << (groups[i].q - qMin));
  }
  return roundHalfAwayTo(sum, qMin, digits, emin);
}

}  // namespace

float filteredChannel(const Object& o, const Footprint& f, const uint8_t* const* texels,
                      unsigned c) {
  if (c >= o.channels) return missingChannel(c);
  const bool fixed = !isFloatChannel(o.channel);
  if (!fixed) {
    if (o.channel == Channel::F16)
      return fp::f16ToF32(fp::f64ToF16(filteredFloatSum(o, f, texels, c, 11, -14), fp::Round::RN));
    return float(filteredFloatSum(o, f, texels, c, 24, -126));
  }
  const bool isSigned = isSignedChannel(o.channel);
  const int64_t den = isSigned ? 32767 : 65535;
  int64_t sum = 0;  // in units of 2^-8 (the weights) times 1/8 (the texels) of the 16-bit value
  for (unsigned t = 0; t < f.n; ++t) {
    const int64_t w = roundHalfAway(f.taps[t].weight * 256);
    if (w == 0) continue;
    const int64_t v =
        f.taps[t].offset == kBorder
            ? 8 * std::clamp<int64_t>(roundHalfAway(double(o.border[c]) * double(den)), -den, den)
            : widened16Eighths(o, texels[t], c);
    sum += w * v;
  }
  const int64_t x = floorDiv(sum + 1024, 2048);  // rounded half up to whole 16-bit units
  const float r = float(double(x) / double(den));
  return isSigned ? std::max(r, -1.0f) : r;
}

bool isPlainBilinearF32(const Object& o) {
  return o.dims == 2 && !o.layered && !o.cube && o.levels <= 1 && o.channel == Channel::F32 &&
         o.filter == Filter::Linear && !o.normalizedCoords && o.address[0] != Address::Border &&
         o.address[1] != Address::Border && o.width <= (1u << 30) && o.height <= (1u << 30);
}

namespace {

// One axis of a plain bilinear fetch: axisTaps' linear case under clamp addressing (the
// coordinate held between the first and last texel centres, the texels clamped) and
// footprint's alpha of it (the second texel's weight in 1/256). size <= 2^30, so axisTaps'
// clamp of the index to 2^30 never bites.
struct ClampedAxis {
  uint64_t i0, i1;
  uint32_t alpha;
};
inline ClampedAxis clampedAxis(float x, uint32_t size) {
  const double u = std::clamp(std::isnan(x) ? 0.0 : double(x), 0.5, double(size) - 0.5);
  // u - 0.5 in 2^-24ths is a whole number below 2^54 (u is a float of at least 0.5, whose last
  // bit is at 2^-24 or above, or size - 0.5), exact in a double: the texel is its floor, a
  // shift, and quantizeWeight's floor(frac 256 + 1/2) (in 256ths: roundHalfAway of it is itself)
  // its fraction's top bits rounded half up.
  const uint64_t fixed = uint64_t(int64_t((u - 0.5) * 0x1p24));
  const uint64_t i = fixed >> 24;  // in [0, size - 1]
  return {i, std::min<uint64_t>(i + 1, size - 1), uint32_t(((fixed & 0xFFFFFF) + 0x8000) >> 16)};
}

}  // namespace

Bilinear bilinearTaps(const Object& o, float x, float y) {
  const ClampedAxis ax = clampedAxis(x, o.width), ay = clampedAxis(y, o.height);
  Bilinear b;
  splitTwoAxes(ax.alpha, ay.alpha, 256, b.weight);
  const uint64_t texel = texelBytes(o);
  const uint64_t xs[2] = {ax.i0 * texel, ax.i1 * texel}, ys[2] = {ay.i0 * o.pitch, ay.i1 * o.pitch};
  for (unsigned j = 0; j < 2; ++j)
    for (unsigned i = 0; i < 2; ++i) b.offset[2 * j + i] = xs[i] + ys[j];
  return b;
}

namespace {

// bilinearF32 as filteredFloatSum has it (its plain sum, block and rounding in doubles): where a
// texel is an infinity or a NaN (out of line: the registers it needs cost every call a frame).
[[gnu::noinline]] float bilinearF32General(const float* v, const uint32_t* w) {
  const double plain = plainSum(w, v, 4);
  if (!std::isfinite(plain)) return float(plain);
  double units;
  int q;
  if (!groupUnits(w, v, 4, 24 + kFilterBlockGuardBits, units, q) || units == 0) return 0.0f;
  return float(roundHalfAwayTo(units * timesPow2(1.0, q), 24, -126));
}

}  // namespace

float bilinearF32(const float* v, const uint32_t* w) {
  // filteredFloatSum of one group of four taps, none of them a border tap (digits 24), without
  // its branches where every texel is finite: the block's leading bit is that of the largest
  // texel with a weight (frexp's exponent rises with the magnitude), a term without a weight or
  // value adds an exact 0, and the group's units (a whole number below 2^38) round to f32 in
  // integers. Its general form was three quarters of the plain bilinear fetch's instructions.
  constexpr int kBlock = 24 + kFilterBlockGuardBits;
  uint32_t special = 0, topMag = 0;
#pragma GCC unroll 4
  for (unsigned t = 0; t < 4; ++t) {
    const uint32_t mag = std::bit_cast<uint32_t>(v[t]) & 0x7FFFFFFF;
    special |= mag >= 0x7F800000;
    topMag = std::max(topMag, w[t] ? mag : 0);
  }
  if (special) return bilinearF32General(v, w);
  if (topMag == 0) return 0.0f;
  const int top = frexpExponent(std::bit_cast<float>(topMag));
  const double toUnits = timesPow2(1.0, kBlock - top);
  double sum = 0;
#pragma GCC unroll 4
  for (unsigned t = 0; t < 4; ++t) sum += double(w[t]) * std::trunc(double(v[t]) * toUnits);
  const int64_t units = int64_t(sum);  // exact: below 2^38
  if (units == 0) return 0.0f;
  // roundHalfAwayTo(units 2^q, 24, -126): 24 significant bits whose last is at 2^r >= 2^-149,
  // the half added to the magnitude (ties away from zero).
  const int q = top - kBlock - 8;
  const uint64_t u = units < 0 ? uint64_t(-units) : uint64_t(units);
  const int r = std::max(q + 63 - std::countl_zero(u), -126) - 23;
  uint64_t m;
  if (r <= q)
    m = u << (q - r);
  else if (r - q < 64)
    m = (u + (uint64_t(1) << (r - q - 1))) >> (r - q);
  else
    m = 0;
  if (m == 0) return 0.0f;  // below half the smallest subnormal: +0, whatever the sign
  const double x = timesPow2(double(m), r);
  return float(units < 0 ? -x : x);
}

uint32_t channelAsInt(const Object& o, const uint8_t* texel, unsigned c) {
  const uint8_t* p = texel + c * channelBytes(o.channel);
  uint32_t u32 = 0;
  std::memcpy(&u32, p, channelBytes(o.channel));
  switch (o.channel) {
    case Channel::S8:
      return uint32_t(int32_t(int8_t(u32)));
    case Channel::S16:
      return uint32_t(int32_t(int16_t(u32)));
    default:
      return u32;
  }
}

}  // namespace warpsim::isa::tex
