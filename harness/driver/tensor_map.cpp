// cuTensorMapEncodeTiled and cuTensorMapEncodeIm2col: the tensor maps that cp.async.bulk.tensor
// reads, in warpsim's encoding (isa/insns/tensor_map.h), written into the caller's 128-byte
// CUtensorMap. The driver API's rules for the arguments are checked there; a broken one is
// CUDA_ERROR_INVALID_VALUE, with the rule as the error's detail. (cuTensorMapEncodeIm2colWide,
// sm_100's, is not provided.)
#include <cstring>

#include "harness/driver/internal.h"
#include "isa/insns/tensor_map.h"

using namespace warpsim::driver;
namespace tmap = warpsim::isa::insns::tmap;

CUresult cuTensorMapEncodeTiled(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                cuuint32_t tensorRank, void* globalAddress,
                                const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
                                const cuuint32_t* boxDim, const cuuint32_t* elementStrides,
                                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                                CUtensorMapL2promotion l2Promotion,
                                CUtensorMapFloatOOBfill oobFill) {
  return api([&](Driver& d) {
    requireContext(d);
    need(tensorMap);
    need(globalDim);
    need(boxDim);
    need(elementStrides);
    if (tensorRank > 1) need(globalStrides);
    if (reinterpret_cast<uintptr_t>(tensorMap) % 64)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, "the tensor map must be 64-byte aligned"};
    tmap::TensorMap m;
    const std::string bad = tmap::encodeTiled(
        m, unsigned(tensorDataType), tensorRank, reinterpret_cast<uint64_t>(globalAddress),
        globalDim, globalStrides, boxDim, elementStrides, unsigned(interleave), unsigned(swizzle),
        unsigned(l2Promotion), unsigned(oobFill));
    if (!bad.empty()) throw ApiError{CUDA_ERROR_INVALID_VALUE, "cuTensorMapEncodeTiled: " + bad};
    tmap::store(m, reinterpret_cast<uint8_t*>(tensorMap));
    return CUDA_SUCCESS;
  });
}

CUresult cuTensorMapEncodeIm2col(CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType,
                                 cuuint32_t tensorRank, void* globalAddress,
                                 const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
                                 const int* pixelBoxLowerCorner, const int* pixelBoxUpperCorner,
                                 cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
                                 const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
                                 CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                 CUtensorMapFloatOOBfill oobFill) {
  return api([&](Driver& d) {
    requireContext(d);
    need(tensorMap);
    need(globalDim);
    need(globalStrides);
    need(pixelBoxLowerCorner);
    need(pixelBoxUpperCorner);
    need(elementStrides);
    if (reinterpret_cast<uintptr_t>(tensorMap) % 64)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, "the tensor map must be 64-byte aligned"};
    tmap::TensorMap m;
    const std::string bad = tmap::encodeIm2col(
        m, unsigned(tensorDataType), tensorRank, reinterpret_cast<uint64_t>(globalAddress),
        globalDim, globalStrides, pixelBoxLowerCorner, pixelBoxUpperCorner, channelsPerPixel,
        pixelsPerColumn, elementStrides, unsigned(interleave), unsigned(swizzle),
        unsigned(l2Promotion), unsigned(oobFill));
    if (!bad.empty()) throw ApiError{CUDA_ERROR_INVALID_VALUE, "cuTensorMapEncodeIm2col: " + bad};
    tmap::store(m, reinterpret_cast<uint8_t*>(tensorMap));
    return CUDA_SUCCESS;
  });
}
