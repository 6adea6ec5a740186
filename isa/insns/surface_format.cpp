#include "isa/insns/surface_format.h"

#include <algorithm>
#include <cmath>

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

uint32_t normalizedChannel(Channel c, uint32_t word) {
  const bool isSigned = isSignedChannel(c);
  const unsigned bits = channelBytes(c) * 8, n = bits - (isSigned ? 1 : 0), cut = n + 4;
  const float x = fp::f32(word);
  if (std::isnan(x) || (!isSigned && x <= 0)) return 0;
  // |x| in [0, 1] scaled by 2^cut and cut toward zero: exact in a double (24 significant bits).
  const auto t = uint64_t(std::ldexp(std::min(double(std::fabs(x)), 1.0), int(cut)));
  const uint64_t y = t * ((uint64_t{1} << n) - 1);  // in units of 2^-cut
  const uint64_t half = uint64_t{1} << (cut - 1);
  // Nearest, ties toward zero: ceil(y / 2^cut - 1/2).
  const uint64_t r = y <= half ? 0 : (y - half + (uint64_t{1} << cut) - 1) >> cut;
  const int64_t v = x < 0 ? -int64_t(r) : int64_t(r);
  return uint32_t(v) & uint32_t((uint64_t{1} << bits) - 1);
}

}  // namespace warpsim::isa::tex
