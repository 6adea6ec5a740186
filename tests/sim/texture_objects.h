// Texture and surface objects for kernel tests: a descriptor followed by its texels in one
// buffer, as `warpsim run --arg NAME=tex2d[...]` makes them (the handle is the buffer's address).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "isa/insns/texture_object.h"

namespace warpsim::test {

template <class T>
std::vector<uint8_t> makeObject(isa::tex::Object o, const std::vector<T>& texels) {
  isa::tex::packDense(o);
  std::vector<uint8_t> b(isa::tex::kDescriptorBytes + texels.size() * sizeof(T));
  std::memcpy(b.data(), &o, sizeof o);
  std::memcpy(b.data() + isa::tex::kDescriptorBytes, texels.data(), texels.size() * sizeof(T));
  return b;
}

inline isa::tex::Object object2d(uint32_t w, uint32_t h, isa::tex::Channel c, uint8_t channels,
                                 isa::tex::Filter f, isa::tex::Address a, bool normalized) {
  isa::tex::Object o;
  o.dims = 2;
  o.width = w;
  o.height = h;
  o.channel = c;
  o.channels = channels;
  o.filter = f;
  o.address[0] = o.address[1] = a;
  o.normalizedCoords = normalized;
  return o;
}

}  // namespace warpsim::test
