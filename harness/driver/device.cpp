// Initialization, the one device (an H200), its primary context and the cuCtx* calls.
#include <cstring>

#include "harness/driver/device_attributes.h"
#include "harness/driver/driver.h"
#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

// The context current on this thread: CUDA's current context is per host thread.
thread_local CUcontext tlsCurrent = nullptr;
thread_local int tlsPushed = 0;  // contexts pushed on this thread's stack (all the primary)

void checkDevice(CUdevice dev) {
  if (dev != 0) throw ApiError{CUDA_ERROR_INVALID_DEVICE, ""};
}

void checkInit(Driver& d) {
  if (!d.initialized) throw ApiError{CUDA_ERROR_NOT_INITIALIZED, ""};
}

}  // namespace

namespace warpsim::driver {

CUcontext currentContext() { return tlsCurrent; }

void requireContext(Driver& d) {
  checkInit(d);
  if (!tlsCurrent) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
}

CUresult ctxCreateV2(CUcontext* ctx, unsigned flags, CUdevice dev) {
  return api([&](Driver& d) {
    checkInit(d);
    checkDevice(dev);
    ++d.primaryRetains;
    *need(ctx) = tlsCurrent = d.context();
    ++tlsPushed;
    return CUDA_SUCCESS;
  });
}

CUresult ctxGetDeviceV1(CUdevice* dev) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(dev) = 0;
    return CUDA_SUCCESS;
  });
}

CUresult ctxSynchronizeV1() {
  return api([&](Driver& d) {
    requireContext(d);
    synchronizeDuringCapture(d, nullptr);
    return CUDA_SUCCESS;
  });
}

}  // namespace warpsim::driver

