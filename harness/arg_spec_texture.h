// Texture and surface objects as kernel arguments of `warpsim run` (issue 12, "On the command
// line"):
//   NAME=tex1d[W]:FORMAT:FILTER:ADDRESS:norm=0|1[:read=elem|norm][:INIT]
//   NAME=tex2d[W,H]:...   NAME=tex3d[W,H,D]:...
//   NAME=surf1d[W]:FORMAT[:INIT]   surf2d[W,H]   surf3d[W,H,D]
// FORMAT: u8 s8 u16 s16 u32 s32 f16 f32, alone or as a vector (u8x2, f32x4); FILTER: point or
// linear; ADDRESS: wrap, clamp, mirror or border (every axis); read=norm reads 8- and 16-bit
// integers as floats in [0, 1] / [-1, 1] (cudaReadModeNormalizedFloat; the default for linear
// filtering of such formats), read=elem as integers. INIT as for buffers, one value per
// channel, texels in x-fastest order. The object is one buffer: the 128-byte descriptor
// (isa/insns/texture_object.h) followed by its texels; the kernel receives its address.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "harness/arg_spec.h"

namespace warpsim::harness {

// Recognizes a texture or surface argument (after NAME=); nullopt when `text` is not one.
// `parseBuffer` parses the synthesized buffer text of the texels ("u8[64]:random(1)").
std::optional<ParsedArg> parseTextureArg(
    const std::string& text, size_t position,
    const std::function<ParsedArg(const std::string&)>& parseBuffer);

// Whether a buffer holds a texture or surface object made by parseTextureArg (its descriptor,
// then its texels).
bool isTextureObject(const kernels::HostBuffer& b);

}  // namespace warpsim::harness
