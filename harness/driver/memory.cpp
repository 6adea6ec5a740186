// Device, host-pinned, mapped, registered and managed memory; copies and fills. Every copy and
// fill runs when it is called (the asynchronous forms too: in-order execution is a valid
// schedule), through Driver::resolve, which finds where each address's bytes live.
#include <cstring>

#include "harness/driver/device_attributes.h"
#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

// One side of a 2D/3D copy: its base address, row pitch and rows per slice. A CUDA array
// (harness/driver/texture.cpp) is densely packed: its own pitch and height replace the copy's.
struct Side {
  uint64_t base;
  size_t pitch, height;
};

Side side(Driver& d, CUmemorytype type, const void* host, CUdeviceptr device, CUarray array,
          size_t pitch, size_t height) {
  switch (type) {
    case CU_MEMORYTYPE_HOST:
      return {addr(host), pitch, height};
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
      return {device, pitch, height};
    case CU_MEMORYTYPE_ARRAY: {
      auto it = d.arrays.find(array);
      if (it == d.arrays.end()) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
      const CudaArray& a = *it->second;
      return {a.data, a.pitch, a.height ? a.height : 1};
    }
    default:
      throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
  }
}

}  // namespace

namespace warpsim::driver {

void copy3D(Driver& d, const CUDA_MEMCPY3D& c) {
  const Side src = side(d, c.srcMemoryType, c.srcHost, c.srcDevice, c.srcArray, c.srcPitch,
                        c.srcHeight ? c.srcHeight : c.Height);
  const Side dst = side(d, c.dstMemoryType, c.dstHost, c.dstDevice, c.dstArray, c.dstPitch,
                        c.dstHeight ? c.dstHeight : c.Height);
  for (size_t z = 0; z < c.Depth; ++z)
    for (size_t row = 0; row < c.Height; ++row)
      d.copy(dst.base + ((c.dstZ + z) * dst.height + c.dstY + row) * dst.pitch + c.dstXInBytes,
             src.base + ((c.srcZ + z) * src.height + c.srcY + row) * src.pitch + c.srcXInBytes,
             c.WidthInBytes);
}

void fill2D(Driver& d, CUdeviceptr dst, size_t pitch, uint64_t value, unsigned bytes, size_t width,
            size_t height) {
  for (size_t row = 0; row < height; ++row) d.fill(dst + row * pitch, value, bytes, width);
}

}  // namespace warpsim::driver

namespace {

// A 2-D copy is a 3-D copy of depth 1.
CUDA_MEMCPY3D as3D(const CUDA_MEMCPY2D& c) {
  CUDA_MEMCPY3D x{};
  x.srcXInBytes = c.srcXInBytes;
  x.srcY = c.srcY;
  x.srcMemoryType = c.srcMemoryType;
  x.srcHost = c.srcHost;
  x.srcDevice = c.srcDevice;
  x.srcArray = c.srcArray;
  x.srcPitch = c.srcPitch;
  x.dstXInBytes = c.dstXInBytes;
  x.dstY = c.dstY;
  x.dstMemoryType = c.dstMemoryType;
  x.dstHost = c.dstHost;
  x.dstDevice = c.dstDevice;
  x.dstArray = c.dstArray;
  x.dstPitch = c.dstPitch;
  x.WidthInBytes = c.WidthInBytes;
  x.Height = c.Height;
  x.Depth = 1;
  return x;
}

// A linear copy of n bytes between any two addresses.
CUDA_MEMCPY3D linearCopy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  CUDA_MEMCPY3D x{};
  x.srcMemoryType = x.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  x.srcDevice = src;
  x.dstDevice = dst;
  x.WidthInBytes = n;
  x.Height = x.Depth = 1;
  return x;
}

// Every copy and fill goes through these two: a node of the capture's graph when stream `s`
// captures (graph.h), else done now. The synchronous forms pass the legacy stream.
CUresult copyOn(const CUDA_MEMCPY3D& c, CUstream s = nullptr) {
  return api([&](Driver& d) {
    requireContext(d);
    if (GraphNode* n = captureNode(d, s, CU_GRAPH_NODE_TYPE_MEMCPY))
      n->copy = c;
    else
      copy3D(d, c);
    return CUDA_SUCCESS;
  });
}

