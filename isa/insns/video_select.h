// What the video instructions (video.cpp, video_simd.cpp) share: reading a selected byte,
// half-word or word of a register, sign- or zero-extended (PTX ISA 9.7.10, partSelectSignExtend
// and extractAndSignExt_2/_4), vset's comparison of the extended operands, and the bind-time
// checks of selectors.
#pragma once

#include <cstdint>
#include <string>

#include "isa/mods.h"
#include "isa/program.h"

namespace warpsim::isa::insns {

// The scalar video selector of `o` (.b0-.b3, .h0-.h1 or none) applied to `v`, extended by
// `sign`.
inline int64_t partSelect(uint32_t v, bool sign, const Opnd& o) {
  const unsigned idx = o.selDigits & 0xF;
  if (o.selKind == 'b') {
    const uint32_t b = (v >> (8 * idx)) & 0xFF;
    return sign ? int64_t(int8_t(b)) : int64_t(b);
  }
  if (o.selKind == 'h') {
    const uint32_t h = (v >> (16 * idx)) & 0xFFFF;
    return sign ? int64_t(int16_t(h)) : int64_t(h);
  }
  return sign ? int64_t(int32_t(v)) : int64_t(v);
}

// vset's and vset2/4's comparison (.eq .ne .lt .le .gt .ge; the binders refuse the others) of
// two operands already extended by their types.
inline bool videoCompare(Cmp c, int64_t a, int64_t b) {
  switch (c) {
    case Cmp::Eq:
      return a == b;
    case Cmp::Ne:
      return a != b;
    case Cmp::Lt:
      return a < b;
    case Cmp::Le:
      return a <= b;
    case Cmp::Gt:
      return a > b;
    default:
      return a >= b;
  }
}

// "" when `o` has no selector or a scalar one (.b0-.b3, .h0, .h1); else what is wrong.
inline std::string checkScalarSelector(const Opnd& o) {
  if (o.selKind == 0) return "";
  const unsigned idx = o.selDigits & 0xF;
  if (o.selCount == 1 && ((o.selKind == 'b' && idx < 4) || (o.selKind == 'h' && idx < 2)))
    return "";
  return "takes .b0-.b3 or .h0-.h1 as a scalar selector";
}

}  // namespace warpsim::isa::insns
