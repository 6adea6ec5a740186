#include "harness/cuda_texture.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstring>
#include <stdexcept>

#include "isa/insns/texture_object.h"

namespace warpsim::harness {

namespace tex = isa::tex;

struct CudaTextures::Api {
  CUresult (*arrayCreate)(CUarray*, const CUDA_ARRAY3D_DESCRIPTOR*) = nullptr;
  CUresult (*arrayDestroy)(CUarray) = nullptr;
  CUresult (*memcpy3D)(const CUDA_MEMCPY3D*) = nullptr;
  CUresult (*texCreate)(CUtexObject*, const CUDA_RESOURCE_DESC*, const CUDA_TEXTURE_DESC*,
                        const CUDA_RESOURCE_VIEW_DESC*) = nullptr;
  CUresult (*texDestroy)(CUtexObject) = nullptr;
  CUresult (*surfCreate)(CUsurfObject*, const CUDA_RESOURCE_DESC*) = nullptr;
  CUresult (*surfDestroy)(CUsurfObject) = nullptr;
};

struct CudaTextures::Object {
  tex::Object desc;
  CUarray array = nullptr;
  uint64_t handle = 0;
};

namespace {

template <class F>
void bindEntry(void* lib, F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
}

CUarray_format formatOf(tex::Channel c) {
  switch (c) {
    case tex::Channel::U8:
      return CU_AD_FORMAT_UNSIGNED_INT8;
    case tex::Channel::S8:
      return CU_AD_FORMAT_SIGNED_INT8;
    case tex::Channel::U16:
      return CU_AD_FORMAT_UNSIGNED_INT16;
    case tex::Channel::S16:
      return CU_AD_FORMAT_SIGNED_INT16;
    case tex::Channel::U32:
      return CU_AD_FORMAT_UNSIGNED_INT32;
    case tex::Channel::S32:
      return CU_AD_FORMAT_SIGNED_INT32;
    case tex::Channel::F16:
      return CU_AD_FORMAT_HALF;
    case tex::Channel::F32:
      return CU_AD_FORMAT_FLOAT;
  }
  return CU_AD_FORMAT_FLOAT;
}

// The array's copy: texel rows between host memory and the array.
CUDA_MEMCPY3D arrayCopy(const tex::Object& o, CUarray array, const void* host, bool toArray) {
  CUDA_MEMCPY3D c;
  std::memset(&c, 0, sizeof c);
  const size_t rows = o.dims >= 2 ? o.height : 1;
  const size_t slices = (o.dims == 3 ? o.depth : 1) * (o.layered ? o.layers : 1);
  if (toArray) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host;
    c.srcPitch = o.pitch;
    c.srcHeight = rows;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = array;
  } else {
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = array;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = const_cast<void*>(host);
    c.dstPitch = o.pitch;
    c.dstHeight = rows;
  }
  c.WidthInBytes = size_t(o.width) * tex::texelBytes(o);
  c.Height = rows;
  c.Depth = slices;
  return c;
}

}  // namespace

CudaTextures::CudaTextures(void* lib, void (*check)(int, const char*, const void*),
                           const void* self)
    : api_(std::make_unique<Api>()), check_(check), self_(self) {
  bindEntry(lib, api_->arrayCreate, "cuArray3DCreate_v2");
  bindEntry(lib, api_->arrayDestroy, "cuArrayDestroy");
  bindEntry(lib, api_->memcpy3D, "cuMemcpy3D_v2");
  bindEntry(lib, api_->texCreate, "cuTexObjectCreate");
  bindEntry(lib, api_->texDestroy, "cuTexObjectDestroy");
  bindEntry(lib, api_->surfCreate, "cuSurfObjectCreate");
  bindEntry(lib, api_->surfDestroy, "cuSurfObjectDestroy");
}

CudaTextures::~CudaTextures() {
  while (!objects_.empty()) release(objects_.begin()->first);
}

