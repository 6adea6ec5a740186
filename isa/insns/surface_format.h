// The formatted surface forms (PTX ISA, "Surface Instructions": sust.p, sured.p): what a surface
// sample's format makes of a 32-bit source word, and how a reduction reads the sample.
//
// sust.p takes each source word as .f32 when the format holds floats (UNORM, SNORM or FLOAT),
// .u32 for UINT and .s32 for SINT data, and converts it to the channel; sured.p reduces the
// sample as .u32/.u64 (UINT) or .s32/.s64 (SINT). As measured on the chip (docs/FIDELITY.md
// "Texture and surface forms", scripts/probes/texture/texture_forms_probe.cu): integers
// saturate to a narrower channel, an f32 goes to f16 toward zero (NaN payloads cut, not
// quieted), a channel the vector lacks is written as 0.
#pragma once

#include <cstdint>

#include "isa/insns/texture_object.h"

namespace warpsim::isa::tex {

// The bits sust.p stores in one channel of type `c` (its low channelBytes(c) bytes) for the
// source word `word`.
uint32_t formattedChannel(Channel c, uint32_t word);
// The same for a UNORM/SNORM format's channel of type `c` (U8, U16, S8, S16; Object::
// normalizedFormat): the word is an f32, as measured on the chip (docs/FIDELITY.md, "Texture and
// surface forms"): NaN stores 0; |x| clamped to 1 (a negative x to 0 when unsigned) is cut toward
// zero to 4 bits below the channel's step (n + 4 fractional bits, n = 8 or 16 value bits, 7 or
// 15 when signed), multiplied by 2^n - 1 and rounded to nearest with ties toward zero; the sign
// is put back (-1 stores -127, not -128).
uint32_t normalizedChannel(Channel c, uint32_t word);

// Whether sured.p reduces a sample of this channel type as signed (.s32/.s64).
inline bool reducesSigned(Channel c) { return isSignedChannel(c); }

}  // namespace warpsim::isa::tex
