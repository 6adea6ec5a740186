// A texture or surface object as warpsim keeps it in device memory: the 64-bit handle a kernel
// receives is the device address of this 128-byte descriptor. The descriptor names its texels
// by an offset from itself, so one allocation can hold the object and its array (what `warpsim
// run --arg NAME=tex2d[...]` makes) and a driver-made object can point at a separate CUDA array
// (cuTexObjectCreate on a cuArrayCreate'd array) alike. A kernel reads it through ordinary
// global loads, so a wrong handle is an out-of-bounds access or a bad-magic fault, never a
// silent wrong texel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace warpsim::isa::tex {

inline constexpr uint32_t kMagic = 0x58455457;  // "WTEX"
inline constexpr uint32_t kDescriptorBytes = 128;

// The element's channel type (CUDA's cudaChannelFormatDesc / CUarray_format).
enum class Channel : uint8_t { U8, S8, U16, S16, U32, S32, F16, F32 };
enum class Filter : uint8_t { Point, Linear };
enum class Address : uint8_t { Wrap, Clamp, Mirror, Border };
enum class Kind : uint8_t { Texture, Surface };

struct Object {
  uint32_t magic = kMagic;
  Kind kind = Kind::Texture;
  uint8_t dims = 1;     // 1, 2 or 3 (a layered texture counts its layers apart)
  uint8_t layered = 0;  // a1d / a2d: `layers` slices of dims-dimensional textures
  Channel channel = Channel::F32;
  uint8_t channels = 1;  // 1, 2 or 4
  Filter filter = Filter::Point;
  Address address[3] = {Address::Clamp, Address::Clamp, Address::Clamp};
  uint8_t normalizedCoords = 0;
  uint8_t readNormalized = 0;  // 8/16-bit integers read as floats in [0,1] / [-1,1]
  uint8_t cube = 0;            // a cube map (6 layers) or cube-map array (6 per cube): layered, 2-d
  uint8_t seamlessCubemap = 0;  // a cube map filters across its faces' edges
  // A UNORM/SNORM array format (cudaChannelFormatKind{Uns,S}ignedNormalized{8,16}X{1,2,4}): its
  // 8/16-bit channels hold normalized values, which sust.p converts f32 to (surface_format.h)
  // and a fetch reads as floats.
  uint8_t normalizedFormat = 0;
  uint8_t pad[6] = {};  // explicit: no implicit padding, so copies of the bytes are deterministic
  uint32_t width = 1, height = 1, depth = 1, layers = 1;  // in texels
  int64_t dataOffset = kDescriptorBytes;  // the first texel's address minus the handle
  uint64_t pitch = 0;                     // bytes from one row to the next
  uint64_t slicePitch = 0;                // bytes from one slice (z or layer) to the next
  float border[4] = {0, 0, 0, 0};
  // Mipmaps (a texture of a mipmapped array; isa/insns/texture_mipmap.h): `levels` levels,
  // level l of max(1, size >> l) texels per axis, packed densely one after another from the
  // first texel; a fetch's level of detail plus lodBias is clamped to [minLod, maxLod].
  uint8_t levels = 1;
  Filter mipFilter = Filter::Point;
  uint8_t pad2[2] = {};
  float minLod = 0, maxLod = 0, lodBias = 0;
  uint8_t reserved[32] = {};
};
static_assert(sizeof(Object) == kDescriptorBytes);
// The descriptor is copied byte for byte into device memory and hashed by recordings: a hole
// of implicit padding would carry indeterminate bytes (it did: resize_bilinear's input hash
// changed from process to process). Every byte belongs to a member.
static_assert(offsetof(Object, width) == offsetof(Object, pad) + sizeof(Object::pad));
static_assert(offsetof(Object, dataOffset) == offsetof(Object, layers) + sizeof(uint32_t));
static_assert(offsetof(Object, levels) == offsetof(Object, border) + sizeof(Object::border));
static_assert(offsetof(Object, minLod) == offsetof(Object, pad2) + sizeof(Object::pad2));
static_assert(offsetof(Object, reserved) + sizeof(Object::reserved) == kDescriptorBytes);

inline unsigned channelBytes(Channel c) {
  switch (c) {
    case Channel::U8:
    case Channel::S8:
      return 1;
    case Channel::U16:
    case Channel::S16:
    case Channel::F16:
      return 2;
    default:
      return 4;
  }
}
inline unsigned texelBytes(const Object& o) { return channelBytes(o.channel) * o.channels; }
inline bool isFloatChannel(Channel c) { return c == Channel::F16 || c == Channel::F32; }
inline bool isSignedChannel(Channel c) {
  return c == Channel::S8 || c == Channel::S16 || c == Channel::S32;
}

// Fills pitch and slicePitch for densely packed texels.
inline void packDense(Object& o) {
  o.pitch = uint64_t(o.width) * texelBytes(o);
  o.slicePitch = o.pitch * (o.dims >= 2 ? o.height : 1);
}
// Bytes of texel data a densely packed object holds.
inline uint64_t dataBytes(const Object& o) {
  return o.slicePitch * (o.dims == 3 ? o.depth : 1) * (o.layered ? o.layers : 1);
}

// What is wrong with a descriptor read from device memory; "" when it is usable.
std::string validate(const Object& o);

}  // namespace warpsim::isa::tex
