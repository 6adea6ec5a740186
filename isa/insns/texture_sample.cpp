#include "isa/insns/texture_sample.h"

#include <algorithm>
#include <cmath>

#include "isa/fp.h"

namespace warpsim::isa::tex {

std::string validate(const Object& o) {
  if (o.magic != kMagic) return "is not a texture or surface object (bad magic)";
  if (o.dims < 1 || o.dims > 3) return "has " + std::to_string(o.dims) + " dimensions";
  if (o.channels != 1 && o.channels != 2 && o.channels != 4)
    return "has " + std::to_string(o.channels) + " channels";
  if (uint8_t(o.channel) > uint8_t(Channel::F32)) return "has an unknown channel format";
  if (uint8_t(o.filter) > uint8_t(Filter::Linear)) return "has an unknown filter mode";
  for (Address a : o.address)
    if (uint8_t(a) > uint8_t(Address::Border)) return "has an unknown address mode";
  if (o.width == 0 || o.height == 0 || o.depth == 0 || o.layers == 0) return "is empty";
  if (o.filter == Filter::Linear && !readsFloat(o))
    return "filters linearly but reads integers (linear filtering needs a float read)";
  return "";
}

double quantizeWeight(double frac) { return std::nearbyint(frac * 256.0) / 256.0; }

namespace {

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
  float u = x;
  if (normalized) {
    // Wrap and mirror fold the coordinate into [0, 1) before scaling, as the guide's
    // pseudo-code does; clamp and border scale it as it is.
    if (mode == Address::Wrap) {
      u = x - std::floor(x);
    } else if (mode == Address::Mirror) {
      const float f = std::floor(x);
      const float r = x - f;
      u = (int64_t(f) & 1) ? 1.0f - r : r;
    }
    u = u * float(size);
  }
  if (std::isnan(u)) u = 0;  // a NaN coordinate reads the first texel (to be measured)
  if (filter == Filter::Point) {
    const double fl = std::floor(double(u));
    const int64_t i = int64_t(std::clamp(fl, -double(1 << 30), double(1 << 30)));
    t.n = 1;
    t.index[0] = addressIndex(i, n, mode, normalized);
    t.weight[0] = 1;
    return t;
  }
  const double xb = double(u) - 0.5;
  const double fl = std::floor(xb);
  const double alpha = quantizeWeight(xb - fl);
  const int64_t i = int64_t(std::clamp(fl, -double(1 << 30), double(1 << 30)));
  t.n = 2;
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

Footprint footprint(const Object& o, const float* coord, const int32_t* icoord, bool integerCoords,
                    uint32_t layer) {
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
  const uint64_t layerBase = o.layered ? uint64_t(std::min(layer, o.layers - 1)) * o.slicePitch : 0;
  Footprint f;
  for (unsigned k = 0; k < axes[2].n; ++k)
    for (unsigned j = 0; j < axes[1].n; ++j)
      for (unsigned i = 0; i < axes[0].n; ++i) {
        Tap& t = f.taps[f.n++];
        t.weight = axes[0].weight[i] * axes[1].weight[j] * axes[2].weight[k];
        const int64_t ix[3] = {axes[0].index[i], axes[1].index[j], axes[2].index[k]};
        if (ix[0] == kBorder || ix[1] == kBorder || ix[2] == kBorder) {
          t.offset = kBorder;
          continue;
        }
        t.offset = int64_t(layerBase);
        for (unsigned d = 0; d < 3; ++d) t.offset += ix[d] * int64_t(strides[d]);
      }
  return f;
}

CubeCoords cubeCoords(float x, float y, float z) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float m, sc, tc;
  uint32_t face;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    m = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    m = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    m = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  }
  if (m == 0) return {0, 0.5f, 0.5f};  // no direction: the centre of face 0 (to be measured)
  return {face, (sc / m + 1) * 0.5f, (tc / m + 1) * 0.5f};
}

Footprint gatherFootprint(const Object& o, float x, float y, uint32_t layer) {
  Object linear = o;
  linear.filter = Filter::Linear;
  linear.dims = 2;
  const float c[2] = {x, y};
  // footprint() orders the taps (i0,j0), (i1,j0), (i0,j1), (i1,j1).
  const Footprint box = footprint(linear, c, nullptr, false, layer);
  Footprint f;
  f.n = 4;
  const unsigned order[4] = {2, 3, 1, 0};
  for (unsigned i = 0; i < 4; ++i) f.taps[i] = {box.taps[order[i]].offset, 0};
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
