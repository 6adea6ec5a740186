// cuGetProcAddress: how the CUDA runtime finds every driver entry point. It asks by plain name
// and the CUDA version that introduced the ABI it was compiled against ("cuMemAlloc", 3020 means
// cuMemAlloc_v2; "cuCtxGetDevice", 13000 the two-argument form), with a flag for the per-thread
// default-stream variants. The answer is the entry with the highest version not above the one
// asked. Each entry is checked at compile time against cudaTypedefs.h's PFN_<name>_v<version>.
// Per-thread default-stream variants share the plain entry: work runs when it is enqueued, so
// every default stream behaves alike.
#include <cudaProfiler.h>
#include <cudaProfilerTypedefs.h>
#include <cudaTypedefs.h>

#include <cstring>

#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

struct Entry {
  const char* name;
  int version;
  void* fn;
};

#define WARPSIM_ENTRY(name, version, fn) \
  Entry { #name, version, reinterpret_cast < void*>(static_cast <PFN_##name##_v##version>(fn)) }
// An older version whose PFN type cudaTypedefs.h keeps internal: checked against the newer
// version's type, which has the same signature.
#define WARPSIM_ENTRY_AS(name, version, typeVersion, fn) \
  Entry { #name, version, reinterpret_cast < void*>(static_cast <PFN_##name##_v##typeVersion>(fn)) }

CUresult getProcAddressV1(const char* symbol, void** pfn, int version, cuuint64_t flags);
CUresult getProcAddressV2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                          CUdriverProcAddressQueryResult* status);

const Entry kEntries[] = {
    WARPSIM_ENTRY(cuGetProcAddress, 11030, getProcAddressV1),
    WARPSIM_ENTRY(cuGetProcAddress, 12000, getProcAddressV2),
    WARPSIM_ENTRY(cuGetExportTable, 3000, cuGetExportTable),
    WARPSIM_ENTRY(cuInit, 2000, cuInit),
    WARPSIM_ENTRY(cuDriverGetVersion, 2020, cuDriverGetVersion),
    WARPSIM_ENTRY(cuGetErrorString, 6000, cuGetErrorString),
    WARPSIM_ENTRY(cuGetErrorName, 6000, cuGetErrorName),
    WARPSIM_ENTRY(cuProfilerStart, 4000, cuProfilerStart),
    WARPSIM_ENTRY(cuProfilerStop, 4000, cuProfilerStop),
    // devices
    WARPSIM_ENTRY(cuDeviceGet, 2000, cuDeviceGet),
    WARPSIM_ENTRY(cuDeviceGetCount, 2000, cuDeviceGetCount),
    WARPSIM_ENTRY(cuDeviceGetName, 2000, cuDeviceGetName),
    WARPSIM_ENTRY(cuDeviceTotalMem, 3020, cuDeviceTotalMem),
    WARPSIM_ENTRY(cuDeviceGetAttribute, 2000, cuDeviceGetAttribute),
    WARPSIM_ENTRY(cuDeviceComputeCapability, 2000, cuDeviceComputeCapability),
    WARPSIM_ENTRY(cuDeviceGetUuid, 9020, cuDeviceGetUuid),
    WARPSIM_ENTRY(cuDeviceGetUuid, 11040, cuDeviceGetUuid),
    WARPSIM_ENTRY(cuDeviceGetLuid, 10000, cuDeviceGetLuid),
    WARPSIM_ENTRY(cuDeviceGetPCIBusId, 4010, cuDeviceGetPCIBusId),
    WARPSIM_ENTRY(cuDeviceGetByPCIBusId, 4010, cuDeviceGetByPCIBusId),
    WARPSIM_ENTRY(cuDeviceCanAccessPeer, 4000, cuDeviceCanAccessPeer),
    WARPSIM_ENTRY(cuDeviceGetP2PAttribute, 8000, cuDeviceGetP2PAttribute),
    WARPSIM_ENTRY(cuDeviceGetTexture1DLinearMaxWidth, 11010, cuDeviceGetTexture1DLinearMaxWidth),
    // contexts
    WARPSIM_ENTRY(cuDevicePrimaryCtxRetain, 7000, cuDevicePrimaryCtxRetain),
    WARPSIM_ENTRY_AS(cuDevicePrimaryCtxRelease, 7000, 11000, cuDevicePrimaryCtxRelease),
    WARPSIM_ENTRY(cuDevicePrimaryCtxRelease, 11000, cuDevicePrimaryCtxRelease),
    WARPSIM_ENTRY_AS(cuDevicePrimaryCtxSetFlags, 7000, 11000, cuDevicePrimaryCtxSetFlags),
    WARPSIM_ENTRY(cuDevicePrimaryCtxSetFlags, 11000, cuDevicePrimaryCtxSetFlags),
    WARPSIM_ENTRY(cuDevicePrimaryCtxGetState, 7000, cuDevicePrimaryCtxGetState),
    WARPSIM_ENTRY_AS(cuDevicePrimaryCtxReset, 7000, 11000, cuDevicePrimaryCtxReset),
    WARPSIM_ENTRY(cuDevicePrimaryCtxReset, 11000, cuDevicePrimaryCtxReset),
    WARPSIM_ENTRY(cuCtxCreate, 3020, ctxCreateV2),
    WARPSIM_ENTRY(cuCtxDestroy, 4000, cuCtxDestroy),
    WARPSIM_ENTRY(cuCtxGetFlags, 7000, cuCtxGetFlags),
    WARPSIM_ENTRY(cuCtxSetFlags, 12010, cuCtxSetFlags),
    WARPSIM_ENTRY(cuCtxSetCurrent, 4000, cuCtxSetCurrent),
    WARPSIM_ENTRY(cuCtxGetCurrent, 4000, cuCtxGetCurrent),
    WARPSIM_ENTRY(cuCtxPushCurrent, 4000, cuCtxPushCurrent),
    WARPSIM_ENTRY(cuCtxPopCurrent, 4000, cuCtxPopCurrent),
    WARPSIM_ENTRY(cuCtxGetApiVersion, 3020, cuCtxGetApiVersion),
    WARPSIM_ENTRY(cuCtxGetDevice, 2000, ctxGetDeviceV1),
    WARPSIM_ENTRY(cuCtxGetDevice, 13000, cuCtxGetDevice_v2),
    WARPSIM_ENTRY(cuCtxGetLimit, 3010, cuCtxGetLimit),
    WARPSIM_ENTRY(cuCtxSetLimit, 3010, cuCtxSetLimit),
    WARPSIM_ENTRY(cuCtxGetCacheConfig, 3020, cuCtxGetCacheConfig),
    WARPSIM_ENTRY(cuCtxSetCacheConfig, 3020, cuCtxSetCacheConfig),
    WARPSIM_ENTRY(cuCtxGetSharedMemConfig, 4020, cuCtxGetSharedMemConfig),
    WARPSIM_ENTRY(cuCtxSetSharedMemConfig, 4020, cuCtxSetSharedMemConfig),
    WARPSIM_ENTRY(cuCtxGetStreamPriorityRange, 5050, cuCtxGetStreamPriorityRange),
    WARPSIM_ENTRY(cuCtxSynchronize, 2000, ctxSynchronizeV1),
    WARPSIM_ENTRY(cuCtxSynchronize, 13000, cuCtxSynchronize_v2),
    WARPSIM_ENTRY(cuCtxResetPersistingL2Cache, 11000, cuCtxResetPersistingL2Cache),
    WARPSIM_ENTRY(cuCtxGetId, 12000, cuCtxGetId),
    WARPSIM_ENTRY(cuCtxEnablePeerAccess, 4000, cuCtxEnablePeerAccess),
    WARPSIM_ENTRY(cuCtxDisablePeerAccess, 4000, cuCtxDisablePeerAccess),
    // modules and libraries
    WARPSIM_ENTRY(cuModuleLoad, 2000, cuModuleLoad),
    WARPSIM_ENTRY(cuModuleLoadData, 2000, cuModuleLoadData),
    WARPSIM_ENTRY(cuModuleLoadDataEx, 2010, cuModuleLoadDataEx),
    WARPSIM_ENTRY(cuModuleLoadFatBinary, 2000, cuModuleLoadFatBinary),
    WARPSIM_ENTRY(cuModuleUnload, 2000, cuModuleUnload),
    WARPSIM_ENTRY(cuModuleGetFunction, 2000, cuModuleGetFunction),
    WARPSIM_ENTRY(cuModuleGetGlobal, 3020, cuModuleGetGlobal),
    WARPSIM_ENTRY(cuModuleGetLoadingMode, 11070, cuModuleGetLoadingMode),
    WARPSIM_ENTRY(cuModuleGetFunctionCount, 12040, cuModuleGetFunctionCount),
    WARPSIM_ENTRY(cuModuleEnumerateFunctions, 12040, cuModuleEnumerateFunctions),
    WARPSIM_ENTRY_AS(cuLinkCreate, 5050, 6050, cuLinkCreate),
    WARPSIM_ENTRY(cuLinkCreate, 6050, cuLinkCreate),
    WARPSIM_ENTRY_AS(cuLinkAddData, 5050, 6050, cuLinkAddData),
    WARPSIM_ENTRY(cuLinkAddData, 6050, cuLinkAddData),
    WARPSIM_ENTRY_AS(cuLinkAddFile, 5050, 6050, cuLinkAddFile),
    WARPSIM_ENTRY(cuLinkAddFile, 6050, cuLinkAddFile),
    WARPSIM_ENTRY(cuLinkComplete, 5050, cuLinkComplete),
    WARPSIM_ENTRY(cuLinkDestroy, 5050, cuLinkDestroy),
    WARPSIM_ENTRY(cuLibraryLoadData, 12000, cuLibraryLoadData),
    WARPSIM_ENTRY(cuLibraryLoadFromFile, 12000, cuLibraryLoadFromFile),
    WARPSIM_ENTRY(cuLibraryUnload, 12000, cuLibraryUnload),
    WARPSIM_ENTRY(cuLibraryGetKernel, 12000, cuLibraryGetKernel),
    WARPSIM_ENTRY(cuLibraryGetModule, 12000, cuLibraryGetModule),
    WARPSIM_ENTRY(cuKernelGetFunction, 12000, cuKernelGetFunction),
    WARPSIM_ENTRY(cuKernelGetLibrary, 12050, cuKernelGetLibrary),
    WARPSIM_ENTRY(cuLibraryGetGlobal, 12000, cuLibraryGetGlobal),
    WARPSIM_ENTRY(cuLibraryGetManaged, 12000, cuLibraryGetManaged),
    WARPSIM_ENTRY(cuLibraryGetUnifiedFunction, 12000, cuLibraryGetUnifiedFunction),
    WARPSIM_ENTRY(cuLibraryGetKernelCount, 12040, cuLibraryGetKernelCount),
    WARPSIM_ENTRY(cuLibraryEnumerateKernels, 12040, cuLibraryEnumerateKernels),
    WARPSIM_ENTRY(cuKernelGetAttribute, 12000, cuKernelGetAttribute),
    WARPSIM_ENTRY(cuKernelSetAttribute, 12000, cuKernelSetAttribute),
    WARPSIM_ENTRY(cuKernelSetCacheConfig, 12000, cuKernelSetCacheConfig),
    WARPSIM_ENTRY(cuKernelGetName, 12030, cuKernelGetName),
    WARPSIM_ENTRY(cuKernelGetParamInfo, 12040, cuKernelGetParamInfo),
    WARPSIM_ENTRY(cuFuncGetName, 12030, cuFuncGetName),
    WARPSIM_ENTRY(cuFuncGetParamInfo, 12040, cuFuncGetParamInfo),
    WARPSIM_ENTRY(cuFuncGetModule, 11000, cuFuncGetModule),
    WARPSIM_ENTRY(cuFuncIsLoaded, 12040, cuFuncIsLoaded),
    WARPSIM_ENTRY(cuFuncLoad, 12040, cuFuncLoad),
    // memory
    WARPSIM_ENTRY(cuMemGetInfo, 3020, cuMemGetInfo),
    WARPSIM_ENTRY(cuMemAlloc, 3020, cuMemAlloc),
    WARPSIM_ENTRY(cuMemAllocPitch, 3020, cuMemAllocPitch),
    WARPSIM_ENTRY(cuMemFree, 3020, cuMemFree),
    WARPSIM_ENTRY(cuMemAllocAsync, 11020, cuMemAllocAsync),
    WARPSIM_ENTRY(cuMemFreeAsync, 11020, cuMemFreeAsync),
    WARPSIM_ENTRY(cuMemAllocFromPoolAsync, 11020, cuMemAllocFromPoolAsync),
    WARPSIM_ENTRY(cuMemPoolCreate, 11020, cuMemPoolCreate),
    WARPSIM_ENTRY(cuMemPoolDestroy, 11020, cuMemPoolDestroy),
    WARPSIM_ENTRY(cuMemPoolTrimTo, 11020, cuMemPoolTrimTo),
    WARPSIM_ENTRY(cuMemPoolSetAttribute, 11020, cuMemPoolSetAttribute),
    WARPSIM_ENTRY(cuMemPoolGetAttribute, 11020, cuMemPoolGetAttribute),
    WARPSIM_ENTRY(cuMemPoolSetAccess, 11020, cuMemPoolSetAccess),
    WARPSIM_ENTRY(cuMemPoolGetAccess, 11020, cuMemPoolGetAccess),
    WARPSIM_ENTRY(cuDeviceGetDefaultMemPool, 11020, cuDeviceGetDefaultMemPool),
    WARPSIM_ENTRY(cuDeviceGetMemPool, 11020, cuDeviceGetMemPool),
    WARPSIM_ENTRY(cuDeviceSetMemPool, 11020, cuDeviceSetMemPool),
    WARPSIM_ENTRY(cuDeviceGetGraphMemAttribute, 11040, cuDeviceGetGraphMemAttribute),
    WARPSIM_ENTRY(cuDeviceSetGraphMemAttribute, 11040, cuDeviceSetGraphMemAttribute),
    WARPSIM_ENTRY(cuMemGetAddressRange, 3020, cuMemGetAddressRange),
    WARPSIM_ENTRY(cuMemAllocManaged, 6000, cuMemAllocManaged),
    WARPSIM_ENTRY(cuMemAllocHost, 3020, cuMemAllocHost),
    WARPSIM_ENTRY(cuMemHostAlloc, 2020, cuMemHostAlloc),
    WARPSIM_ENTRY(cuMemFreeHost, 2000, cuMemFreeHost),
    WARPSIM_ENTRY(cuMemHostGetDevicePointer, 3020, cuMemHostGetDevicePointer),
    WARPSIM_ENTRY(cuMemHostGetFlags, 2030, cuMemHostGetFlags),
    WARPSIM_ENTRY_AS(cuMemHostRegister, 4000, 6050, cuMemHostRegister),
    WARPSIM_ENTRY(cuMemHostRegister, 6050, cuMemHostRegister),
    WARPSIM_ENTRY(cuMemHostUnregister, 4000, cuMemHostUnregister),
    WARPSIM_ENTRY(cuPointerGetAttribute, 4000, cuPointerGetAttribute),
    WARPSIM_ENTRY(cuPointerGetAttributes, 7000, cuPointerGetAttributes),
    WARPSIM_ENTRY(cuMemPrefetchAsync, 12020, cuMemPrefetchAsync),
    WARPSIM_ENTRY(cuMemAdvise, 12020, cuMemAdvise),
    WARPSIM_ENTRY(cuStreamAttachMemAsync, 6000, cuStreamAttachMemAsync),
    WARPSIM_ENTRY(cuMemcpy, 4000, cuMemcpy),
    WARPSIM_ENTRY(cuMemcpyAsync, 4000, cuMemcpyAsync),
    WARPSIM_ENTRY(cuMemcpyPeer, 4000, cuMemcpyPeer),
    WARPSIM_ENTRY(cuMemcpyPeerAsync, 4000, cuMemcpyPeerAsync),
    WARPSIM_ENTRY(cuMemcpyHtoD, 3020, cuMemcpyHtoD),
    WARPSIM_ENTRY(cuMemcpyHtoDAsync, 3020, cuMemcpyHtoDAsync),
    WARPSIM_ENTRY(cuMemcpyDtoH, 3020, cuMemcpyDtoH),
    WARPSIM_ENTRY(cuMemcpyDtoHAsync, 3020, cuMemcpyDtoHAsync),
    WARPSIM_ENTRY(cuMemcpyDtoD, 3020, cuMemcpyDtoD),
    WARPSIM_ENTRY(cuMemcpyDtoDAsync, 3020, cuMemcpyDtoDAsync),
    WARPSIM_ENTRY(cuMemcpy2D, 3020, cuMemcpy2D),
    WARPSIM_ENTRY(cuMemcpy2DUnaligned, 3020, cuMemcpy2DUnaligned),
    WARPSIM_ENTRY(cuMemcpy2DAsync, 3020, cuMemcpy2DAsync),
    WARPSIM_ENTRY(cuMemcpy3D, 3020, cuMemcpy3D),
    WARPSIM_ENTRY(cuMemcpy3DAsync, 3020, cuMemcpy3DAsync),
    WARPSIM_ENTRY(cuMemsetD8, 3020, cuMemsetD8),
    WARPSIM_ENTRY(cuMemsetD16, 3020, cuMemsetD16),
    WARPSIM_ENTRY(cuMemsetD32, 3020, cuMemsetD32),
    WARPSIM_ENTRY(cuMemsetD8Async, 3020, cuMemsetD8Async),
    WARPSIM_ENTRY(cuMemsetD16Async, 3020, cuMemsetD16Async),
    WARPSIM_ENTRY(cuMemsetD32Async, 3020, cuMemsetD32Async),
    WARPSIM_ENTRY(cuMemsetD2D8, 3020, cuMemsetD2D8),
    WARPSIM_ENTRY(cuMemsetD2D16, 3020, cuMemsetD2D16),
    WARPSIM_ENTRY(cuMemsetD2D32, 3020, cuMemsetD2D32),
    WARPSIM_ENTRY(cuMemsetD2D8Async, 3020, cuMemsetD2D8Async),
    WARPSIM_ENTRY(cuMemsetD2D16Async, 3020, cuMemsetD2D16Async),
    WARPSIM_ENTRY(cuMemsetD2D32Async, 3020, cuMemsetD2D32Async),
    // arrays, texture and surface objects (texture.cpp)
    WARPSIM_ENTRY(cuArrayCreate, 3020, cuArrayCreate),
    WARPSIM_ENTRY(cuArray3DCreate, 3020, cuArray3DCreate),
    WARPSIM_ENTRY(cuArrayDestroy, 2000, cuArrayDestroy),
    WARPSIM_ENTRY(cuArrayGetDescriptor, 3020, cuArrayGetDescriptor),
    WARPSIM_ENTRY(cuArray3DGetDescriptor, 3020, cuArray3DGetDescriptor),
    WARPSIM_ENTRY(cuMipmappedArrayCreate, 5000, cuMipmappedArrayCreate),
    WARPSIM_ENTRY(cuMipmappedArrayGetLevel, 5000, cuMipmappedArrayGetLevel),
    WARPSIM_ENTRY(cuMipmappedArrayDestroy, 5000, cuMipmappedArrayDestroy),
    WARPSIM_ENTRY(cuTexObjectCreate, 5000, cuTexObjectCreate),
    WARPSIM_ENTRY(cuTexObjectDestroy, 5000, cuTexObjectDestroy),
    WARPSIM_ENTRY(cuSurfObjectCreate, 5000, cuSurfObjectCreate),
    WARPSIM_ENTRY(cuSurfObjectDestroy, 5000, cuSurfObjectDestroy),
    // tensor maps (tensor_map.cpp)
    WARPSIM_ENTRY(cuTensorMapEncodeTiled, 12000, cuTensorMapEncodeTiled),
    WARPSIM_ENTRY(cuTensorMapEncodeIm2col, 12000, cuTensorMapEncodeIm2col),
    // launches
    WARPSIM_ENTRY(cuLaunchKernel, 4000, cuLaunchKernel),
    WARPSIM_ENTRY(cuLaunchCooperativeKernel, 9000, cuLaunchCooperativeKernel),
    WARPSIM_ENTRY(cuLaunchKernelEx, 11060, cuLaunchKernelEx),
    WARPSIM_ENTRY(cuLaunchHostFunc, 10000, cuLaunchHostFunc),
    WARPSIM_ENTRY(cuFuncGetAttribute, 2020, cuFuncGetAttribute),
    WARPSIM_ENTRY(cuFuncSetAttribute, 9000, cuFuncSetAttribute),
    WARPSIM_ENTRY(cuFuncSetCacheConfig, 3000, cuFuncSetCacheConfig),
    WARPSIM_ENTRY(cuFuncSetSharedMemConfig, 4020, cuFuncSetSharedMemConfig),
    WARPSIM_ENTRY(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050,
                  cuOccupancyMaxActiveBlocksPerMultiprocessor),
    WARPSIM_ENTRY(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, 7000,
                  cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags),
    WARPSIM_ENTRY(cuOccupancyMaxPotentialBlockSize, 6050, cuOccupancyMaxPotentialBlockSize),
    WARPSIM_ENTRY(cuOccupancyMaxPotentialBlockSizeWithFlags, 7000,
                  cuOccupancyMaxPotentialBlockSizeWithFlags),
    WARPSIM_ENTRY(cuOccupancyAvailableDynamicSMemPerBlock, 10020,
                  cuOccupancyAvailableDynamicSMemPerBlock),
    // streams and events
    WARPSIM_ENTRY(cuStreamCreate, 2000, cuStreamCreate),
    WARPSIM_ENTRY(cuStreamCreateWithPriority, 5050, cuStreamCreateWithPriority),
    WARPSIM_ENTRY(cuStreamDestroy, 4000, cuStreamDestroy),
    WARPSIM_ENTRY(cuStreamSynchronize, 2000, cuStreamSynchronize),
    WARPSIM_ENTRY(cuStreamQuery, 2000, cuStreamQuery),
    WARPSIM_ENTRY(cuStreamWaitEvent, 3020, cuStreamWaitEvent),
    WARPSIM_ENTRY(cuStreamAddCallback, 5000, cuStreamAddCallback),
    WARPSIM_ENTRY(cuStreamGetPriority, 5050, cuStreamGetPriority),
    WARPSIM_ENTRY(cuStreamGetFlags, 5050, cuStreamGetFlags),
    WARPSIM_ENTRY(cuStreamGetId, 12000, cuStreamGetId),
    WARPSIM_ENTRY(cuStreamGetCtx, 9020, cuStreamGetCtx),
    WARPSIM_ENTRY(cuStreamGetDevice, 12080, cuStreamGetDevice),
    WARPSIM_ENTRY(cuStreamIsCapturing, 10000, cuStreamIsCapturing),
    WARPSIM_ENTRY(cuStreamGetAttribute, 11000, cuStreamGetAttribute),
    WARPSIM_ENTRY(cuStreamSetAttribute, 11000, cuStreamSetAttribute),
    WARPSIM_ENTRY(cuStreamCopyAttributes, 11000, cuStreamCopyAttributes),
    WARPSIM_ENTRY(cuThreadExchangeStreamCaptureMode, 10010, cuThreadExchangeStreamCaptureMode),
    // stream capture and graphs (graph_api.cpp)
    WARPSIM_ENTRY(cuStreamBeginCapture, 10010, cuStreamBeginCapture),
    WARPSIM_ENTRY(cuStreamBeginCaptureToGraph, 12030, cuStreamBeginCaptureToGraph),
    WARPSIM_ENTRY(cuStreamEndCapture, 10000, cuStreamEndCapture),
    WARPSIM_ENTRY(cuStreamGetCaptureInfo, 10010, streamGetCaptureInfoV1),
    WARPSIM_ENTRY(cuStreamGetCaptureInfo, 11030, streamGetCaptureInfoV2),
    WARPSIM_ENTRY(cuStreamGetCaptureInfo, 12030, cuStreamGetCaptureInfo),
    WARPSIM_ENTRY(cuStreamUpdateCaptureDependencies, 11030, streamUpdateCaptureDependenciesV1),
    WARPSIM_ENTRY(cuStreamUpdateCaptureDependencies, 12030, cuStreamUpdateCaptureDependencies),
    WARPSIM_ENTRY(cuGraphCreate, 10000, cuGraphCreate),
    WARPSIM_ENTRY(cuGraphDestroy, 10000, cuGraphDestroy),
    WARPSIM_ENTRY(cuGraphClone, 10000, cuGraphClone),
    WARPSIM_ENTRY(cuGraphAddKernelNode, 10000, graphAddKernelNodeV1),
    WARPSIM_ENTRY(cuGraphAddKernelNode, 12000, cuGraphAddKernelNode),
    WARPSIM_ENTRY(cuGraphAddMemcpyNode, 10000, cuGraphAddMemcpyNode),
    WARPSIM_ENTRY(cuGraphAddMemsetNode, 10000, cuGraphAddMemsetNode),
    WARPSIM_ENTRY(cuGraphAddHostNode, 10000, cuGraphAddHostNode),
    WARPSIM_ENTRY(cuGraphAddMemAllocNode, 11040, cuGraphAddMemAllocNode),
    WARPSIM_ENTRY(cuGraphAddMemFreeNode, 11040, cuGraphAddMemFreeNode),
    WARPSIM_ENTRY(cuDeviceGraphMemTrim, 11040, cuDeviceGraphMemTrim),
    WARPSIM_ENTRY(cuGraphAddEmptyNode, 10000, cuGraphAddEmptyNode),
    WARPSIM_ENTRY(cuGraphAddChildGraphNode, 10000, cuGraphAddChildGraphNode),
    WARPSIM_ENTRY(cuGraphAddEventRecordNode, 11010, cuGraphAddEventRecordNode),
    WARPSIM_ENTRY(cuGraphAddEventWaitNode, 11010, cuGraphAddEventWaitNode),
    WARPSIM_ENTRY(cuGraphAddNode, 12020, graphAddNodeV1),
    WARPSIM_ENTRY(cuGraphAddNode, 12030, cuGraphAddNode),
    WARPSIM_ENTRY(cuGraphAddDependencies, 10000, graphAddDependenciesV1),
    WARPSIM_ENTRY(cuGraphAddDependencies, 12030, cuGraphAddDependencies),
    WARPSIM_ENTRY(cuGraphConditionalHandleCreate, 12030, cuGraphConditionalHandleCreate),
    WARPSIM_ENTRY(cuGraphNodeGetType, 10000, cuGraphNodeGetType),
    WARPSIM_ENTRY(cuGraphGetNodes, 10000, cuGraphGetNodes),
    WARPSIM_ENTRY(cuGraphGetRootNodes, 10000, cuGraphGetRootNodes),
    WARPSIM_ENTRY(cuGraphKernelNodeSetParams, 12000, cuGraphKernelNodeSetParams),
    WARPSIM_ENTRY(cuGraphInstantiateWithFlags, 11040, cuGraphInstantiateWithFlags),
    WARPSIM_ENTRY(cuGraphInstantiateWithParams, 12000, cuGraphInstantiateWithParams),
    WARPSIM_ENTRY(cuGraphExecDestroy, 10000, cuGraphExecDestroy),
    WARPSIM_ENTRY(cuGraphExecUpdate, 12000, cuGraphExecUpdate),
    WARPSIM_ENTRY(cuGraphExecKernelNodeSetParams, 12000, cuGraphExecKernelNodeSetParams),
    WARPSIM_ENTRY(cuGraphUpload, 11010, cuGraphUpload),
    WARPSIM_ENTRY(cuGraphLaunch, 10000, cuGraphLaunch),
    WARPSIM_ENTRY(cuEventCreate, 2000, cuEventCreate),
    WARPSIM_ENTRY(cuEventDestroy, 4000, cuEventDestroy),
    WARPSIM_ENTRY(cuEventRecord, 2000, cuEventRecord),
    WARPSIM_ENTRY(cuEventRecordWithFlags, 11010, cuEventRecordWithFlags),
    WARPSIM_ENTRY(cuEventQuery, 2000, cuEventQuery),
    WARPSIM_ENTRY(cuEventSynchronize, 2000, cuEventSynchronize),
    WARPSIM_ENTRY(cuEventElapsedTime, 2000, eventElapsedTimeV1),
    WARPSIM_ENTRY(cuEventElapsedTime, 12080, cuEventElapsedTime),
};

#undef WARPSIM_ENTRY
#undef WARPSIM_ENTRY_AS

CUresult getProcAddressV2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                          CUdriverProcAddressQueryResult* status) {
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  const Entry* best = nullptr;
  bool named = false;
  for (const Entry& e : kEntries) {
    if (std::strcmp(e.name, symbol) != 0) continue;
    named = true;
    if (e.version <= version && (!best || e.version > best->version)) best = &e;
  }
  *pfn = best ? best->fn : nullptr;
  if (status)
    *status = best    ? CU_GET_PROC_ADDRESS_SUCCESS
              : named ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                      : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (!best && *symbol && driver().options.trace)
    std::fprintf(stderr, "warpsim: cuGetProcAddress: %s (version %d) not provided\n", symbol,
                 version);
  return best ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult getProcAddressV1(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return getProcAddressV2(symbol, pfn, version, flags, nullptr);
}

}  // namespace

extern "C" {

CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult* status) {
  return getProcAddressV2(symbol, pfn, version, flags, status);
}

}  // extern "C"

// The first version of cuGetProcAddress, which cuda.h hides behind the _v2 name.
#undef cuGetProcAddress
extern "C" CUresult cuGetProcAddress(const char* symbol, void** pfn, int version,
                                     cuuint64_t flags) {
  return getProcAddressV1(symbol, pfn, version, flags);
}
