// Decoding of binary floating-point encodings for the engine (the inline bit views and
// classification helpers live in isa/fp.h).
#include "isa/fp.h"

namespace warpsim::fp {

Unpacked unpack(Format f, uint64_t b) {
  Unpacked u{};
  u.sign = (b & f.signBit()) != 0;
  const int e = int((b >> f.manBits) & uint64_t(f.maxBiased()));
  const uint64_t frac = b & f.fracMask();
  if (e == f.maxBiased()) {
    u.cls = frac ? Class::NaN : Class::Inf;
    u.sig = frac;
  } else if (e == 0) {
    u.cls = frac ? Class::Subnormal : Class::Zero;
    u.sig = frac;
    u.exp = f.emin() - f.manBits;
  } else {
    u.cls = Class::Normal;
    u.sig = frac | (uint64_t{1} << f.manBits);
    u.exp = e - f.bias() - f.manBits;
  }
  return u;
}

}  // namespace warpsim::fp