CUresult fillOn(CUdeviceptr dst, size_t pitch, uint64_t value, unsigned bytes, size_t width,
                size_t height, CUstream s = nullptr) {
  return api([&](Driver& d) {
    requireContext(d);
    if (dst % bytes) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    if (GraphNode* n = captureNode(d, s, CU_GRAPH_NODE_TYPE_MEMSET))
      n->fill = {dst, pitch, unsigned(value), bytes, width, height};
    else
      fill2D(d, dst, pitch, value, bytes, width, height);
    return CUDA_SUCCESS;
  });
}

CUresult copyNow(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s = nullptr) {
  return copyOn(linearCopy(dst, src, n), s);
}

CUresult fillNow(CUdeviceptr dst, uint64_t value, unsigned bytes, size_t n, CUstream s = nullptr) {
  return fillOn(dst, 0, value, bytes, n, 1, s);
}

}  // namespace

extern "C" {

// ---- allocation ---------------------------------------------------------------------------

CUresult cuMemGetInfo(size_t* free, size_t* total) {
  return api([&](Driver& d) {
    requireContext(d);
    const uint64_t used = d.gpu.memory().bytesAllocated();
    *need(free) = used < kDeviceTotalMemory ? kDeviceTotalMemory - used : 0;
    *need(total) = kDeviceTotalMemory;
    return CUDA_SUCCESS;
  });
}

CUresult cuMemAlloc(CUdeviceptr* dptr, size_t bytes) {
  return api([&](Driver& d) {
    requireContext(d);
    need(dptr);
    if (bytes == 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    if (bytes > kDeviceTotalMemory - d.gpu.memory().bytesAllocated())
      throw ApiError{CUDA_ERROR_OUT_OF_MEMORY, ""};
    *dptr = d.gpu.memory().allocate(bytes, "cudaMalloc buffer #" + std::to_string(++d.allocations));
    if (d.checks) d.checks->trackUninitialized(*dptr, bytes);  // initcheck: until written
    return CUDA_SUCCESS;
  });
}

CUresult cuMemAllocPitch(CUdeviceptr* dptr, size_t* pitch, size_t width, size_t height,
                         unsigned elementBytes) {
  return api([&](Driver& d) {
    requireContext(d);
    if (width == 0 || height == 0 || !pitch) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    *pitch = (width + 511) / 512 * 512;  // the H200's pitch alignment (texture pitch: 512)
    *need(dptr) = d.gpu.memory().allocate(
        *pitch * height, "cudaMallocPitch buffer #" + std::to_string(++d.allocations));
    if (d.checks) d.checks->trackUninitialized(*dptr, *pitch * height);
    return CUDA_SUCCESS;
  });
}

CUresult cuMemFree(CUdeviceptr dptr) {
  return api([&](Driver& d) {
    requireContext(d);
    if (dptr == 0 || d.graphAllocations.count(dptr)) return CUDA_SUCCESS;  // graph.h
    if (freeToPool(d, dptr)) return CUDA_SUCCESS;
    if (auto it = d.mirrors.find(dptr); it != d.mirrors.end() && it->second.managed) {
      d.freeShared(dptr);
      return CUDA_SUCCESS;
    }
    try {
      d.gpu.memory().free(dptr);
    } catch (const std::invalid_argument&) {
      throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    }
    if (d.checks) d.checks->forget(dptr);
    return CUDA_SUCCESS;
  });
}

// Stream-ordered free: now, or a memory node of the stream's capture (graph.h).
CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream s) {
  bool captured = false;
  const CUresult r = api([&](Driver& d) {
    requireContext(d);
    if (GraphNode* n = captureNode(d, s, CU_GRAPH_NODE_TYPE_MEM_FREE)) {
      if (!d.graphAllocations.count(dptr))
        throw ApiError{CUDA_ERROR_INVALID_VALUE,
                       "cudaFreeAsync in a stream capture frees memory no graph allocated"};
      n->allocation = dptr;
      captured = true;
    }
    return CUDA_SUCCESS;
  });
  return r != CUDA_SUCCESS || captured ? r : cuMemFree(dptr);
}

CUresult cuMemGetAddressRange(CUdeviceptr* base, size_t* size, CUdeviceptr dptr) {
  return api([&](Driver& d) {
    requireContext(d);
    if (HostMirror* m = d.mirrorOf(reinterpret_cast<void*>(dptr))) {
      if (base) *base = m->device;
      if (size) *size = m->bytes;
      return CUDA_SUCCESS;
    }
    const warpsim::sim::Allocation* a = d.gpu.memory().allocationContaining(dptr);
    if (!a) throw ApiError{CUDA_ERROR_NOT_FOUND, ""};
    if (base) *base = a->base;
    if (size) *size = a->size;
    return CUDA_SUCCESS;
  });
}

CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytes, unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(dptr) = d.allocateShared(bytes, flags, true);
    return CUDA_SUCCESS;
  });
}

