// CUDA arrays and texture/surface objects: cuArrayCreate / cuArray3DCreate make densely packed
// arrays in simulator memory (copies reach them through CU_MEMORYTYPE_ARRAY in memory.cpp);
// cuTexObjectCreate / cuSurfObjectCreate write the descriptor warpsim's tex/suld/sust read
// (isa/insns/texture_object.h) into a 128-byte allocation whose address is the handle.
// cuMipmappedArrayCreate packs its levels in one allocation (isa/insns/texture_mipmap.h), each
// level a CudaArray into it (a layered or cube-map level holds all its layers). Sparse arrays and
// resource views are refused (not supported).
#include <algorithm>
#include <cstring>

#include "harness/driver/internal.h"
#include "isa/insns/texture_mipmap.h"
#include "isa/insns/texture_object.h"

using namespace warpsim::driver;
namespace tex = warpsim::isa::tex;

namespace {

// The UNORM/SNORM formats (CU_AD_FORMAT_{UNORM,SNORM}_INT{8,16}X{1,2,4}, 0xc0 .. 0xcb, what
// cudaChannelFormatKind{Uns,S}ignedNormalized{8,16}X{1,2,4} arrays are): unsigned 8, 16, then
// signed 8, 16, each in 1, 2 and 4 channels.
bool isNormalizedFormat(CUarray_format f) {
  return f >= CU_AD_FORMAT_UNORM_INT8X1 && f <= CU_AD_FORMAT_SNORM_INT16X4;
}
unsigned normalizedChannels(CUarray_format f) {
  return 1u << ((unsigned(f) - unsigned(CU_AD_FORMAT_UNORM_INT8X1)) % 3);
}

// The channel type of an array format; throws CUDA_ERROR_INVALID_VALUE for one warpsim lacks.
tex::Channel channelOf(CUarray_format f) {
  if (isNormalizedFormat(f)) {
    static constexpr tex::Channel kTypes[] = {tex::Channel::U8, tex::Channel::U16, tex::Channel::S8,
                                              tex::Channel::S16};
    return kTypes[(unsigned(f) - unsigned(CU_AD_FORMAT_UNORM_INT8X1)) / 3];
  }
  switch (f) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
      return tex::Channel::U8;
    case CU_AD_FORMAT_SIGNED_INT8:
      return tex::Channel::S8;
    case CU_AD_FORMAT_UNSIGNED_INT16:
      return tex::Channel::U16;
    case CU_AD_FORMAT_SIGNED_INT16:
      return tex::Channel::S16;
    case CU_AD_FORMAT_UNSIGNED_INT32:
      return tex::Channel::U32;
    case CU_AD_FORMAT_SIGNED_INT32:
      return tex::Channel::S32;
    case CU_AD_FORMAT_HALF:
      return tex::Channel::F16;
    case CU_AD_FORMAT_FLOAT:
      return tex::Channel::F32;
    default:
      throw ApiError{CUDA_ERROR_INVALID_VALUE,
                     "array format " + std::to_string(int(f)) +
                         " is not simulated (8/16/32-bit ints, half, float)"};
  }
}

void checkArrayDescriptor(const CUDA_ARRAY3D_DESCRIPTOR& desc) {
  channelOf(desc.Format);
  if (desc.NumChannels != 1 && desc.NumChannels != 2 && desc.NumChannels != 4)
    throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  // A UNORM/SNORM format names its channel count.
  if (isNormalizedFormat(desc.Format) && desc.NumChannels != normalizedChannels(desc.Format))
    throw ApiError{CUDA_ERROR_INVALID_VALUE,
                   "array format " + std::to_string(int(desc.Format)) + " has " +
                       std::to_string(normalizedChannels(desc.Format)) + " channels, not " +
                       std::to_string(desc.NumChannels)};
  if (desc.Width == 0 ||
      (desc.Height == 0 && desc.Depth != 0 && !(desc.Flags & CUDA_ARRAY3D_LAYERED)))
    throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  if (desc.Flags &
      ~unsigned(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP))
    throw ApiError{CUDA_ERROR_NOT_SUPPORTED, "sparse and other array flags are not simulated"};
  // A cube map: square faces, 6 of them (6 per cube in a layered one).
  if ((desc.Flags & CUDA_ARRAY3D_CUBEMAP) &&
      (desc.Width != desc.Height || desc.Depth == 0 || desc.Depth % 6 != 0 ||
       (!(desc.Flags & CUDA_ARRAY3D_LAYERED) && desc.Depth != 6)))
    throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
}