void CudaTextures::adopt(uint64_t address, const void* bytes, uint64_t size) {
  release(address);
  if (size < tex::kDescriptorBytes) return;
  tex::Object o;
  std::memcpy(&o, bytes, sizeof o);
  if (o.magic != tex::kMagic || !tex::validate(o).empty() ||
      o.dataOffset != int64_t(tex::kDescriptorBytes) ||
      tex::kDescriptorBytes + tex::dataBytes(o) > size)
    return;
  if (!api_->arrayCreate || !api_->memcpy3D || !api_->texCreate || !api_->surfCreate)
    throw std::runtime_error("libcuda.so.1 lacks the texture object entry points");
  Object* obj = (objects_[address] = std::make_unique<Object>(Object{o, nullptr, 0})).get();
  CUDA_ARRAY3D_DESCRIPTOR ad;
  std::memset(&ad, 0, sizeof ad);
  ad.Width = o.width;
  ad.Height = o.dims >= 2 ? o.height : 0;
  ad.Depth = o.dims == 3 ? o.depth : o.layered ? o.layers : 0;
  ad.Format = formatOf(o.channel);
  ad.NumChannels = o.channels;
  ad.Flags = (o.layered ? CUDA_ARRAY3D_LAYERED : 0) |
             (o.kind == tex::Kind::Surface ? CUDA_ARRAY3D_SURFACE_LDST : 0);
  check_(api_->arrayCreate(&obj->array, &ad), "cuArray3DCreate_v2", self_);
  const CUDA_MEMCPY3D c =
      arrayCopy(o, obj->array, static_cast<const uint8_t*>(bytes) + tex::kDescriptorBytes, true);
  check_(api_->memcpy3D(&c), "cuMemcpy3D_v2", self_);
  CUDA_RESOURCE_DESC res;
  std::memset(&res, 0, sizeof res);
  res.resType = CU_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = obj->array;
  if (o.kind == tex::Kind::Surface) {
    CUsurfObject s = 0;
    check_(api_->surfCreate(&s, &res), "cuSurfObjectCreate", self_);
    obj->handle = s;
    return;
  }
  CUDA_TEXTURE_DESC td;
  std::memset(&td, 0, sizeof td);
  for (unsigned i = 0; i < 3; ++i) td.addressMode[i] = CUaddress_mode(o.address[i]);
  td.filterMode = CUfilter_mode(o.filter);
  const bool narrowInt = !tex::isFloatChannel(o.channel) && tex::channelBytes(o.channel) <= 2;
  td.flags = (o.normalizedCoords ? CU_TRSF_NORMALIZED_COORDINATES : 0) |
             (narrowInt && !o.readNormalized ? CU_TRSF_READ_AS_INTEGER : 0);
  std::memcpy(td.borderColor, o.border, sizeof td.borderColor);
  CUtexObject t = 0;
  check_(api_->texCreate(&t, &res, &td, nullptr), "cuTexObjectCreate", self_);
  obj->handle = t;
}

uint64_t CudaTextures::handleFor(uint64_t address) const {
  auto it = objects_.find(address);
  return it == objects_.end() ? 0 : it->second->handle;
}

void CudaTextures::copyBack(uint64_t address, void* dst, uint64_t size) {
  auto it = objects_.find(address);
  if (it == objects_.end() || it->second->desc.kind != tex::Kind::Surface) return;
  const tex::Object& o = it->second->desc;
  if (tex::kDescriptorBytes + tex::dataBytes(o) > size) return;
  const CUDA_MEMCPY3D c =
      arrayCopy(o, it->second->array, static_cast<uint8_t*>(dst) + tex::kDescriptorBytes, false);
  check_(api_->memcpy3D(&c), "cuMemcpy3D_v2", self_);
}

void CudaTextures::release(uint64_t address) {
  auto it = objects_.find(address);
  if (it == objects_.end()) return;
  const std::unique_ptr<Object> obj = std::move(it->second);
  objects_.erase(it);
  if (obj->handle) {
    if (obj->desc.kind == tex::Kind::Surface && api_->surfDestroy)
      api_->surfDestroy(obj->handle);
    else if (api_->texDestroy)
      api_->texDestroy(obj->handle);
  }
  if (obj->array && api_->arrayDestroy) api_->arrayDestroy(obj->array);
}

}  // namespace warpsim::harness