extern "C" {

CUresult cuInit(unsigned flags) {
  return api(
      [&](Driver& d) {
        if (flags != 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        d.initialized = true;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDriverGetVersion(int* version) {
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  *version = kDriverVersion;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(ordinal);
        *need(device) = 0;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceGetCount(int* count) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        *need(count) = 1;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        if (!name || len <= 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        std::strncpy(name, kDeviceName, size_t(len));
        name[len - 1] = '\0';
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceTotalMem(size_t* bytes, CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        *need(bytes) = kDeviceTotalMemory;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attrib, CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        const std::optional<int> v = deviceAttribute(attrib);
        if (!v) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        *need(value) = *v;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkDevice(dev);
        *need(major) = 9;
        *need(minor) = 0;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        // A fixed, recognizable UUID: "warpsim-h200" padded.
        static const char kUuid[16] = {'w', 'a', 'r', 'p', 's', 'i', 'm', '-',
                                       'h', '2', '0', '0', 0,   0,   0,   1};
        std::memcpy(need(uuid)->bytes, kUuid, 16);
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceGetLuid(char* luid, unsigned* mask, CUdevice dev) {
  return CUDA_ERROR_NOT_SUPPORTED;  // Windows only
}

CUresult cuDeviceGetPCIBusId(char* busId, int len, CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        if (!busId || len <= 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        std::strncpy(busId, "0000:1b:00.0", size_t(len));
        busId[len - 1] = '\0';
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceGetByPCIBusId(CUdevice* dev, const char* busId) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        if (!busId || (std::strcmp(busId, "0000:1b:00.0") && std::strcmp(busId, "0000:1B:00.0") &&
                       std::strcmp(busId, "1b:00.0")))
          throw ApiError{CUDA_ERROR_INVALID_DEVICE, ""};
        *need(dev) = 0;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceCanAccessPeer(int* canAccess, CUdevice dev, CUdevice peer) {
  return api(
      [&](Driver& d) {
        checkDevice(dev);
        checkDevice(peer);
        *need(canAccess) = 0;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attrib, CUdevice src,
                                 CUdevice dst) {
  return CUDA_ERROR_INVALID_DEVICE;  // one device: no peers
}

CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t* maxWidth, CUarray_format format,
                                            unsigned numChannels, CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkDevice(dev);
        *need(maxWidth) = 268435456;
        return CUDA_SUCCESS;
      },
      false);
}

// ---- primary context ---------------------------------------------------------------------

CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  return api([&](Driver& d) {
    checkInit(d);
    checkDevice(dev);
    ++d.primaryRetains;
    *need(pctx) = d.context();
    return CUDA_SUCCESS;
  });
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        if (d.primaryRetains > 0) --d.primaryRetains;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned flags) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        d.primaryFlags = flags;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned* flags, int* active) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        *need(flags) = d.primaryFlags;
        *need(active) = d.primaryRetains > 0;
        return CUDA_SUCCESS;
      },
      false);
}

// Resetting the primary context would free every allocation and module; the runtime calls it
// from cudaDeviceReset, usually at the end of a program: keep the state (a program that
// allocates again afterwards still works) but clear the sticky error, as a reset does.
CUresult cuDevicePrimaryCtxReset(CUdevice dev) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        checkDevice(dev);
        d.sticky = CUDA_SUCCESS;
        return CUDA_SUCCESS;
      },
      false);
}

// ---- cuCtx* -------------------------------------------------------------------------------

CUresult cuCtxSetCurrent(CUcontext ctx) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        if (ctx && !d.isContext(ctx)) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
        tlsCurrent = ctx;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuCtxGetCurrent(CUcontext* pctx) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        *need(pctx) = tlsCurrent;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuCtxPushCurrent(CUcontext ctx) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        if (!d.isContext(ctx)) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
        tlsCurrent = ctx;
        ++tlsPushed;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuCtxPopCurrent(CUcontext* pctx) {
  return api(
      [&](Driver& d) {
        checkInit(d);
        if (!tlsCurrent) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
        if (pctx) *pctx = tlsCurrent;
        if (tlsPushed > 0) --tlsPushed;
        tlsCurrent = tlsPushed > 0 ? d.context() : nullptr;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuCtxDestroy(CUcontext ctx) {
  return api(
      [&](Driver& d) {
        if (!d.isContext(ctx)) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
        if (tlsCurrent == ctx) tlsCurrent = nullptr;
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuCtxGetDevice(CUdevice* dev) { return ctxGetDeviceV1(dev); }

CUresult cuCtxGetDevice_v2(CUdevice* dev, CUcontext ctx) {
  return api([&](Driver& d) {
    checkInit(d);
    if (ctx && !d.isContext(ctx)) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
    if (!ctx && !tlsCurrent) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
    *need(dev) = 0;
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxGetFlags(unsigned* flags) {
  return api([&](Driver& d) {
    requireContext(d);
    *need(flags) = d.primaryFlags;
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxSetFlags(unsigned flags) {
  return api([&](Driver& d) {
    requireContext(d);
    d.primaryFlags = flags;
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned* version) {
  return api(
      [&](Driver& d) {
        *need(version) = 3020;  // what the real driver reports for current contexts
        return CUDA_SUCCESS;
      },
      false);
}

CUresult cuCtxSynchronize() { return ctxSynchronizeV1(); }

CUresult cuCtxSynchronize_v2(CUcontext ctx) {
  return api([&](Driver& d) {
    checkInit(d);
    if (ctx && !d.isContext(ctx)) throw ApiError{CUDA_ERROR_INVALID_CONTEXT, ""};
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxGetLimit(size_t* value, CUlimit limit) {
  return api([&](Driver& d) {
    requireContext(d);
    switch (limit) {
      case CU_LIMIT_STACK_SIZE:
        *need(value) = d.stackLimit;
        break;
      case CU_LIMIT_PRINTF_FIFO_SIZE:
        *need(value) = d.printfFifo;
        break;
      case CU_LIMIT_MALLOC_HEAP_SIZE:
        *need(value) = d.mallocHeap;
        break;
      case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
        *need(value) = 2;
        break;
      case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
        *need(value) = d.pendingLaunches;
        break;
      case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
        *need(value) = 64;
        break;
      case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
        *need(value) = 0;
        break;
      default:
        throw ApiError{CUDA_ERROR_UNSUPPORTED_LIMIT, ""};
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  return api([&](Driver& d) {
    requireContext(d);
    switch (limit) {
      case CU_LIMIT_STACK_SIZE:
        d.stackLimit = value;
        break;
      case CU_LIMIT_PRINTF_FIFO_SIZE:
        d.printfFifo = value;
        break;
      case CU_LIMIT_MALLOC_HEAP_SIZE:
        // The heap is made by the first launch of a kernel that calls malloc; CUDA refuses to
        // set its size after that, even to the size it has (the H200: tests/recorded/heap).
        if (d.gpu.heap())
          throw ApiError{CUDA_ERROR_INVALID_VALUE,
                         "the device heap exists already (a kernel that calls malloc ran)"};
        d.mallocHeap = value;
        break;
      case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
        if (value == 0 || value > 0xFFFFFFFFu) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        d.pendingLaunches = value;
        break;
      case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
      case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
      case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
        break;
      default:
        throw ApiError{CUDA_ERROR_UNSUPPORTED_LIMIT, ""};
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxGetCacheConfig(CUfunc_cache* config) {
  return api([&](Driver& d) {
    *need(config) = CU_FUNC_CACHE_PREFER_NONE;
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
  return api([&](Driver& d) { return CUDA_SUCCESS; });
}

CUresult cuCtxGetSharedMemConfig(CUsharedconfig* config) {
  return api([&](Driver& d) {
    *need(config) = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxSetSharedMemConfig(CUsharedconfig config) {
  return api([&](Driver& d) { return CUDA_SUCCESS; });
}

CUresult cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  return api([&](Driver& d) {
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxResetPersistingL2Cache() {
  return api([&](Driver& d) { return CUDA_SUCCESS; });
}

CUresult cuCtxGetId(CUcontext ctx, unsigned long long* id) {
  return api([&](Driver& d) {
    *need(id) = 1;
    return CUDA_SUCCESS;
  });
}

CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned flags) { return CUDA_ERROR_INVALID_VALUE; }

CUresult cuCtxDisablePeerAccess(CUcontext peer) { return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED; }

}  // extern "C"
