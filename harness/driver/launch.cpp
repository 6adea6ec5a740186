// Kernel launches, function attributes and the occupancy calculator.
#include <algorithm>

#include "harness/driver/device_attributes.h"
#include "harness/driver/internal.h"

using namespace warpsim::driver;

namespace {

// Registers per thread when the program has no sm_90 cubin to take ptxas's count from (a
// common count for simple kernels). Documented in the README.
constexpr int kAssumedRegisters = 32;

int registersOf(Function* f) {
  auto it = f->module->registers.find(f->name);
  return it == f->module->registers.end() ? kAssumedRegisters : it->second;
}

const warpsim::isa::FunctionCode& codeOf(Function* f) {
  const auto& p = f->module->loaded->program;
  return p.functions[size_t(p.findEntry(f->name))];
}

int maxThreads(Function* f) {
  const auto& src = *codeOf(f).src;
  if (src.maxntid[0])
    return int(src.maxntid[0] * std::max(1u, src.maxntid[1]) * std::max(1u, src.maxntid[2]));
  if (src.reqntid[0])
    return int(src.reqntid[0] * std::max(1u, src.reqntid[1]) * std::max(1u, src.reqntid[2]));
  return 1024;
}

// A launch on stream s: run now, or a kernel node of the graph s captures into.
CUresult launchNow(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, CUstream s, void** params, void** extra,
                   warpsim::sim::Dim3 cluster = {0, 0, 0}, bool cooperative = false) {
  return api([&](Driver& d) {
    requireContext(d);
    Function* fn = d.checkFunction(f);
    GraphNode* n = captureNode(d, s, CU_GRAPH_NODE_TYPE_KERNEL);
    if (!n) {
      d.launch(fn, {gx, gy, gz}, {bx, by, bz}, shared, params, extra, cluster, cooperative);
      return CUDA_SUCCESS;
    }
    n->function = fn;
    n->params = d.packParams(fn, params, extra);
    n->grid[0] = gx, n->grid[1] = gy, n->grid[2] = gz;
    n->block[0] = bx, n->block[1] = by, n->block[2] = bz;
    n->cluster[0] = cluster.x, n->cluster[1] = cluster.y, n->cluster[2] = cluster.z;
    n->shared = shared;
    n->cooperative = cooperative;
    return CUDA_SUCCESS;
  });
}

// Blocks of `threads` threads with `dynamicShared` bytes that fit on one SM at once.
int blocksPerSm(Function* f, int threads, size_t dynamicShared) {
  if (threads <= 0) return 0;
  const int warps = (threads + 31) / 32;
  const int byWarps = 64 / warps;
  const int byBlocks = 32;
  const int regsPerWarp = (registersOf(f) * 32 + 255) / 256 * 256;
  const int byRegs = 65536 / (regsPerWarp * warps);
  const size_t shared = codeOf(f).sharedBytes + dynamicShared + 1024;  // + reserved per block
  const int byShared = int((228 * 1024) / shared);
  return std::max(0, std::min({byWarps, byBlocks, byRegs, byShared}));
}

}  // namespace

extern "C" {

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, CUstream s, void** params,
                        void** extra) {
  return launchNow(f, gx, gy, gz, bx, by, bz, shared, s, params, extra);
}

// Cooperative launches: every CTA resident at once (the grid must fit the chip), co-scheduled
// so that cg::this_grid().sync() completes (sim/func/group.h).
CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared, CUstream s,
                                   void** params) {
  return launchNow(f, gx, gy, gz, bx, by, bz, shared, s, params, nullptr, {0, 0, 0}, true);
}