CUresult cuMemHostAlloc(void** pp, size_t bytes, unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(pp) = reinterpret_cast<void*>(d.allocateShared(bytes, flags, false));
    return CUDA_SUCCESS;
  });
}

CUresult cuMemAllocHost(void** pp, size_t bytes) { return cuMemHostAlloc(pp, bytes, 0); }

CUresult cuMemFreeHost(void* p) {
  return api([&](Driver& d) {
    d.freeShared(addr(p));
    return CUDA_SUCCESS;
  });
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr* dptr, void* p, unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    HostMirror* m = d.mirrorOf(p);
    if (!m) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    *need(dptr) = m->device + (addr(p) - addr(m->host));
    return CUDA_SUCCESS;
  });
}

CUresult cuMemHostGetFlags(unsigned* flags, void* p) {
  return api([&](Driver& d) {
    HostMirror* m = d.mirrorOf(p);
    if (!m) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    *need(flags) = m->flags;
    return CUDA_SUCCESS;
  });
}

CUresult cuMemHostRegister(void* p, size_t bytes, unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    if (!p || bytes == 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    if (d.mirrorOf(p)) throw ApiError{CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, ""};
    HostMirror m;
    m.allocation = m.device = d.gpu.memory().allocate(bytes, "registered host memory");
    m.host = static_cast<uint8_t*>(p);
    m.bytes = bytes;
    m.flags = flags;
    d.mirrors[addr(p)] = m;
    return CUDA_SUCCESS;
  });
}

CUresult cuMemHostUnregister(void* p) {
  return api([&](Driver& d) {
    auto it = d.mirrors.find(addr(p));
    if (it == d.mirrors.end() || it->second.mapped)
      throw ApiError{CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, ""};
    d.gpu.memory().free(it->second.allocation);
    d.mirrors.erase(it);
    return CUDA_SUCCESS;
  });
}

