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

// Whether sured.p reduces a sample of this channel type as signed (.s32/.s64).
inline bool reducesSigned(Channel c) { return isSignedChannel(c); }

}  // namespace warpsim::isa::tex