// A CudaArray of `desc`'s shape at `data` (an allocation of its own unless `level`).
CUarray addArray(Driver& d, const CUDA_ARRAY3D_DESCRIPTOR& desc, uint64_t data, bool level) {
  auto a = std::make_unique<CudaArray>();
  a->width = desc.Width;
  a->height = desc.Height;
  a->depth = desc.Depth;
  a->format = desc.Format;
  a->channels = desc.NumChannels;
  a->flags = desc.Flags;
  a->pitch = desc.Width * tex::channelBytes(channelOf(desc.Format)) * desc.NumChannels;
  a->slicePitch = a->pitch * (desc.Height ? desc.Height : 1);
  a->level = level;
  a->data = data;
  const CUarray handle = reinterpret_cast<CUarray>(a.get());
  d.arrays[handle] = std::move(a);
  return handle;
}

uint64_t arrayBytes(const CUDA_ARRAY3D_DESCRIPTOR& desc) {
  return uint64_t(desc.Width) * tex::channelBytes(channelOf(desc.Format)) * desc.NumChannels *
         (desc.Height ? desc.Height : 1) * (desc.Depth ? desc.Depth : 1);
}

CUarray createArray(Driver& d, const CUDA_ARRAY3D_DESCRIPTOR& desc) {
  checkArrayDescriptor(desc);
  const uint64_t data =
      d.gpu.memory().allocate(arrayBytes(desc), "CUDA array #" + std::to_string(++d.allocations));
  return addArray(d, desc, data, false);
}

// The descriptor of a mipmapped array's shape with `levels` levels (its level sizes and
// offsets come from there: isa/insns/texture_mipmap.h).
tex::Object mipmapShape(const CUDA_ARRAY3D_DESCRIPTOR& desc, unsigned levels) {
  tex::Object o;
  o.channel = channelOf(desc.Format);
  o.normalizedFormat = isNormalizedFormat(desc.Format);
  o.channels = uint8_t(desc.NumChannels);
  o.width = uint32_t(desc.Width);
  o.height = uint32_t(desc.Height ? desc.Height : 1);
  o.cube = (desc.Flags & CUDA_ARRAY3D_CUBEMAP) != 0;
  o.layered = (desc.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) != 0;
  if (o.layered) {  // Depth counts layers (6 faces a cube), which the levels do not halve
    o.dims = desc.Height ? 2 : 1;
    o.layers = uint32_t(desc.Depth ? desc.Depth : 1);
  } else {
    o.dims = desc.Depth ? 3 : desc.Height ? 2 : 1;
    o.depth = uint32_t(desc.Depth ? desc.Depth : 1);
  }
  o.levels = uint8_t(levels);
  tex::packDense(o);
  return o;
}

CUmipmappedArray createMipmappedArray(Driver& d, const CUDA_ARRAY3D_DESCRIPTOR& desc,
                                      unsigned levels) {
  checkArrayDescriptor(desc);
  const bool layered = desc.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
  // At most the levels down to 1 x 1 x 1: floor(log2(largest size)) + 1 (a layered array's
  // Depth counts layers, not texels).
  const size_t largest = std::max({desc.Width, desc.Height, layered ? size_t(0) : desc.Depth});
  unsigned most = 1;
  while ((largest >> most) != 0) ++most;
  if (levels == 0 || levels > most) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  const tex::Object shape = mipmapShape(desc, levels);
  auto m = std::make_unique<CudaMipmappedArray>();
  m->desc = desc;
  m->data = d.gpu.memory().allocate(tex::mipmapBytes(shape),
                                    "CUDA mipmapped array #" + std::to_string(++d.allocations));
  for (unsigned l = 0; l < levels; ++l) {
    CUDA_ARRAY3D_DESCRIPTOR ld = desc;
    ld.Width = tex::levelSize(uint32_t(desc.Width), l);
    ld.Height = desc.Height ? tex::levelSize(uint32_t(desc.Height), l) : 0;
    ld.Depth = layered || !desc.Depth ? desc.Depth : tex::levelSize(uint32_t(desc.Depth), l);
    m->levels.push_back(addArray(d, ld, m->data + tex::levelOffset(shape, l), true));
  }
  const CUmipmappedArray handle = reinterpret_cast<CUmipmappedArray>(m.get());
  d.mipmappedArrays[handle] = std::move(m);
  return handle;
}

CudaMipmappedArray& mipmappedArrayOf(Driver& d, CUmipmappedArray h) {
  auto it = d.mipmappedArrays.find(h);
  if (it == d.mipmappedArrays.end()) throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
  return *it->second;
}