CUresult cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  return api([&](Driver& d) {
    need(data);
    HostMirror* m = d.mirrorOf(reinterpret_cast<void*>(ptr));
    const warpsim::sim::Allocation* a = m ? nullptr : d.gpu.memory().allocationContaining(ptr);
    if (!m && !a) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    switch (attribute) {
      case CU_POINTER_ATTRIBUTE_CONTEXT:
        *static_cast<CUcontext*>(data) = d.context();
        break;
      case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *static_cast<unsigned*>(data) =
            m && !m->managed ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        break;
      case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *static_cast<CUdeviceptr*>(data) = m ? m->device + (ptr - addr(m->host)) : ptr;
        break;
      case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (!m) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        *static_cast<void**>(data) = reinterpret_cast<void*>(ptr);
        break;
      case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *static_cast<unsigned*>(data) = m && m->managed;
        break;
      case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *static_cast<int*>(data) = 0;
        break;
      case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *static_cast<CUdeviceptr*>(data) = m ? addr(m->host) : a->base;
        break;
      case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *static_cast<size_t*>(data) = m ? m->bytes : a->size;
        break;
      case CU_POINTER_ATTRIBUTE_MAPPED:
        *static_cast<unsigned*>(data) = 1;
        break;
      case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *static_cast<unsigned long long*>(data) = ptr;
        break;
      case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        *static_cast<unsigned*>(data) = 1;
        break;
      default:
        throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuPointerGetAttributes(unsigned count, CUpointer_attribute* attributes, void** data,
                                CUdeviceptr ptr) {
  return api([&](Driver& d) {
    const bool known =
        d.mirrorOf(reinterpret_cast<void*>(ptr)) || d.gpu.memory().allocationContaining(ptr);
    for (unsigned i = 0; i < count; ++i) {
      if (!data[i]) continue;
      if (!known) {
        // An unregistered host pointer: the real driver reports it as unknown memory
        // (cudaPointerGetAttributes then says cudaMemoryTypeUnregistered).
        switch (attributes[i]) {
          case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
            *static_cast<unsigned*>(data[i]) = 0;
            break;
          case CU_POINTER_ATTRIBUTE_CONTEXT:
            *static_cast<CUcontext*>(data[i]) = nullptr;
            break;
          case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
            *static_cast<int*>(data[i]) = -2;
            break;
          case CU_POINTER_ATTRIBUTE_IS_MANAGED:
            *static_cast<unsigned*>(data[i]) = 0;
            break;
          case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
          case CU_POINTER_ATTRIBUTE_HOST_POINTER:
            *static_cast<void**>(data[i]) = nullptr;
            break;
          default:
            break;
        }
        continue;
      }
      const CUresult r = cuPointerGetAttribute(data[i], attributes[i], ptr);
      if (r == CUDA_ERROR_INVALID_VALUE && attributes[i] == CU_POINTER_ATTRIBUTE_HOST_POINTER)
        *static_cast<void**>(data[i]) = nullptr;
      else if (r != CUDA_SUCCESS)
        return r;
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t bytes, CUmemLocation location, unsigned flags,
                            CUstream s) {
  return api([&](Driver& d) { return CUDA_SUCCESS; });
}

CUresult cuMemAdvise(CUdeviceptr p, size_t bytes, CUmem_advise advice, CUmemLocation location) {
  return api([&](Driver& d) { return CUDA_SUCCESS; });
}

CUresult cuStreamAttachMemAsync(CUstream s, CUdeviceptr p, size_t bytes, unsigned flags) {
  return api([&](Driver& d) { return CUDA_SUCCESS; });
}

// ---- copies -------------------------------------------------------------------------------

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) { return copyNow(dst, src, n); }
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  return copyNow(dst, src, n, s);
}
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void* src, size_t n) {
  return copyNow(dst, addr(src), n);
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t n, CUstream s) {
  return copyNow(dst, addr(src), n, s);
}
CUresult cuMemcpyDtoH(void* dst, CUdeviceptr src, size_t n) { return copyNow(addr(dst), src, n); }
CUresult cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t n, CUstream s) {
  return copyNow(addr(dst), src, n, s);
}
CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) { return copyNow(dst, src, n); }
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  return copyNow(dst, src, n, s);
}
CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n) {
  return copyNow(dst, src, n);
}
CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n,
                           CUstream s) {
  return copyNow(dst, src, n, s);
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D* c) {
  return c ? copyOn(as3D(*c)) : CUDA_ERROR_INVALID_VALUE;
}
CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D* c) { return cuMemcpy2D(c); }
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D* c, CUstream s) {
  return c ? copyOn(as3D(*c), s) : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D* c) { return c ? copyOn(*c) : CUDA_ERROR_INVALID_VALUE; }
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D* c, CUstream s) {
  return c ? copyOn(*c, s) : CUDA_ERROR_INVALID_VALUE;
}

// ---- fills --------------------------------------------------------------------------------

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char v, size_t n) { return fillNow(dst, v, 1, n); }
CUresult cuMemsetD16(CUdeviceptr dst, unsigned short v, size_t n) { return fillNow(dst, v, 2, n); }
CUresult cuMemsetD32(CUdeviceptr dst, unsigned v, size_t n) { return fillNow(dst, v, 4, n); }
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s) {
  return fillNow(dst, v, 1, n, s);
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n, CUstream s) {
  return fillNow(dst, v, 2, n, s);
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n, CUstream s) {
  return fillNow(dst, v, 4, n, s);
}
CUresult cuMemsetD2D8(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h) {
  return fillOn(dst, pitch, v, 1, w, h);
}
CUresult cuMemsetD2D16(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h) {
  return fillOn(dst, pitch, v, 2, w, h);
}
CUresult cuMemsetD2D32(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h) {
  return fillOn(dst, pitch, v, 4, w, h);
}
CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char v, size_t w, size_t h,
                           CUstream s) {
  return fillOn(dst, pitch, v, 1, w, h, s);
}
CUresult cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short v, size_t w, size_t h,
                            CUstream s) {
  return fillOn(dst, pitch, v, 2, w, h, s);
}
CUresult cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned v, size_t w, size_t h,
                            CUstream s) {
  return fillOn(dst, pitch, v, 4, w, h, s);
}

}  // extern "C"