// The cluster dimension and cooperative attributes launch clusters and cooperative grids; the
// other attributes (priorities, access policies, programmatic serialization) change nothing
// the simulator models.
CUresult cuLaunchKernelEx(const CUlaunchConfig* c, CUfunction f, void** params, void** extra) {
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  warpsim::sim::Dim3 cluster{0, 0, 0};
  bool cooperative = false;
  for (unsigned i = 0; i < c->numAttrs; ++i) {
    const CUlaunchAttribute& a = c->attrs[i];
    if (a.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      cluster = {a.value.clusterDim.x, a.value.clusterDim.y, a.value.clusterDim.z};
    if (a.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE) cooperative = a.value.cooperative != 0;
  }
  return launchNow(f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
                   c->blockDimZ, c->sharedMemBytes, c->hStream, params, extra, cluster,
                   cooperative);
}

CUresult cuFuncGetAttribute(int* value, CUfunction_attribute attribute, CUfunction f) {
  return api([&](Driver& d) {
    Function* fn = d.checkFunction(f);
    need(value);
    const auto& code = codeOf(fn);
    switch (attribute) {
      case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
        *value = maxThreads(fn);
        break;
      case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
        *value = int(code.sharedBytes);
        break;
      case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
        *value = 0;
        break;
      case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
        *value = int(code.localBytes);
        break;
      case CU_FUNC_ATTRIBUTE_NUM_REGS:
        *value = registersOf(fn);
        break;
      case CU_FUNC_ATTRIBUTE_PTX_VERSION:
        *value = 90;
        break;
      case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
        *value = 90;
        break;
      case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA:
        *value = 0;
        break;
      case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        *value = fn->maxDynamicShared;
        break;
      case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        *value = fn->preferredCarveout;
        break;
      // The kernel's cluster directives (__cluster_dims__: .reqnctapercluster, .explicitcluster).
      case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
        *value = code.src->explicitCluster ? 1 : 0;
        break;
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
        *value = int(code.src->reqnctapercluster[0]);
        break;
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
        *value =
            code.src->reqnctapercluster[0] ? int(std::max(1u, code.src->reqnctapercluster[1])) : 0;
        break;
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        *value =
            code.src->reqnctapercluster[0] ? int(std::max(1u, code.src->reqnctapercluster[2])) : 0;
        break;
      case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        *value = fn->nonPortableCluster ? 1 : 0;
        break;
      case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *value = 0;
        break;
      default:
        throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attribute, int value) {
  return api([&](Driver& d) {
    Function* fn = d.checkFunction(f);
    switch (attribute) {
      case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        if (value < 0 || uint64_t(value) + codeOf(fn).sharedBytes > 227 * 1024)
          throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
        fn->maxDynamicShared = value;
        break;
      case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        fn->preferredCarveout = value;
        break;
      case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        fn->nonPortableCluster = value != 0;
        break;
      case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
        break;
      default:
        throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    }
    return CUDA_SUCCESS;
  });
}

CUresult cuKernelGetAttribute(int* value, CUfunction_attribute attribute, CUkernel kernel,
                              CUdevice dev) {
  return cuFuncGetAttribute(value, attribute, reinterpret_cast<CUfunction>(kernel));
}

CUresult cuKernelSetAttribute(CUfunction_attribute attribute, int value, CUkernel kernel,
                              CUdevice dev) {
  return cuFuncSetAttribute(reinterpret_cast<CUfunction>(kernel), attribute, value);
}

CUresult cuFuncSetCacheConfig(CUfunction f, CUfunc_cache config) {
  return api([&](Driver& d) {
    d.checkFunction(f);
    return CUDA_SUCCESS;
  });
}

CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
  return cuFuncSetCacheConfig(reinterpret_cast<CUfunction>(kernel), config);
}

CUresult cuFuncSetSharedMemConfig(CUfunction f, CUsharedconfig config) {
  return cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_NONE);
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, CUfunction f,
                                                              int blockSize, size_t dynamicShared,
                                                              unsigned flags) {
  return api([&](Driver& d) {
    *need(blocks) = blocksPerSm(d.checkFunction(f), blockSize, dynamicShared);
    return CUDA_SUCCESS;
  });
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction f, int blockSize,
                                                     size_t dynamicShared) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, f, blockSize, dynamicShared,
                                                              0);
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int* minGridSize, int* blockSize, CUfunction f,
                                                   CUoccupancyB2DSize sharedOfBlock,
                                                   size_t dynamicShared, int limit,
                                                   unsigned flags) {
  return api([&](Driver& d) {
    Function* fn = d.checkFunction(f);
    const int cap = std::min(limit > 0 ? limit : 1024, maxThreads(fn));
    int bestSize = 0, bestThreads = -1;
    for (int size = 32; size <= cap; size += 32) {
      const size_t shared = sharedOfBlock ? sharedOfBlock(size) : dynamicShared;
      const int threads = blocksPerSm(fn, size, shared) * size;
      if (threads > bestThreads) bestThreads = threads, bestSize = size;
    }
    const size_t shared = sharedOfBlock ? sharedOfBlock(bestSize) : dynamicShared;
    *need(blockSize) = bestSize;
    *need(minGridSize) = blocksPerSm(fn, bestSize, shared) * 132;
    return CUDA_SUCCESS;
  });
}

CUresult cuOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, CUfunction f,
                                          CUoccupancyB2DSize sharedOfBlock, size_t dynamicShared,
                                          int limit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, f, sharedOfBlock,
                                                   dynamicShared, limit, 0);
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, CUfunction f, int numBlocks,
                                                 int blockSize) {
  return api([&](Driver& d) {
    Function* fn = d.checkFunction(f);
    if (numBlocks <= 0) throw ApiError{CUDA_ERROR_INVALID_VALUE, ""};
    const size_t perBlock = 228 * 1024 / size_t(numBlocks);
    const size_t used = codeOf(fn).sharedBytes + 1024;
    *need(bytes) = std::min<size_t>(perBlock > used ? perBlock - used : 0, 227 * 1024);
    return CUDA_SUCCESS;
  });
}

}  // extern "C"