CudaArray& arrayOf(Driver& d, CUarray h) {
  auto it = d.arrays.find(h);
  if (it == d.arrays.end()) throw ApiError{CUDA_ERROR_INVALID_HANDLE, ""};
  return *it->second;
}

// The descriptor of a resource: its texels' address, shape and format.
tex::Object objectOf(Driver& d, const CUDA_RESOURCE_DESC& r, uint64_t& data) {
  tex::Object o;
  switch (r.resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
      const CudaArray& a = arrayOf(d, r.res.array.hArray);
      o.channel = channelOf(a.format);
      o.normalizedFormat = isNormalizedFormat(a.format);
      o.channels = uint8_t(a.channels);
      o.width = uint32_t(a.width);
      o.cube = (a.flags & CUDA_ARRAY3D_CUBEMAP) != 0;
      o.layered = (a.flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) != 0;
      if (o.layered) {
        o.dims = a.height ? 2 : 1;
        o.height = uint32_t(a.height ? a.height : 1);
        o.layers = uint32_t(a.depth ? a.depth : 1);
      } else {
        o.dims = a.depth ? 3 : a.height ? 2 : 1;
        o.height = uint32_t(a.height ? a.height : 1);
        o.depth = uint32_t(a.depth ? a.depth : 1);
      }
      o.pitch = a.pitch;
      o.slicePitch = a.slicePitch;
      data = a.data;
      return o;
    }
    case CU_RESOURCE_TYPE_LINEAR: {
      o.channel = channelOf(r.res.linear.format);
      o.channels = uint8_t(r.res.linear.numChannels);
      o.dims = 1;
      o.width = uint32_t(r.res.linear.sizeInBytes / tex::texelBytes(o));
      tex::packDense(o);
      data = r.res.linear.devPtr;
      return o;
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
      o.channel = channelOf(r.res.pitch2D.format);
      o.channels = uint8_t(r.res.pitch2D.numChannels);
      o.dims = 2;
      o.width = uint32_t(r.res.pitch2D.width);
      o.height = uint32_t(r.res.pitch2D.height);
      o.pitch = r.res.pitch2D.pitchInBytes;
      o.slicePitch = o.pitch * o.height;
      data = r.res.pitch2D.devPtr;
      return o;
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
      const CudaMipmappedArray& m = mipmappedArrayOf(d, r.res.mipmap.hMipmappedArray);
      data = m.data;
      return mipmapShape(m.desc, unsigned(m.levels.size()));
    }
    default:
      throw ApiError{CUDA_ERROR_INVALID_VALUE, "unknown resource type"};
  }
}

uint64_t writeObject(Driver& d, tex::Object o, uint64_t data, const char* what) {
  const std::string bad = tex::validate(o);
  if (!bad.empty()) throw ApiError{CUDA_ERROR_INVALID_VALUE, std::string(what) + " " + bad};
  const uint64_t handle = d.gpu.memory().allocate(tex::kDescriptorBytes, what);
  o.dataOffset = int64_t(data - handle);
  d.gpu.memory().copyIn(handle, &o, sizeof o);
  d.textureObjects.insert(handle);
  return handle;
}

void destroyObject(Driver& d, uint64_t handle) {
  if (!d.textureObjects.erase(handle)) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  d.gpu.memory().free(handle);
}

}  // namespace

extern "C" {

CUresult cuArray3DCreate(CUarray* array, const CUDA_ARRAY3D_DESCRIPTOR* desc) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(array) = createArray(d, *need(desc));
    return CUDA_SUCCESS;
  });
}

CUresult cuArrayCreate(CUarray* array, const CUDA_ARRAY_DESCRIPTOR* desc) {
  return api([&](Driver& d) {
    requireContext(d);
    need(desc);
    const CUDA_ARRAY3D_DESCRIPTOR d3{desc->Width,  desc->Height,      0,
                                     desc->Format, desc->NumChannels, 0};
    *need(array) = createArray(d, d3);
    return CUDA_SUCCESS;
  });
}

CUresult cuArrayDestroy(CUarray array) {
  return api([&](Driver& d) {
    requireContext(d);
    CudaArray& a = arrayOf(d, array);
    if (a.level) throw ApiError{CUDA_ERROR_INVALID_VALUE, "a mipmap level goes with its array"};
    d.gpu.memory().free(a.data);
    d.arrays.erase(array);
    return CUDA_SUCCESS;
  });
}

CUresult cuMipmappedArrayCreate(CUmipmappedArray* array, const CUDA_ARRAY3D_DESCRIPTOR* desc,
                                unsigned int levels) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(array) = createMipmappedArray(d, *need(desc), levels);
    return CUDA_SUCCESS;
  });
}

