// The tensor map (CUtensorMap, 128 bytes, 64-byte aligned) that cp.async.bulk.tensor reads.
// CUDA leaves its contents opaque; this is warpsim's encoding, written by the driver's
// cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col (harness/driver/tensor_map.cpp) and by the
// suite and tests through encodeTiled / encodeIm2col below, and read by isa/insns/bulk_copy.cpp.
// The encoders check what the CUDA driver API documents for them (cuda.h) and name the first
// broken rule.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace warpsim::isa::insns::tmap {

inline constexpr uint32_t kMagic = 0x504D5457;  // "WTMP"

// CUtensorMapDataType (the packed 4/6-bit types are not simulated).
enum class DataType : uint8_t {
  U8,
  U16,
  U32,
  S32,
  U64,
  S64,
  F16,
  F32,
  F64,
  BF16,
  F32Ftz,
  TF32,
  TF32Ftz,
};
inline constexpr unsigned kDataTypes = 13;

inline unsigned elementBytes(DataType t) {
  static constexpr uint8_t kBytes[kDataTypes] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return kBytes[unsigned(t)];
}
inline bool isFloat(DataType t) { return unsigned(t) >= unsigned(DataType::F16); }

// CUtensorMapSwizzle's first four (the 128B atom variants are not simulated).
enum class Swizzle : uint8_t { None, B32, B64, B128 };

struct TensorMap {
  uint32_t magic = kMagic;
  DataType dataType = DataType::U8;
  uint8_t rank = 1;
  uint8_t interleave = 0;
  Swizzle swizzle = Swizzle::None;
  uint8_t l2Promotion = 0;
  uint8_t oobFillNaN = 0;  // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
  uint8_t im2col = 0;      // made by cuTensorMapEncodeIm2col: boxDim holds the im2col fields
  uint8_t reserved0 = 0;
  uint32_t reserved1 = 0;
  uint64_t globalAddress = 0;
  uint32_t globalDimMinus1[5] = {};  // globalDim - 1 (globalDim may be 2^32)
  // Tiled: the box. Im2col: [0] channelsPerPixel, [1] pixelsPerColumn, [2 + i] spatial
  // dimension i's (W first) pixelBoxLowerCorner in the low 16 bits and upper corner in the high.
  uint32_t boxDim[5] = {};
  uint32_t elementStrides[5] = {};
  uint32_t reserved2 = 0;
  uint64_t globalStrides[5] = {};  // bytes; [0] is the element size
};
static_assert(sizeof(TensorMap) == 128);

inline uint64_t globalDim(const TensorMap& m, unsigned d) {
  return uint64_t(m.globalDimMinus1[d]) + 1;
}
// Elements a box holds along dimension d: ceil(boxDim / elementStride) (dimension 0's stride is
// ignored, as the driver documents for non-interleaved maps).
inline unsigned boxElements(const TensorMap& m, unsigned d) {
  const unsigned s = d == 0 ? 1 : m.elementStrides[d];
  return (m.boxDim[d] + s - 1) / s;
}
// An im2col map's fields.
inline unsigned channelsPerPixel(const TensorMap& m) { return m.boxDim[0]; }
inline unsigned pixelsPerColumn(const TensorMap& m) { return m.boxDim[1]; }
inline int lowerCorner(const TensorMap& m, unsigned i) { return int16_t(m.boxDim[2 + i]); }
inline int upperCorner(const TensorMap& m, unsigned i) { return int16_t(m.boxDim[2 + i] >> 16); }

inline unsigned boxBytes(const TensorMap& m) {
  if (m.im2col) return channelsPerPixel(m) * pixelsPerColumn(m) * elementBytes(m.dataType);
  unsigned n = elementBytes(m.dataType);
  for (unsigned d = 0; d < m.rank; ++d) n *= boxElements(m, d);
  return n;
}

