#include "isa/insns/surface_format.h"

#include <algorithm>

#include "isa/fp.h"

namespace warpsim::isa::tex {

uint32_t formattedChannel(Channel c, uint32_t word) {
  const auto s = int32_t(word);
  switch (c) {
    case Channel::U8:
      return std::min<uint32_t>(word, 0xFF);
    case Channel::U16:
      return std::min<uint32_t>(word, 0xFFFF);
    case Channel::S8:
      return uint32_t(std::clamp<int32_t>(s, -128, 127)) & 0xFF;
    case Channel::S16:
      return uint32_t(std::clamp<int32_t>(s, -32768, 32767)) & 0xFFFF;
    case Channel::F16: {
      // Toward zero (a finite value past 65504 stores 65504); a NaN keeps its sign and the top
      // 10 bits of its payload, unquieted (the H200: 7fbce68d stores 7de7).
      const uint32_t frac = word & 0x7FFFFF;
      if ((word & 0x7F800000) == 0x7F800000 && frac != 0) {
        const uint32_t payload = frac >> 13;
        return (word >> 16 & 0x8000) | 0x7C00 | (payload != 0 ? payload : 0x200);
      }
      return fp::f32ToF16(fp::f32(word), fp::Round::RZ);
    }
    case Channel::U32:
    case Channel::S32:
    case Channel::F32:
      return word;
  }
  return word;
}

}  // namespace warpsim::isa::tex
