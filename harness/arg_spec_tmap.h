// Tensor maps (CUtensorMap, for TMA's cp.async.bulk.tensor) as kernel arguments of
// `warpsim run`:
//   NAME=tmap.TYPE[D0,D1,...]:box=B0,B1,...[:strides=S1,...][:elem=E0,E1,...]
//        [:swizzle=none|32B|64B|128B][:fill=zero|nan][:INIT]
//   NAME=tmap(BUFFER)[D0,D1,...]:box=...   (the same fields, no INIT)
//   NAME=tmap.TYPE[C,W,H,...]:lower=L..:upper=U..:channels=C:pixels=P[:...]   (im2col)
// The first form makes the tensor's buffer, named NAME (for --dump), of TYPE elements
// (u8 u16 u32 s32 u64 s64 f16 bf16 f32 f64) initialized by INIT as a buffer is, and is not a
// kernel parameter itself; the second maps a buffer that an earlier --arg gave the kernel, of
// its element type. D0.. are the tensor's dimensions, innermost first
// (D0 elements are contiguous); strides are the byte distances between consecutive indices
// of dimensions 1.. (default: dense, D0 * element size, then times D1, ...); box is the tile
// a copy moves; elem the element strides of a box (default 1). The kernel receives the
// 128-byte map by value (`const __grid_constant__ CUtensorMap`), encoded as
// cuTensorMapEncodeTiled would be for the buffer's address; its rules (cuda.h) are checked
// here and a broken one is named. With lower=/upper= (the pixel box's corners, signed, one per
// spatial dimension: W first, as the map stores them), channels= (channelsPerPixel) and
// pixels= (pixelsPerColumn) instead of box=, the map is cuTensorMapEncodeIm2col's, of 3 to 5
// dimensions (channels innermost).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/arg_spec.h"

namespace warpsim::harness {

struct TensorMapArg {
  ParsedArg map;                              // map.arg: the kernel parameter
  std::optional<kernels::HostBuffer> tensor;  // the first form: the buffer it made
  bool initialized = false;                   // ... with an INIT
};

// Recognizes a tensor-map argument; nullopt when `text` is not one. `buffers` are the
// problem's buffers so far (a map's tensor is one of them, by name, or comes next, at index
// buffers.size()); `parseBuffer` parses the synthesized text of its own tensor ("f32[5300]:iota").
std::optional<TensorMapArg> parseTensorMapArg(
    const std::string& text, size_t position, const std::vector<kernels::HostBuffer>& buffers,
    const std::function<ParsedArg(const std::string&)>& parseBuffer);

}  // namespace warpsim::harness