CUresult cuMipmappedArrayGetLevel(CUarray* level, CUmipmappedArray array, unsigned int index) {
  return api([&](Driver& d) {
    requireContext(d);
    const CudaMipmappedArray& m = mipmappedArrayOf(d, array);
    if (index >= m.levels.size()) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    *need(level) = m.levels[index];
    return CUDA_SUCCESS;
  });
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray array) {
  return api([&](Driver& d) {
    requireContext(d);
    CudaMipmappedArray& m = mipmappedArrayOf(d, array);
    for (CUarray l : m.levels) d.arrays.erase(l);
    d.gpu.memory().free(m.data);
    d.mipmappedArrays.erase(array);
    return CUDA_SUCCESS;
  });
}

CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR* desc, CUarray array) {
  return api([&](Driver& d) {
    requireContext(d);
    const CudaArray& a = arrayOf(d, array);
    *need(desc) = {a.width, a.height, a.depth, a.format, a.channels, a.flags};
    return CUDA_SUCCESS;
  });
}

CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR* desc, CUarray array) {
  return api([&](Driver& d) {
    requireContext(d);
    const CudaArray& a = arrayOf(d, array);
    *need(desc) = {a.width, a.height, a.format, a.channels};
    return CUDA_SUCCESS;
  });
}

CUresult cuTexObjectCreate(CUtexObject* object, const CUDA_RESOURCE_DESC* res,
                           const CUDA_TEXTURE_DESC* desc, const CUDA_RESOURCE_VIEW_DESC* view) {
  return api([&](Driver& d) {
    requireContext(d);
    need(object);
    need(desc);
    if (view) throw ApiError{CUDA_ERROR_NOT_SUPPORTED, "resource views are not simulated"};
    uint64_t data = 0;
    tex::Object o = objectOf(d, *need(res), data);
    o.kind = tex::Kind::Texture;
    for (unsigned i = 0; i < 3; ++i) {
      if (unsigned(desc->addressMode[i]) > 3) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
      o.address[i] = tex::Address(desc->addressMode[i]);
    }
    if (unsigned(desc->filterMode) > 1) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    o.filter = tex::Filter(desc->filterMode);
    o.normalizedCoords = (desc->flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
    o.seamlessCubemap = (desc->flags & CU_TRSF_SEAMLESS_CUBEMAP) != 0;
    // The driver reads 8- and 16-bit integers as normalized floats unless told to read
    // integers (cudaReadModeElementType sets CU_TRSF_READ_AS_INTEGER); a UNORM/SNORM format's
    // always.
    const bool narrowInt = !tex::isFloatChannel(o.channel) && tex::channelBytes(o.channel) <= 2;
    o.readNormalized =
        narrowInt && (o.normalizedFormat || !(desc->flags & CU_TRSF_READ_AS_INTEGER));
    std::memcpy(o.border, desc->borderColor, sizeof o.border);
    if (unsigned(desc->mipmapFilterMode) > 1) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    o.mipFilter = tex::Filter(desc->mipmapFilterMode);
    o.lodBias = desc->mipmapLevelBias;
    o.minLod = desc->minMipmapLevelClamp;
    o.maxLod = desc->maxMipmapLevelClamp;
    if (res->resType == CU_RESOURCE_TYPE_LINEAR) {
      // tex1Dfetch on linear memory ignores the address mode: outside it reads zeros.
      o.address[0] = o.address[1] = o.address[2] = tex::Address::Border;
      std::memset(o.border, 0, sizeof o.border);
    }
    *object = writeObject(d, o, data, "texture object");
    return CUDA_SUCCESS;
  });
}

CUresult cuTexObjectDestroy(CUtexObject object) {
  return api([&](Driver& d) {
    requireContext(d);
    destroyObject(d, object);
    return CUDA_SUCCESS;
  });
}

CUresult cuSurfObjectCreate(CUsurfObject* object, const CUDA_RESOURCE_DESC* res) {
  return api([&](Driver& d) {
    requireContext(d);
    need(object);
    if (need(res)->resType != CU_RESOURCE_TYPE_ARRAY)
      throw ApiError{CUDA_ERROR_INVALID_VALUE, "a surface object needs a CUDA array"};
    uint64_t data = 0;
    tex::Object o = objectOf(d, *res, data);
    o.kind = tex::Kind::Surface;
    *object = writeObject(d, o, data, "surface object");
    return CUDA_SUCCESS;
  });
}

CUresult cuSurfObjectDestroy(CUsurfObject object) {
  return api([&](Driver& d) {
    requireContext(d);
    destroyObject(d, object);
    return CUDA_SUCCESS;
  });
}

}  // extern "C"
