// What the entry-point files share: context and stream checks, and the entry points of older
// ABI versions that the runtime still asks cuGetProcAddress for (cuda.h maps the plain names to
// the newest version, so these have names of their own).
#pragma once

#include <cuda.h>

#include <string>

#include "harness/driver/driver.h"

namespace warpsim::driver {

CUcontext currentContext();
// Throws CUDA_ERROR_NOT_INITIALIZED / CUDA_ERROR_INVALID_CONTEXT when there is no current context.
void requireContext(Driver& d);
// Throws CUDA_ERROR_INVALID_HANDLE for a stream that is neither a live one nor a default stream.
void checkStream(Driver& d, CUstream s);

CUresult ctxCreateV2(CUcontext* ctx, unsigned flags, CUdevice dev);
CUresult ctxGetDeviceV1(CUdevice* dev);
CUresult ctxSynchronizeV1();
CUresult eventElapsedTimeV1(float* ms, CUevent start, CUevent end);
CUresult graphAddKernelNodeV1(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                              const CUDA_KERNEL_NODE_PARAMS_v1* p);
CUresult graphAddDependenciesV1(CUgraph g, const CUgraphNode* from, const CUgraphNode* to,
                                size_t count);
CUresult graphAddNodeV1(CUgraphNode* out, CUgraph g, const CUgraphNode* deps, size_t count,
                        CUgraphNodeParams* p);
CUresult streamGetCaptureInfoV1(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id);
CUresult streamGetCaptureInfoV2(CUstream s, CUstreamCaptureStatus* status, cuuint64_t* id,
                                CUgraph* graph, const CUgraphNode** deps, size_t* count);
CUresult streamUpdateCaptureDependenciesV1(CUstream s, CUgraphNode* deps, size_t count,
                                           unsigned flags);

// The bytes of the file at `path` (module.cpp); CUDA_ERROR_FILE_NOT_FOUND when it cannot be read.
std::string readFile(const char* path);

// Loads any image cuModuleLoadData accepts into *handle (CUmodule or CUlibrary); `lazy` as
// Driver::loadImage.
CUresult loadModule(void** handle, const void* image, bool lazy = false);

// Copies and fills as graph nodes and stream operations describe them (memory.cpp).
void copy3D(Driver& d, const CUDA_MEMCPY3D& c);
void fill2D(Driver& d, CUdeviceptr dst, size_t pitch, uint64_t value, unsigned bytes, size_t width,
            size_t height);
// Stream-ordered allocation from `pool` (null: the device's current pool), and its free; false
// when `address` is no pool allocation (mem_pool.cpp).
uint64_t allocateFromPool(Driver& d, MemPool* pool, size_t bytes);
uint64_t allocateOn(Driver& d, MemPool* pool, size_t bytes, CUstream s);
bool freeToPool(Driver& d, uint64_t address);
// Records `e` now (stream.cpp): the host time and, under --timing, the device timeline's.
void recordEvent(Driver& d, CUevent e);

// The private tables of cuGetExportTable (export_tables.cpp).
CUresult exportTable(const void** table, const CUuuid* id);

}  // namespace warpsim::driver