// The arguments of cuTensorMapEncodeTiled, as integers. Returns "" and fills `out`, or the rule
// that is broken (the driver returns CUDA_ERROR_INVALID_VALUE).
inline std::string encodeTiled(TensorMap& out, unsigned dataType, unsigned rank,
                               uint64_t globalAddress, const uint64_t* globalDims,
                               const uint64_t* globalStrides, const uint32_t* boxDim,
                               const uint32_t* elementStrides, unsigned interleave,
                               unsigned swizzle, unsigned l2Promotion, unsigned oobFill) {
  if (dataType >= kDataTypes)
    return "tensorDataType " + std::to_string(dataType) + " is not simulated";
  if (rank == 0 || rank > 5) return "tensorRank must be 1..5";
  if (interleave > 2) return "interleave must be NONE, 16B or 32B";
  if (interleave != 0) return "interleaved layouts are not simulated";
  if (swizzle > 3)
    return "swizzle must be NONE, 32B, 64B or 128B (the 128B atom modes are not simulated)";
  if (l2Promotion > 3) return "l2Promotion must be NONE, 64B, 128B or 256B";
  if (oobFill > 1) return "oobFill must be NONE or NAN_REQUEST_ZERO_FMA";
  const DataType t = DataType(dataType);
  if (oobFill == 1 && !isFloat(t))
    return "oobFill NAN_REQUEST_ZERO_FMA needs a floating-point type";
  if (globalAddress % 16) return "globalAddress must be 16-byte aligned";
  TensorMap m;
  m.dataType = t;
  m.rank = uint8_t(rank);
  m.swizzle = Swizzle(swizzle);
  m.l2Promotion = uint8_t(l2Promotion);
  m.oobFillNaN = uint8_t(oobFill);
  m.globalAddress = globalAddress;
  const unsigned e = elementBytes(t);
  m.globalStrides[0] = e;
  for (unsigned d = 0; d < rank; ++d) {
    const std::string at = "[" + std::to_string(d) + "]";
    if (globalDims[d] == 0 || globalDims[d] > (uint64_t(1) << 32))
      return "globalDim" + at + " must be 1..2^32";
    m.globalDimMinus1[d] = uint32_t(globalDims[d] - 1);
    if (boxDim[d] == 0 || boxDim[d] > 256) return "boxDim" + at + " must be 1..256";
    m.boxDim[d] = boxDim[d];
    if (elementStrides[d] == 0 || elementStrides[d] > 8)
      return "elementStrides" + at + " must be 1..8";
    m.elementStrides[d] = elementStrides[d];
    if (d + 1 < rank) {
      const uint64_t s = globalStrides[d];
      if (s % 16 || s >= (uint64_t(1) << 40))
        return "globalStrides" + at + " must be a multiple of 16 below 2^40";
      m.globalStrides[d + 1] = s;
    }
  }
  if ((uint64_t(boxDim[0]) * e) % 16)
    return "boxDim[0] * the element size must be a multiple of 16 bytes";
  static constexpr unsigned kSpan[] = {0, 32, 64, 128};
  if (swizzle != 0 && uint64_t(boxDim[0]) * e > kSpan[swizzle])
    return "the box's inner dimension (" + std::to_string(uint64_t(boxDim[0]) * e) +
           " bytes) exceeds the swizzle span of " + std::to_string(kSpan[swizzle]) + " bytes";
  out = m;
  return "";
}

// The arguments of cuTensorMapEncodeIm2col, as integers (the corners W first, rank - 2 of
// each). Returns "" and fills `out`, or the rule that is broken.
inline std::string encodeIm2col(TensorMap& out, unsigned dataType, unsigned rank,
                                uint64_t globalAddress, const uint64_t* globalDims,
                                const uint64_t* globalStrides, const int* lower, const int* upper,
                                unsigned channelsPerPixel, unsigned pixelsPerColumn,
                                const uint32_t* elementStrides, unsigned interleave,
                                unsigned swizzle, unsigned l2Promotion, unsigned oobFill) {
  if (rank < 3 || rank > 5) return "tensorRank must be 3, 4 or 5";
  // The tiled rules for what the two share (a box of 16 bytes of channels passes them).
  uint32_t box[5] = {16 / elementBytes(DataType(dataType < kDataTypes ? dataType : 0)), 1, 1, 1, 1};
  TensorMap m;
  if (std::string bad = encodeTiled(m, dataType, rank, globalAddress, globalDims, globalStrides,
                                    box, elementStrides, interleave, swizzle, l2Promotion, oobFill);
      !bad.empty())
    return bad;
  const int limit = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
  for (unsigned i = 0; i + 2 < rank; ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    const std::string range =
        " must be in [" + std::to_string(-limit) + ", " + std::to_string(limit - 1) + "]";
    if (lower[i] < -limit || lower[i] >= limit) return "pixelBoxLowerCorner" + at + range;
    if (upper[i] < -limit || upper[i] >= limit) return "pixelBoxUpperCorner" + at + range;
    if (int64_t(globalDims[i + 1]) - 1 + upper[i] < lower[i])
      return "the bounding box (pixelBoxLowerCorner to pixelBoxUpperCorner) must have non-zero "
             "area";
    m.boxDim[2 + i] = uint32_t(uint16_t(lower[i])) | uint32_t(uint16_t(upper[i])) << 16;
  }
  if (channelsPerPixel == 0 || channelsPerPixel > 256) return "channelsPerPixel must be 1..256";
  if (pixelsPerColumn == 0 || pixelsPerColumn > 1024) return "pixelsPerColumn must be 1..1024";
  const unsigned inner = channelsPerPixel * elementBytes(m.dataType);
  if (inner % 16) return "channelsPerPixel * the element size must be a multiple of 16 bytes";
  static constexpr unsigned kSpan[] = {0, 32, 64, 128};
  if (swizzle != 0 && inner > kSpan[swizzle])
    return "the bounding box's inner dimension (" + std::to_string(inner) +
           " bytes) exceeds the swizzle span of " + std::to_string(kSpan[swizzle]) + " bytes";
  m.im2col = 1;
  m.boxDim[0] = channelsPerPixel;
  m.boxDim[1] = pixelsPerColumn;
  out = m;
  return "";
}

// The tensor map in 128 bytes, and back (false: not one of warpsim's).
inline void store(const TensorMap& m, uint8_t* bytes) { std::memcpy(bytes, &m, sizeof m); }
inline bool load(const uint8_t* bytes, TensorMap& m) {
  std::memcpy(&m, bytes, sizeof m);
  // (An im2col map's fields are checked too: bytes a kernel wrote must not make a walk of
  // billions of pixels, or of a negative number of spatial dimensions.)
  const bool im2colOk =
      m.im2col == 0 || (m.im2col == 1 && m.rank >= 3 && m.boxDim[0] >= 1 && m.boxDim[0] <= 256 &&
                        m.boxDim[1] >= 1 && m.boxDim[1] <= 1024);
  return m.magic == kMagic && m.rank >= 1 && m.rank <= 5 && unsigned(m.dataType) < kDataTypes &&
         im2colOk;
}

}  // namespace warpsim::isa::insns::tmap
