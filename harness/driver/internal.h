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

// The bytes of the file at `path` (module.cpp); CUDA_ERROR_FILE_NOT_FOUND when it cannot be read.
std::string readFile(const char* path);

// Loads any image cuModuleLoadData accepts into *handle (CUmodule or CUlibrary).
CUresult loadModule(void** handle, const void* image);

// The private tables of cuGetExportTable (export_tables.cpp).
CUresult exportTable(const void** table, const CUuuid* id);

}  // namespace warpsim::driver
